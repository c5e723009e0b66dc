/**
 * The PostgreSQL engine: weighted tsvectors with prefix tsqueries, ranked by ts_rank (the
 * ranking rules with ts_rank standing in for bm25: ranking.ts), and a trigram near-miss on the
 * display name for a one-word query that matched nothing (a mistyped name). It answers every
 * search, at any generation.
 */
import type { ServerSummary, Tool } from '../types.js';
import { SUMMARY_COLUMNS, TOOL_COLUMNS, toSummary, toTool, type ServerRow, type ToolRow } from '../store/rows.js';
import type { ServerQuery } from './engine.js';
import { TS_RANK_WEIGHTS } from './ranking.js';
import type { SearchSource } from './search-source.js';
import { SERVER_ORDER, pageOf, serverQuery, toolQuery, type Query, type SqlDialect, type SqlEngine } from './sql-search.js';

/**
 * The words as a tsquery in which every word must match as a prefix: websearch_to_tsquery parses
 * and quotes them (it never fails on user text), then each quoted lexeme gets `:*`.
 */
const PREFIX_TSQUERY = "to_tsquery('simple', regexp_replace(websearch_to_tsquery('simple', ?)::text, '''([^'']|'''')+''', '\\&:*', 'g'))";

const POSTGRES: SqlDialect = {
  join: 'JOIN',
  where: (index) => `${index}.document @@ ${PREFIX_TSQUERY}`,
  // ts_rank's weights run D, C, B, A.
  rank: (index) => `ts_rank('{${TS_RANK_WEIGHTS.join(', ')}}', ${index}.document, ${PREFIX_TSQUERY}) DESC`,
  rankBindsExpression: true,
  // Each word in double quotes, so `or` and a leading `-` are words, not websearch operators.
  expression: (terms) => terms.map((term) => `"${term}"`).join(' '),
  contains: (column) => `strpos(${column}, ?) > 0`,
  // PostgreSQL sorts NULL first descending: it is told to put unknown dates last.
  serverOrder: { ...SERVER_ORDER, newest: 's.published_at DESC NULLS LAST, s.id ASC' },
};

/** Servers whose display name is close to a query that matched nothing (a typo). */
function nearMissQuery(search: ServerQuery, select: string, paged: boolean): Query {
  const bindings: Query['bindings'] = [];
  let sql = `SELECT ${select} FROM servers s`;
  if (search.category !== null) {
    sql += ' JOIN server_categories c ON c.server_id = s.id AND c.slug = ?';
    bindings.push(search.category);
  }
  sql += ' WHERE s.sort_name % ?';
  bindings.push(search.text ?? '');
  if (!paged) return { sql, bindings };
  if (search.sort === 'relevance') {
    sql += ' ORDER BY similarity(s.sort_name, ?) DESC, s.id';
    bindings.push(search.text ?? '');
  } else {
    sql += ` ORDER BY ${POSTGRES.serverOrder[search.sort]}`;
  }
  sql += ' LIMIT ? OFFSET ?';
  bindings.push(search.limit, search.offset);
  return { sql, bindings };
}

const TOOL_SELECT = TOOL_COLUMNS.join(', ');

export function createPostgresEngine({ sql }: SearchSource): SqlEngine {
  return {
    name: 'postgres',
    async searchServers(query) {
      const found = await pageOf<ServerRow, ServerSummary>(sql, (select, paged) => serverQuery(POSTGRES, query, select, paged), SUMMARY_COLUMNS, toSummary);
      // A single word that matched nothing may be a mistyped name (multi-word queries keep every word required).
      if (found.total > 0 || query.terms?.length !== 1 || !query.text) return found;
      return pageOf<ServerRow, ServerSummary>(sql, (select, paged) => nearMissQuery(query, select, paged), SUMMARY_COLUMNS, toSummary);
    },
    searchTools: (query) => pageOf<ToolRow, Tool>(sql, (select, paged) => toolQuery(POSTGRES, query, select, paged), TOOL_SELECT, toTool),
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
