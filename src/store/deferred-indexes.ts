/**
 * Building an index over rows already in a table sorts them once; keeping it up to date while
 * rows arrive in another order costs a B-tree search and a page write per row and index. So
 * when a bulk write fills empty SQLite tables, their non-unique indexes are dropped first and
 * built again afterwards, in the same transaction, from the definitions SQLite stored for them:
 * the schema ends as it began, and a failure rolls the drop back with everything else. Unique
 * indexes stay (foreign keys and conflicts need them while rows arrive).
 */
import type { Knex } from 'knex';
import { dialectOf, rowsOf } from './db.js';

/** Runs `work` with the non-unique indexes of those of `tables` that are empty built after it. */
export async function withIndexesDeferred<T>(trx: Knex.Transaction, tables: readonly string[], work: () => Promise<T>): Promise<T> {
  const deferred = await deferIndexes(trx, tables);
  const result = await work();
  await deferred.build();
  return result;
}

/** Indexes dropped for a bulk write: `build` makes them again (once, however often it is called). */
export interface DeferredIndexes {
  build(): Promise<void>;
}

/** Drops the non-unique indexes of those of `tables` that are empty (SQLite only); `build` restores them. */
export async function deferIndexes(trx: Knex.Transaction, tables: readonly string[]): Promise<DeferredIndexes> {
  if (dialectOf(trx) !== 'sqlite') return { build: async () => undefined };
  const empty: string[] = [];
  for (const table of tables) {
    const any = rowsOf(await trx.raw(`SELECT 1 FROM "${table}" LIMIT 1`));
    if (any.length === 0) empty.push(table);
  }
  if (empty.length === 0) return { build: async () => undefined };
  const indexes = rowsOf<{ name: string; sql: string }>(await trx.raw(
    `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE %' AND tbl_name IN (${empty.map(() => '?').join(', ')}) ORDER BY rowid`,
    empty,
  ));
  for (const index of indexes) await trx.raw(`DROP INDEX "${index.name.replaceAll('"', '""')}"`);
  let pending = indexes;
  return {
    async build() {
      const now = pending;
      pending = [];
      for (const index of now) await trx.raw(index.sql);
    },
  };
}
