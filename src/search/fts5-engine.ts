/**
 * The SQLite engine: FTS5's MATCH and bm25() with the ranking rules' column weights. It answers
 * every search, at any generation (the database is always current); the in-memory engine, where
 * it answers, gives the same pages faster.
 */
import type { ServerSummary, Tool } from '../types.js';
import { SUMMARY_COLUMNS, TOOL_COLUMNS, toSummary, toTool, type ServerRow, type ToolRow } from '../store/rows.js';
import { weightsOf } from './ranking.js';
import type { SearchSource } from './search-source.js';
import { SERVER_ORDER, pageOf, serverQuery, toolQuery, type SqlDialect, type SqlEngine } from './sql-search.js';

/** bm25() of each index, with its columns' weights. */
const BM25_OF = {
  servers_fts: `bm25(servers_fts, ${weightsOf('servers_fts').map((w) => w.toFixed(1)).join(', ')})`,
  tools_fts: `bm25(tools_fts, ${weightsOf('tools_fts').map((w) => w.toFixed(1)).join(', ')})`,
};

const FTS5: SqlDialect = {
  // Without CROSS JOIN SQLite would start from a filter's index and run one full-text lookup per row.
  join: 'CROSS JOIN',
  where: (index) => `${index} MATCH ?`,
  rank: (index) => BM25_OF[index],
  rankBindsExpression: false,
  // Each word a quoted prefix: `"word"*`; all of them required.
  expression: (terms) => terms.map((term) => `"${term}"*`).join(' '),
  contains: (column) => `instr(${column}, ?) > 0`,
  serverOrder: SERVER_ORDER,
};

const TOOL_SELECT = TOOL_COLUMNS.join(', ');

export function createFts5Engine({ sql }: SearchSource): SqlEngine {
  return {
    name: 'fts5',
    searchServers: (query) => pageOf<ServerRow, ServerSummary>(sql, (select, paged) => serverQuery(FTS5, query, select, paged), SUMMARY_COLUMNS, toSummary),
    searchTools: (query) => pageOf<ToolRow, Tool>(sql, (select, paged) => toolQuery(FTS5, query, select, paged), TOOL_SELECT, toTool),
    async explain(query) {
      const { sql: statement, bindings } = serverQuery(FTS5, query, 's.*', true);
      const rows = await sql.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement}`, bindings);
      return rows.map((row) => row.detail);
    },
  };
}
