/**
 * Snapshots of the in-memory search engine's indexes (src/store/search-snapshots.ts): a header per
 * snapshot (the content generation and code it was built at, its sections as JSON) and the
 * sections' bytes in pieces. Nothing is kept until an instance builds its indexes.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('search_snapshots', (t) => {
    t.string('id', 40).primary();
    t.string('generation', 40).notNullable();
    t.string('fingerprint', 200).notNullable();
    t.text('manifest').notNullable();
    t.string('created_at', 40).notNullable();
    t.index(['generation', 'fingerprint'], 'search_snapshots_generation');
  });
  await knex.schema.createTable('search_snapshot_parts', (t) => {
    t.string('snapshot_id', 40).notNullable();
    t.string('section', 100).notNullable();
    t.integer('piece').notNullable();
    t.binary('bytes').notNullable();
    t.primary(['snapshot_id', 'section', 'piece']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('search_snapshot_parts');
  await knex.schema.dropTableIfExists('search_snapshots');
}
