/**
 * The SQL both SQL engines run, with what differs between the databases (how words match and
 * rank, how unknown dates sort) given by each engine as a `SqlDialect`: fts5-engine.ts and
 * postgres-engine.ts. The relevance order is the ranking rules of ranking.ts.
 */
import type { ServerSort, ServerSummary, Tool, ToolSort } from '../types.js';
import type { FtsTable } from '../store/fts.js';
import { SUMMARY_COLUMNS, TOOL_COLUMNS, toSummary, toTool, type ServerRow, type ToolRow } from '../store/read-rows.js';
import { inSteps } from './match-steps.js';
import { namePrefixOf } from './query.js';
import { CLEAN_SERVER, QUALITY_FILTER, type Page, type SearchEngine, type ServerQuery, type ToolQuery } from './engine.js';
import { NAME_TIERS, TYPED_WEIGHT } from './ranking.js';
import type { SqlBinding, SqlRunner } from './search-source.js';
import { typedForms, type WordMatch } from './typos.js';
import { matchedTermsOf } from './words.js';

/** A SQL engine: it answers every search, at any generation. */
export interface SqlEngine extends SearchEngine {
  searchServers(query: ServerQuery, generation?: string): Promise<Page<ServerSummary>>;
  searchTools(query: ToolQuery, generation?: string): Promise<Page<Tool>>;
  rankServers(query: ServerQuery, generation?: string): Promise<readonly number[]>;
}

export interface Query {
  readonly sql: string;
  readonly bindings: SqlBinding[];
}

/** A statement for a select list, paged and ordered or (for the count) not. */
export type QueryOf = (select: string, paged: boolean) => Query;

export type OrderedSort = Exclude<ServerSort, 'relevance'>;

/**
 * How a database matches and ranks the query's words: each word as a prefix (by its stem where
 * it has one, its synonyms, or its typos), any of them matching, in the weighted columns name >
 * title > description > the rest (categories and tools, or a tool's server).
 */
export interface SqlDialect {
  /** Joins from the index on: SQLite's CROSS JOIN keeps the FTS index as the outer loop. */
  readonly join: string;
  /** The match condition: one binding, an expression of `expression`. */
  readonly where: (index: FtsTable) => string;
  /** The relevance of a matched row, ordered by `rankOrder`. */
  readonly rank: (index: FtsTable) => string;
  readonly rankOrder: 'ASC' | 'DESC';
  /** Whether `rank` binds the match expression again. */
  readonly rankBindsExpression: boolean;
  /** Whether a matched row of `index` holds a word: one binding, the word's own expression. */
  readonly holdsWord: (index: FtsTable) => string;
  /** The match expression's binding: each word with its alternatives (typos.ts), any word matching. */
  readonly expression: (words: readonly WordMatch[]) => string;
  /** The words an index holds, one a row in a column `term` (typos are found among them: typos.ts). */
  readonly vocabulary: (index: FtsTable) => string;
  /** Finds whether `needle` occurs in a column. */
  readonly contains: (column: string) => string;
  /** The orders of the other sorts, with the id as the last tie-break. */
  readonly serverOrder: Readonly<Record<OrderedSort, string>>;
}

/**
 * The server orders as SQLite gives them; PostgreSQL changes two (postgres-engine.ts). Each
 * lists unflagged servers first (ranking.ts: BROWSE_RULES), each from its own index
 * (migration 025); a-z and z-a read the browse name, which leaves leading punctuation out.
 */
export const SERVER_ORDER: Readonly<Record<OrderedSort, string>> = {
  'a-z': 's.flagged ASC, s.browse_name ASC, s.id ASC',
  // z-a keeps its ties by id descending, as when it read the a-z index backwards.
  'z-a': 's.flagged ASC, s.browse_name DESC, s.id DESC',
  // SQLite sorts NULL first ascending and last descending: newest and tools need no help to put
  // unknown dates and unknown tool counts last.
  newest: 's.flagged ASC, s.published_at DESC, s.id ASC',
  oldest: 's.flagged ASC, (s.published_at IS NULL), s.published_at ASC, s.id ASC',
  tools: 's.flagged ASC, s.tool_count DESC, s.id ASC',
  endpoints: 's.flagged ASC, s.endpoint_count DESC, s.id ASC',
};

const TOOL_ORDER: Readonly<Record<Exclude<ToolSort, 'relevance'>, string>> = {
  'a-z': 't.flagged ASC, t.browse_name ASC, t.id ASC',
  'z-a': 't.flagged ASC, t.browse_name DESC, t.id DESC',
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

/** The mask of the words a matched row holds (bit i of `matched_mask` for word i), with its bindings (one word: always 1). */
function maskOf(dialect: SqlDialect, index: FtsTable, words: readonly WordMatch[]): Query {
  if (words.length === 1) return { sql: '1', bindings: [] };
  const parts = words.map((_, i) => `CASE WHEN ${dialect.holdsWord(index)} THEN ${2 ** i} ELSE 0 END`);
  return { sql: `(${parts.join(' + ')})`, bindings: words.map((word) => dialect.expression([word])) };
}

/**
 * The rows matching a search with words: a WITH clause `f` of (seq, matched_mask, relevance)
 * read from the index (and `typed`, the relevance of the stemmed words as typed, where there are
 * any: ranking.ts TYPED_WEIGHT), and a subquery `m` adding the tier, only for rows holding every
 * word, compared by `tier` to the row (alias `alias` of `table`).
 */
function matchedRows(dialect: SqlDialect, index: FtsTable, words: readonly WordMatch[], filter: Query | null, tier: Query): { readonly with: Query; readonly rows: Query } {
  const { table, alias } = ROWS[index];
  const mask = maskOf(dialect, index, words);
  const expression = dialect.expression(words);
  const full = 2 ** words.length - 1;
  // Materialized, so the index drives: a planner that inlined it might start from the table.
  let inner = `WITH f AS MATERIALIZED (SELECT ${index}.rowid AS seq, ${mask.sql} AS matched_mask, ${dialect.rank(index)} AS relevance FROM ${index}${filter ? ` ${filter.sql}` : ''} WHERE ${dialect.where(index)})`;
  const bindings: SqlBinding[] = [...mask.bindings, ...(dialect.rankBindsExpression ? [expression] : []), ...(filter?.bindings ?? []), expression];
  let relevance = 'f.relevance';
  let typedJoin = '';
  const typed = typedForms(words);
  if (typed.length > 0) {
    // The typed forms as words of their own: each a prefix phrase, any matching.
    const typedExpression = dialect.expression(typed.map((word) => ({ word, stem: null, typos: [] })));
    inner += `, typed AS MATERIALIZED (SELECT ${index}.rowid AS seq, ${dialect.rank(index)} AS relevance FROM ${index} WHERE ${dialect.where(index)})`;
    bindings.push(...(dialect.rankBindsExpression ? [typedExpression] : []), typedExpression);
    relevance = `f.relevance + ${TYPED_WEIGHT} * coalesce(typed.relevance, 0.0)`;
    typedJoin = ' LEFT JOIN typed ON typed.seq = f.seq';
  }
  const rows = `(SELECT f.seq, f.matched_mask, ${relevance} AS relevance, CASE WHEN f.matched_mask = ${full} THEN ${tier.sql} ELSE ${NAME_TIERS.none} END AS tier FROM f${typedJoin} ${dialect.join} ${table} ${alias} ON ${alias}.seq = f.seq) m`;
  return { with: { sql: inner, bindings }, rows: { sql: rows, bindings: [...tier.bindings] } };
}

/** The count of the rows matching a search with words. */
function countMatched(dialect: SqlDialect, index: FtsTable, words: readonly WordMatch[], filter: Query | null): Query {
  const sql = `SELECT count(*) AS n FROM ${index}${filter ? ` ${filter.sql}` : ''} WHERE ${dialect.where(index)}`;
  return { sql, bindings: [...(filter?.bindings ?? []), dialect.expression(words)] };
}

/**
 * The order of a search with words: by `sort` (null: relevance, from the name tier on), rows
 * holding every word before the others; in relevance, then `quality` (servers: unflagged first),
 * then the tier rules. (A row in a name tier holds every word, and outside one the tier rules
 * are even: taking `partial` before them changes nothing.)
 */
function wordOrder(dialect: SqlDialect, words: readonly WordMatch[], tierRules: string, sort: string | null, quality = ''): string {
  const partial = `CASE WHEN m.matched_mask = ${2 ** words.length - 1} THEN 0 ELSE 1 END`;
  return sort !== null ? `ORDER BY ${partial}, ${sort}` : `ORDER BY m.tier, ${partial}, ${quality}${tierRules}m.relevance ${dialect.rankOrder}, `;
}

/**
 * A server search: the servers one of whose match names starts with the query text (`words`
 * null: ranking.ts MATCH_STEPS), or those holding the words (the matching strategy), or (no
 * query) every server.
 */
export function serverQuery(dialect: SqlDialect, search: ServerQuery, select: string, paged: boolean, words: readonly WordMatch[] | null = null): Query {
  const bindings: SqlBinding[] = [];
  const admits = [...(search.trust === 'clean' ? [CLEAN_SERVER] : []), ...(search.quality !== null ? [QUALITY_FILTER[search.quality]] : [])];
  const clean = admits.map((condition) => ` AND ${condition}`).join('');
  // The filters, joined to the text index: trust and quality, then category.
  const filter: Query | null = search.category === null
    ? (clean === '' ? null : { sql: `${dialect.join} servers s ON s.seq = servers_fts.rowid${clean}`, bindings: [] })
    : { sql: `${dialect.join} servers s ON s.seq = servers_fts.rowid${clean} ${dialect.join} server_categories c ON c.server_id = s.id AND c.slug = ?`, bindings: [search.category] };
  // match_names holds each name between newlines.
  const exactName = `\n${search.text ?? ''}\n`;
  const prefixName = `\n${search.text ?? ''}`;
  const { exact, prefix, none } = NAME_TIERS;
  if (search.terms !== null && words !== null) {
    if (!paged) return countMatched(dialect, 'servers_fts', words, filter);
    // A flagged server is in no name tier (SERVER_RANKING_RULES).
    const tier: Query = { sql: `CASE WHEN s.flagged <> 0 THEN ${none} WHEN ${dialect.contains('s.match_names')} THEN ${exact} WHEN ${dialect.contains('s.match_names')} THEN ${prefix} ELSE ${none} END`, bindings: [exactName, prefixName] };
    const rows = matchedRows(dialect, 'servers_fts', words, filter, tier);
    // SERVER_RANKING_RULES: exact name matches, then prefix name matches (each led by servers
    // more sources list, then by the shorter display name), then rows holding every word, then
    // the others; each of these two unflagged first, then by the database's rank; then id.
    const tierRules = `CASE WHEN m.tier < ${none} THEN -s.source_count ELSE 0 END, CASE WHEN m.tier < ${none} THEN length(s.sort_name) ELSE 0 END, `;
    const order = wordOrder(dialect, words, tierRules, search.sort === 'relevance' ? null : dialect.serverOrder[search.sort], 's.flagged, ');
    const sql = `${rows.with.sql} SELECT ${select}, m.matched_mask FROM ${rows.rows.sql} ${dialect.join} servers s ON s.seq = m.seq ${order}${search.sort === 'relevance' ? 's.id' : ''} LIMIT ? OFFSET ?`;
    return { sql, bindings: [...rows.with.bindings, ...rows.rows.bindings, search.limit, search.offset] };
  }
  let sql = `SELECT ${select} FROM servers s`;
  if (search.category !== null) {
    sql += ' JOIN server_categories c ON c.server_id = s.id AND c.slug = ?';
    bindings.push(search.category);
  }
  const conditions = [...(search.terms !== null ? [dialect.contains('s.match_names')] : []), ...admits];
  if (conditions.length > 0) sql += ` WHERE ${conditions.join(' AND ')}`;
  if (search.terms !== null) bindings.push(prefixName);
  if (!paged) return { sql, bindings };
  if (search.sort === 'relevance' && search.terms !== null) {
    // The name-prefix step: exact name, then prefix, each by more sources, then the shorter
    // name; then the flagged servers, which are in no name tier; then id.
    const tier = `CASE WHEN s.flagged <> 0 THEN ${none} WHEN ${dialect.contains('s.match_names')} THEN ${exact} WHEN ${dialect.contains('s.match_names')} THEN ${prefix} ELSE ${none} END`;
    sql += ` ORDER BY ${tier}, CASE WHEN s.flagged <> 0 THEN 0 ELSE -s.source_count END, CASE WHEN s.flagged <> 0 THEN 0 ELSE length(s.sort_name) END, s.id`;
    bindings.push(exactName, prefixName);
  } else {
    sql += ` ORDER BY ${dialect.serverOrder[search.sort === 'relevance' ? 'a-z' : search.sort]}`;
  }
  sql += ' LIMIT ? OFFSET ?';
  bindings.push(search.limit, search.offset);
  return { sql, bindings };
}

export function toolQuery(dialect: SqlDialect, search: ToolQuery, select: string, paged: boolean, words: readonly WordMatch[] | null = null): Query {
  const authentication: Query | null = search.authentication === null ? null : { sql: `${dialect.join} tools t ON t.seq = tools_fts.rowid AND t.authentication = ?`, bindings: [search.authentication] };
  if (words !== null) {
    if (!paged) return countMatched(dialect, 'tools_fts', words, authentication);
    const { exact, prefix, none } = NAME_TIERS;
    const name = search.text ?? '';
    // TOOL_RANKING_RULES: exact tool name, then prefix, then tools holding every word, the database's rank, id.
    const tier: Query = { sql: `CASE WHEN t.sort_name = ? THEN ${exact} WHEN substr(t.sort_name, 1, ?) = ? THEN ${prefix} ELSE ${none} END`, bindings: [name, name.length, name] };
    const rows = matchedRows(dialect, 'tools_fts', words, authentication, tier);
    const order = wordOrder(dialect, words, '', search.sort === 'relevance' ? null : TOOL_ORDER[search.sort]);
    const sql = `${rows.with.sql} SELECT ${select}, m.matched_mask FROM ${rows.rows.sql} ${dialect.join} tools t ON t.seq = m.seq ${dialect.join} servers s ON s.id = t.server_id ${order}${search.sort === 'relevance' ? 't.id' : ''} LIMIT ? OFFSET ?`;
    return { sql, bindings: [...rows.with.bindings, ...rows.rows.bindings, search.limit, search.offset] };
  }
  const bindings: SqlBinding[] = [];
  let sql = `SELECT ${select} FROM tools t JOIN servers s ON s.id = t.server_id`;
  if (search.authentication !== null) {
    sql += ' WHERE t.authentication = ?';
    bindings.push(search.authentication);
  }
  if (!paged) return { sql, bindings };
  sql += ` ORDER BY ${TOOL_ORDER[search.sort === 'relevance' ? 'a-z' : search.sort]} LIMIT ? OFFSET ?`;
  bindings.push(search.limit, search.offset);
  return { sql, bindings };
}

/**
 * The match steps (match-steps.ts) of a server and a tool search on a SQL database: `dialect`'s
 * queries, with each index's words read once per content generation for the typo step.
 */
export function sqlSearches(dialect: SqlDialect, sql: SqlRunner): Pick<SqlEngine, 'searchServers' | 'rankServers' | 'searchTools'> {
  const vocabularies = new Map<FtsTable, { generation: string; terms: Promise<string[]> }>();
  const vocabulary = (index: FtsTable, generation: string | undefined): Promise<string[]> => {
    const read = vocabularies.get(index);
    if (generation !== undefined && read?.generation === generation) return read.terms;
    const terms = sql.all<{ term: string }>(dialect.vocabulary(index)).then((rows) => rows.map((row) => row.term));
    if (generation !== undefined) vocabularies.set(index, { generation, terms });
    terms.catch(() => vocabularies.delete(index));
    return terms;
  };
  /** For each prefix, whether a row of `index` holds a word starting with it (one statement). */
  const holds = async (index: FtsTable, prefixes: readonly string[]): Promise<boolean[]> => {
    const parts = prefixes.map((_, i) => `(SELECT count(*) FROM (SELECT 1 FROM ${index} WHERE ${dialect.where(index)} LIMIT 1) h) AS h${i}`);
    const rows = await sql.all<Record<string, number | string>>(`SELECT ${parts.join(', ')}`, prefixes.map((word) => dialect.expression([{ word, stem: null, typos: [] }])));
    return prefixes.map((_, i) => Number(rows[0]?.[`h${i}`] ?? 0) > 0);
  };
  const steps = <T>(index: FtsTable, generation: string | undefined, byWords: (words: readonly WordMatch[]) => Promise<Page<T>>) => ({
    byWords: async (words: readonly WordMatch[]): Promise<Page<T>> => (words.length === 0 ? { items: [], total: 0, terms: [] } : byWords(words)),
    holds: (prefixes: readonly string[]) => holds(index, prefixes),
    vocabulary: () => vocabulary(index, generation),
  });
  /** A server search's page, each row read as `columns` and mapped by `map`; without `counted`, its total is only the page's rows. */
  const servers = async <Row, T>(query: ServerQuery, generation: string | undefined, columns: string, map: (row: Row) => T, counted = true): Promise<Page<T>> => {
    const run = (words: readonly WordMatch[] | null) => pageOf<Row, T>(sql, (select, paged) => serverQuery(dialect, query, select, paged, words), columns, map, words, query.terms, counted);
    if (query.terms === null) return run(null);
    const page = await inSteps(query.terms, namePrefixOf(query.text), { byName: () => run(null), ...steps('servers_fts', generation, run) });
    return page as Page<T>;
  };
  return {
    searchServers: (query, generation) => servers(query, generation, SUMMARY_COLUMNS, toSummary),
    async rankServers(query, generation) {
      // Uncounted: the match steps ask only whether a step matched anything, which the first page tells.
      const page = await servers(query, generation, 's.seq', (row: { seq: number | string }) => ({ seq: Number(row.seq) }), query.offset === 0);
      return page.items.map((item) => item.seq);
    },
    async searchTools(query, generation) {
      const run = (words: readonly WordMatch[] | null) => pageOf<ToolRow, Tool>(sql, (select, paged) => toolQuery(dialect, query, select, paged, words), TOOL_SELECT, toTool, words, query.terms);
      if (query.terms === null) return run(null);
      const page = await inSteps(query.terms, null, steps('tools_fts', generation, run));
      return page as Page<Tool>;
    },
  };
}

const TOOL_SELECT = TOOL_COLUMNS.join(', ');

/**
 * A page of `query`'s rows mapped by `map`, and the count of all its matches, read together
 * (without `counted`, the total is the page's rows: enough to tell a first page's none from
 * some); in a search with words (or a name search: `terms`), each item with the words it holds.
 */
export async function pageOf<Row, T>(sql: SqlRunner, query: QueryOf, columns: string, map: (row: Row) => T, words: readonly WordMatch[] | null = null, terms: readonly string[] | null = null, counted = true): Promise<Page<T>> {
  const paged = query(columns, true);
  const count = counted ? query('count(*) AS n', false) : null;
  const [rows, counts] = await Promise.all([sql.all<Row & { matched_mask?: number | string }>(paged.sql, paged.bindings), count ? sql.all<{ n: number | string }>(count.sql, count.bindings) : null]);
  const total = counts === null ? rows.length : Number(counts[0]?.n ?? 0);
  if (terms === null) return { items: rows.map(map), total };
  const searched = words === null ? terms : words.map((w) => w.word);
  const items = rows.map((row) => ({ ...map(row), matchedTerms: matchedTermsOf(searched, words === null ? null : Number(row.matched_mask ?? 0)) }));
  return { items, total, terms: searched };
}
