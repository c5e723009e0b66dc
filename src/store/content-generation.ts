/**
 * The catalog's content generation: a number in `catalog_generation` that every catalog write
 * moves, so each instance's read model can tell its answers and search index are stale.
 */
import type { Knex } from 'knex';
import type { Db } from './db.js';

/** The row catalog writes move (row 1 is unused). */
const CONTENT_GENERATION_ROW = 2;

/** Moves the generation by 1 inside a writer's transaction, or takes that back (by -1). */
export async function moveContentGeneration(trx: Knex.Transaction, by: 1 | -1): Promise<void> {
  await trx('catalog_generation').where({ id: CONTENT_GENERATION_ROW }).increment('generation', by);
}

/** The content generation as committed (or as `db`'s transaction sees it). */
export async function readContentGeneration(db: Db | Knex.Transaction): Promise<string> {
  const row: { generation: number | string } | undefined = await db('catalog_generation').where({ id: CONTENT_GENERATION_ROW }).first('generation');
  return String(row?.generation ?? 0);
}
