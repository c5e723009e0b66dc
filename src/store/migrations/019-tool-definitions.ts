/**
 * Tool definitions: each tool's fingerprint, the source that listed it and what the
 * tool-definition scan found in it; each server's tool-set fingerprint, its count of serious
 * findings (what search's `trust=clean` reads) and when its tools last changed; and `tool_history`, every distinct definition of each tool with when it was first and
 * last seen. Rows written before this are filled by the rescan (tool-rescan.ts), which also
 * makes their history's first entries; a tool's source stays null until its server is written again.
 */
import type { Knex } from 'knex';
import { rescanTools } from '../tool-rescan.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('servers', (table) => {
    table.string('tools_fingerprint', 64).nullable();
    table.string('tools_changed_at', 40).nullable();
    table.integer('tool_findings').nullable();
  });
  await knex.schema.alterTable('tools', (table) => {
    table.string('source', 16).nullable();
    table.string('fingerprint', 64).notNullable().defaultTo('');
    table.text('findings').notNullable().defaultTo('[]');
  });
  await knex.schema.createTable('tool_history', (t) => {
    t.string('server_id', 300).notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.string('tool_name', 200).notNullable();
    t.string('fingerprint', 64).notNullable();
    t.text('definition').notNullable();
    t.string('first_seen_at', 40).notNullable();
    t.string('last_seen_at', 40).notNullable();
    t.boolean('current').notNullable();
    t.text('seen_by').notNullable();
    t.primary(['server_id', 'tool_name', 'fingerprint']);
  });
  await rescanTools(knex, new Date().toISOString());
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('tool_history');
  await knex.schema.alterTable('tools', (table) => {
    table.dropColumn('findings');
    table.dropColumn('fingerprint');
    table.dropColumn('source');
  });
  await knex.schema.alterTable('servers', (table) => {
    table.dropColumn('tool_findings');
    table.dropColumn('tools_changed_at');
    table.dropColumn('tools_fingerprint');
  });
}
