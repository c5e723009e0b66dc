/**
 * A second row in `catalog_generation` (id 2) that only catalog writes bump, not the monitor's
 * checks: what is built from the catalog's content alone (the in-memory search index) follows
 * it, so a monitor pass recording statuses does not make it stale.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  const row: { generation: number | string } | undefined = await knex('catalog_generation').where({ id: 1 }).first('generation');
  await knex('catalog_generation').insert({ id: 2, generation: row?.generation ?? 0 });
}

export async function down(knex: Knex): Promise<void> {
  await knex('catalog_generation').where({ id: 2 }).delete();
}
