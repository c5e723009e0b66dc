/**
 * The search engines, for the composition root: it builds the ones its database has, in the
 * order the read model asks them (src/search/engine-choice.ts).
 *  - `createMemoryEngine(source, committed)` first (warm it before serving), on either database;
 *  - then `createSqlEngine(source)`: `createFts5Engine` on SQLite, `createPostgresEngine` on PostgreSQL.
 * `source` is the store's `searchSource`.
 */
import { createFts5Engine } from './fts5-engine.js';
import { createPostgresEngine } from './postgres-engine.js';
import type { SearchSource } from './search-source.js';
import type { SqlEngine } from './sql-search.js';

/** The SQL engine of the source's database: FTS5 on SQLite, tsvector on PostgreSQL. */
export function createSqlEngine(source: SearchSource): SqlEngine {
  return source.sql.dialect === 'postgres' ? createPostgresEngine(source) : createFts5Engine(source);
}

export { createFts5Engine } from './fts5-engine.js';
export { createPostgresEngine } from './postgres-engine.js';
export { createMemoryEngine, type MemoryEngine } from './memory-engine.js';
export { saveIndexSnapshot, type MemoryEngineEvents } from './current-indexes.js';
export type { SqlEngine } from './sql-search.js';
export type { SearchSource, SqlRunner, CharacterClassifier } from './search-source.js';
export type { EngineName, Page, SearchCoverage, SearchEngine, ServerQuery, ToolQuery } from './engine.js';
export { parseQuery, type ParsedQuery } from './query.js';
