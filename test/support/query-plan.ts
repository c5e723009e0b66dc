/** The plan the database chooses for a server search's statement (one line a step), for the query-plan contract test. */
import { FTS5 } from '../../src/search/fts5-engine.js';
import type { SearchSource, ServerQuery } from '../../src/search/index.js';
import { POSTGRES } from '../../src/search/postgres-engine.js';
import { serverQuery } from '../../src/search/sql-search.js';
import type { WordMatch } from '../../src/search/typos.js';

/** A query's terms as words without stems or typos. */
function wordSearchOf(terms: readonly string[] | null): WordMatch[] | null {
  return terms === null ? null : terms.map((word) => ({ word, stem: null, typos: [] }));
}

export async function explainServerSearch({ sql }: SearchSource, query: ServerQuery): Promise<string[]> {
  const dialect = sql.dialect === 'postgres' ? POSTGRES : FTS5;
  const { sql: statement, bindings } = serverQuery(dialect, query, 's.*', true, wordSearchOf(query.terms));
  if (sql.dialect === 'sqlite') {
    const rows = await sql.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement}`, bindings);
    return rows.map((row) => row.detail);
  }
  // The plan PostgreSQL would choose for a large catalog: a small one is cheaper to scan.
  return sql.transaction(async (trx) => {
    await trx.all('SET LOCAL enable_seqscan = off');
    const rows = await trx.all<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement}`, bindings);
    return rows.map((row) => row['QUERY PLAN'].trim());
  });
}
