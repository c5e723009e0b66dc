/**
 * What the search engines read the catalog through, so that they need no knex: SQL run on the
 * store's connections and the FTS5 tokenizer's character classes. The engines state what they take as interfaces of their own
 * (src/search/search-source.ts); this is the store's implementation of them.
 */
import type { Knex } from 'knex';
import type { IndexSnapshots } from './search-snapshots.js';
import { classifyCharacters } from './character-classes.js';
import { dialectOf, rowsOf, selectPrepared, type Db } from './db.js';

/** A value a search statement binds. */
type SqlBinding = string | number | null;

/** Every row of a statement, as plain objects, run on `runner` (the store's pool or a transaction). */
const allOn = (runner: Knex | Knex.Transaction) =>
  async <T>(sql: string, bindings: readonly SqlBinding[] = []): Promise<T[]> => rowsOf<T>(await runner.raw(sql, [...bindings]));

export function createSearchSource(db: Db | Knex.Transaction, snapshots?: IndexSnapshots) {
  // A writer's transaction (catalog-writer.ts) runs everything on its own connection: a statement
  // prepared on the pool's, or a transaction of the pool's, would wait for it (SQLite has one).
  const inTransaction = db.isTransaction === true;
  return {
    ...(snapshots ? { snapshots } : {}),
    sql: {
      dialect: dialectOf(db),
      all: allOn(db),
      /** Through a statement prepared once per connection: a small read run again and again. */
      prepared: <T>(sql: string, bindings: readonly (string | number)[]): Promise<T[]> => (inTransaction ? allOn(db)<T>(sql, bindings) : selectPrepared<T>(db, sql, bindings)),
      /** `work` in one transaction (e.g. a setting that holds for its statements only). */
      transaction: <T>(work: (sql: { all: ReturnType<typeof allOn> }) => Promise<T>): Promise<T> =>
        inTransaction ? work({ all: allOn(db) }) : db.transaction((trx) => work({ all: allOn(trx) })),
    },
    classify: classifyCharacters,
  };
}

/** The store's search source (Store.searchSource). */
export type CatalogSearchSource = ReturnType<typeof createSearchSource>;
