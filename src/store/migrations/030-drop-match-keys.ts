/**
 * Which records are one server is worked out from the records themselves at every ingest
 * (src/ingest/identity.ts), so the table of merge keys and the server that first claimed each
 * is read by nothing: it goes.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('match_keys');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('match_keys', (t) => {
    t.string('match_key', 600).primary();
    t.string('server_id', 300).notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.index(['server_id'], 'match_keys_server');
  });
}
