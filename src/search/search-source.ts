/**
 * What the engines read the catalog through: small interfaces the store implements
 * (src/store/search-reads.ts, `Store.searchSource`), so that no engine imports knex.
 */
import type { IndexSnapshots } from '../store/search-snapshots.js';
import type { CharacterClass } from './unicode61.js';

/** Index snapshots (index-snapshot.ts) as the store keeps them. */
export type { IndexSnapshot, IndexSnapshots, SnapshotSection, StoredSnapshot } from '../store/search-snapshots.js';

/** A value a statement binds. */
export type SqlBinding = string | number | null;

/** Runs SQL on the catalog's database; rows come back as plain objects. */
export interface SqlRunner {
  readonly dialect: 'sqlite' | 'postgres';
  all<T>(sql: string, bindings?: readonly SqlBinding[]): Promise<T[]>;
  /** The same, through a statement prepared once per connection (a small read run again and again). */
  prepared<T>(sql: string, bindings: readonly (string | number)[]): Promise<T[]>;
  /** Runs `work` in one transaction (e.g. a setting that holds for its statements only). */
  transaction<T>(work: (sql: Pick<SqlRunner, 'all'>) => Promise<T>): Promise<T>;
}

/** How FTS5's `tokenizer` (ranking.ts: FTS_TOKENIZER) treats each of `chars`. */
export type CharacterClassifier = (chars: readonly string[], tokenizer: string) => Promise<ReadonlyMap<string, CharacterClass>>;

/**
 * Everything an engine reads: SQL and (in-memory) character classes. Not the content
 * generation: which generation a search is answered at is the read model's to say (it passes
 * it in); only the in-memory engine's build reads it, given apart (memory-engine.ts).
 */
export interface SearchSource {
  readonly sql: SqlRunner;
  readonly classify: CharacterClassifier;
  /** Where index snapshots are kept; without it every index is built from the catalog. */
  readonly snapshots?: IndexSnapshots;
}
