/**
 * Ids a server had before records of it were merged or it was renamed: old links keep finding it.
 * No foreign key: an alias outlives the server it named, and follows its records to the next one.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('server_aliases', (t) => {
    t.string('alias_id', 300).primary();
    t.string('server_id', 300).notNullable();
    t.index(['server_id'], 'server_aliases_server');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('server_aliases');
}
