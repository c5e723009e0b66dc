/**
 * Quality flags (src/catalog/quality.ts) and the names browsing sorts by: each server and tool
 * gets its flags (a JSON array), whether it has any, and its browse name (browse-name.ts). The
 * sort indexes are made again with `flagged` first, since every browsing order lists unflagged
 * records before flagged ones; z-a gets indexes of its own, as it can no longer read a-z's
 * backwards. Stored rows are flagged by today's rules (quality-flags.ts), and the content
 * generation moves on, so what was built from the old rows is built again.
 */
import type { Knex } from 'knex';
import { dialectOf } from '../dialect.js';
import { recomputeQuality } from '../quality-flags.js';

/** The indexes this migration replaces (001, 004), with their definitions, for `down`. */
const REPLACED: Readonly<Record<string, string>> = {
  servers_sort_name: 'servers (sort_name, id)',
  tools_sort_name: 'tools (sort_name, id)',
  tools_auth_sort_name: 'tools (authentication, sort_name, id)',
  servers_newest: 'servers (published_at DESC, id ASC)',
  servers_oldest: 'servers ((published_at IS NULL), published_at ASC, id ASC)',
  servers_tools_desc: 'servers (tool_count DESC, id ASC)',
  servers_endpoints_desc: 'servers (endpoint_count DESC, id ASC)',
};

function indexes(knex: Knex): Readonly<Record<string, string>> {
  // SQLite puts NULL last in a descending order by itself; PostgreSQL is told to (unknown dates and tool counts).
  const last = (column: string): string => (dialectOf(knex) === 'postgres' ? `${column} DESC NULLS LAST` : `${column} DESC`);
  const newest = last('published_at');
  return {
    servers_browse_az: 'servers (flagged, browse_name ASC, id ASC)',
    servers_browse_za: 'servers (flagged, browse_name DESC, id DESC)',
    servers_browse_newest: `servers (flagged, ${newest}, id ASC)`,
    servers_browse_oldest: 'servers (flagged, (published_at IS NULL), published_at ASC, id ASC)',
    servers_browse_tools: `servers (flagged, ${last('tool_count')}, id ASC)`,
    servers_browse_endpoints: 'servers (flagged, endpoint_count DESC, id ASC)',
    tools_browse_az: 'tools (flagged, browse_name ASC, id ASC)',
    tools_browse_za: 'tools (flagged, browse_name DESC, id DESC)',
    tools_auth_browse_az: 'tools (authentication, flagged, browse_name ASC, id ASC)',
    tools_auth_browse_za: 'tools (authentication, flagged, browse_name DESC, id DESC)',
  };
}

export async function up(knex: Knex): Promise<void> {
  for (const [table, size] of [['servers', 300], ['tools', 200]] as const) {
    await knex.schema.alterTable(table, (t) => {
      t.text('quality_flags').notNullable().defaultTo('[]');
      t.integer('flagged').notNullable().defaultTo(0);
      t.string('browse_name', size).notNullable().defaultTo('');
    });
    // Orders compare bytes, as SQLite does, whatever the database's collation (as 001 does for sort_name).
    if (dialectOf(knex) === 'postgres') await knex.raw(`ALTER TABLE ${table} ALTER COLUMN browse_name TYPE varchar(${size}) COLLATE "C"`);
  }
  for (const name of Object.keys(REPLACED)) await knex.raw(`DROP INDEX IF EXISTS ${name}`);
  await recomputeQuality(knex);
  for (const [name, definition] of Object.entries(indexes(knex))) await knex.raw(`CREATE INDEX ${name} ON ${definition}`);
  await knex('catalog_generation').whereIn('id', [1, 2]).increment('generation', 1);
}

export async function down(knex: Knex): Promise<void> {
  for (const name of Object.keys(indexes(knex))) await knex.raw(`DROP INDEX IF EXISTS ${name}`);
  const newest = dialectOf(knex) === 'postgres' ? 'published_at DESC NULLS LAST' : 'published_at DESC';
  const tools = dialectOf(knex) === 'postgres' ? 'tool_count DESC NULLS LAST' : 'tool_count DESC';
  for (const [name, definition] of Object.entries(REPLACED)) await knex.raw(`CREATE INDEX ${name} ON ${definition.replace('published_at DESC', newest).replace('tool_count DESC', tools)}`);
  // Plain DROP COLUMN: Knex would rebuild a SQLite table to drop one, and dropping the old servers
  // table deletes, through the foreign keys, every row that refers to it.
  for (const table of ['servers', 'tools']) {
    for (const column of ['browse_name', 'flagged', 'quality_flags']) await knex.raw(`ALTER TABLE ${table} DROP COLUMN ${column}`);
  }
}
