/**
 * The SQLite engine: FTS5's MATCH and bm25() with the ranking rules' column weights. It answers
 * every search, at any generation (the database is always current); the in-memory engine, where
 * it answers, gives the same pages faster.
 */
import { weightsOf } from './ranking.js';
import type { SearchSource } from './search-source.js';
import { alternativesOf, type WordMatch } from './typos.js';
import { SERVER_ORDER, sqlSearches, type SqlDialect, type SqlEngine } from './sql-search.js';

/** bm25() of each index, with its columns' weights. */
const BM25_OF = {
  servers_fts: `bm25(servers_fts, ${weightsOf('servers_fts').map((w) => w.toFixed(1)).join(', ')})`,
  tools_fts: `bm25(tools_fts, ${weightsOf('tools_fts').map((w) => w.toFixed(1)).join(', ')})`,
};

/** A word's alternatives as FTS5 phrases, `"word"*` for a prefix, `"typo"` for a whole word. */
const phrasesOf = (word: WordMatch): string => alternativesOf(word).map(({ term, prefix }) => (prefix ? `"${term}"*` : `"${term}"`)).join(' OR ');

export const FTS5: SqlDialect = {
  // Without CROSS JOIN SQLite would start from a filter's index and run one full-text lookup per row.
  join: 'CROSS JOIN',
  where: (index) => `${index} MATCH ?`,
  rank: (index) => BM25_OF[index],
  rankOrder: 'ASC',
  rankBindsExpression: false,
  // Each word's list of rows is read once per statement, not per row.
  holdsWord: (index) => `${index}.rowid IN (SELECT rowid FROM ${index} WHERE ${index} MATCH ?)`,
  // Each word a group of its phrases, `("stem"* OR "synonym"* OR "typo")` (a word without a stem in the stem's place); any word matching.
  expression: (words) => words.map((word) => `(${phrasesOf(word)})`).join(' OR '),
  vocabulary: (index) => `SELECT term FROM ${index}_vocab`,
  contains: (column) => `instr(${column}, ?) > 0`,
  serverOrder: SERVER_ORDER,
};

export function createFts5Engine({ sql }: SearchSource): SqlEngine {
  return { name: 'fts5', scoring: 'bm25', ...sqlSearches(FTS5, sql) };
}
