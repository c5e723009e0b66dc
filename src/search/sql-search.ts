/**
 * The SQL both SQL engines run, with what differs between the databases (how words match and
 * rank, how unknown dates sort) given by each engine as a `SqlDialect`: fts5-engine.ts and
 * postgres-engine.ts. The relevance order is the ranking rules of ranking.ts.
 */
import type { ServerSort, ServerSummary, Tool, ToolSort } from '../types.js';
import type { FtsTable } from '../store/fts.js';
import { SUMMARY_COLUMNS, TOOL_COLUMNS, toSummary, toTool, type ServerRow, type ToolRow } from '../store/rows.js';
import { inSteps } from './match-steps.js';
import { namePrefixOf } from './query.js';
import type { Page, SearchEngine, ServerQuery, ToolQuery } from './engine.js';
import { NAME_TIERS } from './ranking.js';
import type { SqlBinding, SqlRunner } from './search-source.js';
import type { WordMatch } from './typos.js';

/** A SQL engine: it answers every search, and gives the plan of a server search (one line per step; for tests and tuning). */
export interface SqlEngine extends SearchEngine {
  searchServers(query: ServerQuery, generation?: string): Promise<Page<ServerSummary>>;
  searchTools(query: ToolQuery, generation?: string): Promise<Page<Tool>>;
  explain(query: ServerQuery): Promise<string[]>;
}

export interface Query {
  readonly sql: string;
  readonly bindings: SqlBinding[];
}

/** A statement for a select list, paged and ordered or (for the count) not. */
export type QueryOf = (select: string, paged: boolean) => Query;

export type OrderedSort = Exclude<ServerSort, 'relevance'>;

/**
 * How a database matches and ranks the query's words: every word as a prefix, in the weighted
 * columns name > title > description > the rest (categories and tools, or a tool's server).
 */
export interface SqlDialect {
  /** Joins from the index on: SQLite's CROSS JOIN keeps the FTS index as the outer loop. */
  readonly join: string;
  /** The match condition, for an expression with or without typos. */
  readonly where: (index: FtsTable, typos: boolean) => string;
  /** Best first. */
  readonly rank: (index: FtsTable, typos: boolean) => string;
  /** Whether `rank` binds the match expression again (after `where`'s). */
  readonly rankBindsExpression: boolean;
  /** The match expression's binding: each word as a prefix or one of its typos (typos.ts), all words required. */
  readonly expression: (words: readonly WordMatch[]) => string;
  /** The words an index holds, one a row in a column `term` (typos are found among them: typos.ts). */
  readonly vocabulary: (index: FtsTable) => string;
  /** Finds whether `needle` occurs in a column. */
  readonly contains: (column: string) => string;
  /** The orders of the other sorts, with the id as the last tie-break. */
  readonly serverOrder: Readonly<Record<OrderedSort, string>>;
}

/** The server orders as SQLite gives them; PostgreSQL changes one (postgres-engine.ts). */
export const SERVER_ORDER: Readonly<Record<OrderedSort, string>> = {
  'a-z': 's.sort_name ASC, s.id ASC',
  // z-a reads the a-z index backwards, so its ties run by id descending.
  'z-a': 's.sort_name DESC, s.id DESC',
  // SQLite sorts NULL first ascending and last descending: newest needs no help to put unknown dates last.
  newest: 's.published_at DESC, s.id ASC',
  oldest: '(s.published_at IS NULL), s.published_at ASC, s.id ASC',
  tools: 's.tool_count DESC, s.id ASC',
  endpoints: 's.endpoint_count DESC, s.id ASC',
};

const TOOL_ORDER: Readonly<Record<Exclude<ToolSort, 'relevance'>, string>> = {
  'a-z': 't.sort_name ASC, t.id ASC',
  'z-a': 't.sort_name DESC, t.id DESC',
};

/** The rows each index holds, as the queries alias them. */
const ROWS: Readonly<Record<FtsTable, { readonly table: string; readonly alias: string }>> = {
  servers_fts: { table: 'servers', alias: 's' },
  tools_fts: { table: 'tools', alias: 't' },
};

/** The index joined to the rows it holds (its rowid is their seq). */
function indexed(dialect: SqlDialect, index: FtsTable): string {
  const { table, alias } = ROWS[index];
  return `${index} ${dialect.join} ${table} ${alias} ON ${alias}.seq = ${index}.rowid`;
}

/**
 * A server search: by `words` (each as a prefix or one of its typos) when given, else by the
 * query's terms, or (`words` null) the servers one of whose match names starts with the query
 * text (ranking.ts: MATCH_STEPS).
 */
export function serverQuery(dialect: SqlDialect, search: ServerQuery, select: string, paged: boolean, words: readonly WordMatch[] | null = wordsOf(search.terms)): Query {
  const bindings: SqlBinding[] = [];
  const text = search.terms !== null && words !== null ? words : null;
  const typos = text?.some((word) => word.typos.length > 0) ?? false;
  let sql = `SELECT ${select} FROM ${text !== null ? indexed(dialect, 'servers_fts') : 'servers s'}`;
  if (search.category !== null) {
    sql += ` ${text !== null ? dialect.join : 'JOIN'} server_categories c ON c.server_id = s.id AND c.slug = ?`;
    bindings.push(search.category);
  }
  // match_names holds each name between newlines.
  const exactName = `\n${search.text ?? ''}\n`;
  const prefixName = `\n${search.text ?? ''}`;
  if (text !== null) {
    sql += ` WHERE ${dialect.where('servers_fts', typos)}`;
    bindings.push(dialect.expression(text));
  } else if (search.terms !== null) {
    sql += ` WHERE ${dialect.contains('s.match_names')}`;
    bindings.push(prefixName);
  }
  if (!paged) return { sql, bindings };
  if (search.sort === 'relevance' && search.terms !== null) {
    // SERVER_RANKING_RULES: exact name matches, then prefix name matches (each led by servers
    // more sources list, then by the shorter display name), then the database's rank, then id.
    const { exact, prefix, none } = NAME_TIERS;
    const tier = `CASE WHEN ${dialect.contains('s.match_names')} THEN ${exact} WHEN ${dialect.contains('s.match_names')} THEN ${prefix} ELSE ${none} END`;
    const rank = text !== null ? `${dialect.rank('servers_fts', typos)}, ` : '';
    sql += ` ORDER BY ${tier}, CASE WHEN ${tier} < ${none} THEN -s.source_count ELSE 0 END, CASE WHEN ${tier} < ${none} THEN length(s.sort_name) ELSE 0 END, ${rank}s.id`;
    bindings.push(exactName, prefixName, exactName, prefixName, exactName, prefixName);
    if (text !== null && dialect.rankBindsExpression) bindings.push(dialect.expression(text));
  } else {
    sql += ` ORDER BY ${dialect.serverOrder[search.sort === 'relevance' ? 'a-z' : search.sort]}`;
  }
  sql += ' LIMIT ? OFFSET ?';
  bindings.push(search.limit, search.offset);
  return { sql, bindings };
}

export function toolQuery(dialect: SqlDialect, search: ToolQuery, select: string, paged: boolean, words: readonly WordMatch[] | null = wordsOf(search.terms)): Query {
  const bindings: SqlBinding[] = [];
  const where: string[] = [];
  const terms = words;
  const typos = words?.some((word) => word.typos.length > 0) ?? false;
  // The index drives, never an authentication index with a lookup per row.
  let sql = `SELECT ${select} FROM `;
  sql += terms !== null ? `${indexed(dialect, 'tools_fts')} ${dialect.join} servers s ON s.id = t.server_id` : 'tools t JOIN servers s ON s.id = t.server_id';
  if (terms !== null) {
    where.push(dialect.where('tools_fts', typos));
    bindings.push(dialect.expression(terms));
  }
  if (search.authentication !== null) {
    where.push('t.authentication = ?');
    bindings.push(search.authentication);
  }
  if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
  if (!paged) return { sql, bindings };
  if (search.sort === 'relevance' && terms !== null) {
    // TOOL_RANKING_RULES: exact tool name, then prefix, then the database's rank, then id.
    const { exact, prefix, none } = NAME_TIERS;
    sql += ` ORDER BY CASE WHEN t.sort_name = ? THEN ${exact} WHEN substr(t.sort_name, 1, ?) = ? THEN ${prefix} ELSE ${none} END, ${dialect.rank('tools_fts', typos)}, t.id`;
    const name = search.text ?? '';
    bindings.push(name, name.length, name);
    if (dialect.rankBindsExpression) bindings.push(dialect.expression(terms));
  } else {
    sql += ` ORDER BY ${TOOL_ORDER[search.sort === 'relevance' ? 'a-z' : search.sort]}`;
  }
  sql += ' LIMIT ? OFFSET ?';
  bindings.push(search.limit, search.offset);
  return { sql, bindings };
}

/**
 * The match steps (match-steps.ts) of a server and a tool search on a SQL database: `dialect`'s
 * queries, with each index's words read once per content generation for the typo step.
 */
export function sqlSearches(dialect: SqlDialect, sql: SqlRunner): Pick<SqlEngine, 'searchServers' | 'searchTools'> {
  const words = new Map<FtsTable, { generation: string; terms: Promise<string[]> }>();
  const vocabulary = (index: FtsTable, generation: string | undefined): Promise<string[]> => {
    const held = words.get(index);
    if (generation !== undefined && held?.generation === generation) return held.terms;
    const terms = sql.all<{ term: string }>(dialect.vocabulary(index)).then((rows) => rows.map((row) => row.term));
    if (generation !== undefined) words.set(index, { generation, terms });
    terms.catch(() => words.delete(index));
    return terms;
  };
  return {
    async searchServers(query, generation) {
      const run = (words: readonly WordMatch[] | null) => pageOf<ServerRow, ServerSummary>(sql, (select, paged) => serverQuery(dialect, query, select, paged, words), SUMMARY_COLUMNS, toSummary);
      if (query.terms === null) return run(null);
      const page = await inSteps(query.terms, namePrefixOf(query.text), {
        byName: () => run(null),
        byWords: run,
        vocabulary: () => vocabulary('servers_fts', generation),
      });
      return page as Page<ServerSummary>;
    },
    async searchTools(query, generation) {
      const run = (words: readonly WordMatch[] | null) => pageOf<ToolRow, Tool>(sql, (select, paged) => toolQuery(dialect, query, select, paged, words), TOOL_SELECT, toTool);
      if (query.terms === null) return run(null);
      const page = await inSteps(query.terms, null, { byWords: run, vocabulary: () => vocabulary('tools_fts', generation) });
      return page as Page<Tool>;
    },
  };
}

const TOOL_SELECT = TOOL_COLUMNS.join(', ');

/** A query's terms as words without typos (null: no words). */
export function wordsOf(terms: readonly string[] | null): WordMatch[] | null {
  return terms === null ? null : terms.map((word) => ({ word, typos: [] }));
}

/** A page of `query`'s rows mapped by `map`, and the count of all its matches, read together. */
export async function pageOf<Row, T>(sql: SqlRunner, query: QueryOf, columns: string, map: (row: Row) => T): Promise<Page<T>> {
  const counted = query('count(*) AS n', false);
  const paged = query(columns, true);
  const [rows, counts] = await Promise.all([sql.all<Row>(paged.sql, paged.bindings), sql.all<{ n: number | string }>(counted.sql, counted.bindings)]);
  return { items: rows.map(map), total: Number(counts[0]?.n ?? 0) };
}
