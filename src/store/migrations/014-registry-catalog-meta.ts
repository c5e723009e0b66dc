/**
 * Sextant's block of each registry API entry (src/registry-api/catalog-meta.ts), stored with the
 * version as ingest made it: a page of the list is then one read of its versions, not a read of
 * each server's record, tools and sources (20 ms for a page of 50 at 100k). Versions stored
 * before it have none until their server is written again; the service makes theirs as it reads.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('registry_versions', (table) => {
    table.text('catalog_meta').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('registry_versions', (table) => {
    table.dropColumn('catalog_meta');
  });
}
