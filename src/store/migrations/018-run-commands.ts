/**
 * Which command a run in `sync_runs` was: `sync` (every run recorded before this) or `ingest`, so
 * both report their last success (src/metrics).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sync_runs', (table) => {
    table.string('command', 16).notNullable().defaultTo('sync');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sync_runs', (table) => {
    table.dropColumn('command');
  });
}
