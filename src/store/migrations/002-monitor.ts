/** Endpoint checks by the status monitor (history per endpoint) and runs of `sextant sync`. */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('endpoint_checks', (t) => {
    t.increments('id').primary();
    t.string('server_id', 300).notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.text('url').notNullable();
    t.string('checked_at', 40).notNullable();
    t.string('state', 16).notNullable();
    t.integer('http_status');
    t.integer('latency_ms');
    t.string('protocol_version', 20);
    t.integer('tool_count');
    t.text('error');
    t.index(['server_id', 'url', 'checked_at'], 'endpoint_checks_lookup');
  });
  await knex.schema.createTable('sync_runs', (t) => {
    t.increments('id').primary();
    t.text('upstream').notNullable();
    t.string('started_at', 40).notNullable();
    t.string('finished_at', 40);
    t.string('status', 16).notNullable();
    t.integer('records');
    t.text('error');
    t.index(['upstream', 'status', 'started_at'], 'sync_runs_upstream');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('sync_runs');
  await knex.schema.dropTableIfExists('endpoint_checks');
}
