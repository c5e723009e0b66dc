/**
 * The PostgreSQL engine: weighted tsvectors with prefix tsqueries, ranked by ts_rank (the
 * ranking rules with ts_rank standing in for bm25: ranking.ts), and the match steps of every
 * engine (match-steps.ts), typos found among the lexemes ts_stat lists. It answers every
 * search, at any generation.
 */
import { TS_RANK_WEIGHTS } from './ranking.js';
import type { SearchSource } from './search-source.js';
import { SERVER_ORDER, serverQuery, sqlSearches, type SqlDialect, type SqlEngine } from './sql-search.js';

/**
 * The words as a tsquery in which every word must match as a prefix: websearch_to_tsquery parses
 * and quotes them (it never fails on user text), then each quoted lexeme gets `:*`.
 */
const PREFIX_TSQUERY = "to_tsquery('simple', regexp_replace(websearch_to_tsquery('simple', ?)::text, '''([^'']|'''')+''', '\\&:*', 'g'))";

/** A tsquery written out (typos.ts: all words ASCII letters and digits): `('word':* | 'typo') & 'other':*`. */
const TYPO_TSQUERY = "to_tsquery('simple', ?)";

const tsqueryOf = (typos: boolean): string => (typos ? TYPO_TSQUERY : PREFIX_TSQUERY);

const POSTGRES: SqlDialect = {
  join: 'JOIN',
  where: (index, typos) => `${index}.document @@ ${tsqueryOf(typos)}`,
  // ts_rank's weights run D, C, B, A.
  rank: (index, typos) => `ts_rank('{${TS_RANK_WEIGHTS.join(', ')}}', ${index}.document, ${tsqueryOf(typos)}) DESC`,
  rankBindsExpression: true,
  // Without typos, each word in double quotes, so `or` and a leading `-` are words, not websearch
  // operators; with them, the tsquery itself.
  expression: (words) =>
    words.some((w) => w.typos.length > 0)
      ? words.map(({ word, typos }) => `(${[`'${word}':*`, ...typos.map((typo) => `'${typo}'`)].join(' | ')})`).join(' & ')
      : words.map(({ word }) => `"${word}"`).join(' '),
  vocabulary: (index) => `SELECT word AS term FROM ts_stat('SELECT document FROM ${index}')`,
  contains: (column) => `strpos(${column}, ?) > 0`,
  // PostgreSQL sorts NULL first descending: it is told to put unknown dates last.
  serverOrder: { ...SERVER_ORDER, newest: 's.published_at DESC NULLS LAST, s.id ASC' },
};

export function createPostgresEngine({ sql }: SearchSource): SqlEngine {
  return {
    name: 'postgres',
    ...sqlSearches(POSTGRES, sql),
    explain(query) {
      const { sql: statement, bindings } = serverQuery(POSTGRES, query, 's.*', true);
      // The plan PostgreSQL would choose for a large catalog: a small one is cheaper to scan.
      return sql.transaction(async (trx) => {
        await trx.all('SET LOCAL enable_seqscan = off');
        const rows = await trx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement}`, bindings);
        return rows.map((row) => row['QUERY PLAN'].trim());
      });
    },
  };
}
