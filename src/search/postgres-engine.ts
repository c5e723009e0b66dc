/**
 * The PostgreSQL engine: weighted tsvectors with prefix tsqueries, ranked by ts_rank (the
 * ranking rules with ts_rank standing in for bm25: ranking.ts), and the match steps of every
 * engine (match-steps.ts), typos found among the lexemes ts_stat lists. It answers every
 * search, at any generation.
 */
import { TS_RANK_WEIGHTS } from './ranking.js';
import type { SearchSource } from './search-source.js';
import { alternativesOf, type WordMatch } from './typos.js';
import { SERVER_ORDER, sqlSearches, type SqlDialect, type SqlEngine } from './sql-search.js';

/** A tsquery written out, its words quoted (they hold only letters and digits): `('stem':* | 'synonym':* | 'typo') | ('other':*)`. */
const TSQUERY = "to_tsquery('simple', ?)";

const lexemesOf = (word: WordMatch): string => alternativesOf(word).map(({ term, prefix }) => (prefix ? `'${term}':*` : `'${term}'`)).join(' | ');

export const POSTGRES: SqlDialect = {
  join: 'JOIN',
  where: (index) => `${index}.document @@ ${TSQUERY}`,
  // ts_rank's weights run D, C, B, A.
  rank: (index) => `ts_rank('{${TS_RANK_WEIGHTS.join(', ')}}', ${index}.document, ${TSQUERY})`,
  rankOrder: 'DESC',
  rankBindsExpression: true,
  holdsWord: (index) => `${index}.document @@ ${TSQUERY}`,
  expression: (words) => words.map((word) => `(${lexemesOf(word)})`).join(' | '),
  vocabulary: (index) => `SELECT word AS term FROM ts_stat('SELECT document FROM ${index}')`,
  contains: (column) => `strpos(${column}, ?) > 0`,
  // PostgreSQL sorts NULL first descending: it is told to put unknown dates and tool counts last.
  serverOrder: { ...SERVER_ORDER, newest: 's.flagged ASC, s.published_at DESC NULLS LAST, s.id ASC', tools: 's.flagged ASC, s.tool_count DESC NULLS LAST, s.id ASC' },
};

export function createPostgresEngine({ sql }: SearchSource): SqlEngine {
  return { name: 'postgres', scoring: 'ts_rank', ...sqlSearches(POSTGRES, sql) };
}
