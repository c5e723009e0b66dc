/**
 * The read side of the catalog: search over the full-text indexes (FTS5 on SQLite, weighted
 * tsvector on PostgreSQL), lookups, categories.
 * Rows are mapped to the contract's shapes here, at the boundary.
 */
import type { Knex } from 'knex';
import type { Authentication, Category, Server, ServerSort, ServerSummary, SourceRef, Tool, ToolSort, UpstreamRecord } from '../types.js';
import { dialectOf, rowsOf, selectPrepared, storable, type Db, type Dialect } from './db.js';
import { FTS_TABLES, type FtsTable } from './fts.js';
import { type IndexedPage, type SearchIndex, type SearchIndexes } from './search-index.js';

export interface ServerSearch {
  /** The query's words, each matched as a prefix; null lists every server. */
  readonly terms: readonly string[] | null;
  /** The normalized query text, for exact and prefix name matches. */
  readonly text: string | null;
  readonly category: string | null;
  readonly sort: ServerSort;
  readonly limit: number;
  readonly offset: number;
}

export interface ToolSearch {
  readonly terms: readonly string[] | null;
  readonly text: string | null;
  readonly authentication: Authentication | null;
  readonly sort: ToolSort;
  readonly limit: number;
  readonly offset: number;
}

export interface Page<T> {
  readonly items: T[];
  readonly total: number;
  /** What answered: the in-memory search index, or SQL. */
  readonly answeredBy?: 'index' | 'sql';
}

export interface CatalogReader {
  searchServers(search: ServerSearch): Promise<Page<ServerSummary>>;
  /** The query plan of a server search, one line per step (for tests and tuning). */
  explainServerSearch(search: ServerSearch): Promise<string[]>;
  searchTools(search: ToolSearch): Promise<Page<Tool>>;
  findServer(idOrName: string): Promise<Server | null>;
  findServerIdByDomain(host: string): Promise<string | null>;
  findTool(id: string): Promise<Tool | null>;
  /** Every tool of a server, in upstream order. */
  toolsOf(serverId: string): Promise<Tool[]>;
  /** Each source's record of a server as ingested (already scrubbed at ingest). */
  upstreamRecords(serverId: string): Promise<UpstreamRecord[]>;
  listCategories(): Promise<Category[]>;
  countServers(): Promise<number>;
}

interface Query {
  readonly sql: string;
  readonly bindings: Knex.RawBinding[];
}

type OrderedSort = Exclude<ServerSort, 'relevance'>;

const SQLITE_SERVER_ORDER: Readonly<Record<OrderedSort, string>> = {
  'a-z': 's.sort_name ASC, s.id ASC',
  // z-a reads the a-z index backwards, so its ties run by id descending.
  'z-a': 's.sort_name DESC, s.id DESC',
  // SQLite sorts NULL first ascending and last descending: newest needs no help to put unknown dates last.
  newest: 's.published_at DESC, s.id ASC',
  oldest: '(s.published_at IS NULL), s.published_at ASC, s.id ASC',
  tools: 's.tool_count DESC, s.id ASC',
  endpoints: 's.endpoint_count DESC, s.id ASC',
};

const SERVER_ORDER: Readonly<Record<Dialect, Readonly<Record<OrderedSort, string>>>> = {
  sqlite: SQLITE_SERVER_ORDER,
  // PostgreSQL sorts NULL first descending: it is told to put unknown dates last.
  postgres: { ...SQLITE_SERVER_ORDER, newest: 's.published_at DESC NULLS LAST, s.id ASC' },
};

const TOOL_ORDER: Readonly<Record<Exclude<ToolSort, 'relevance'>, string>> = {
  'a-z': 't.sort_name ASC, t.id ASC',
  'z-a': 't.sort_name DESC, t.id DESC',
};

/**
 * How each database matches and ranks the query's words: every word as a prefix, in the
 * weighted columns name > title > description > the rest (categories and tools, or a tool's server).
 */
interface TextSearch {
  /** Joins from the index on: SQLite's CROSS JOIN keeps the FTS index as the outer loop. */
  readonly join: string;
  readonly where: (index: Index) => string;
  /** Best first. */
  readonly rank: (index: Index) => string;
  /** Whether `rank` binds the match expression again (after `where`'s). */
  readonly rankBindsExpression: boolean;
  /** The match expression's binding. */
  readonly expression: (terms: readonly string[]) => string;
  /** Finds whether `needle` occurs in a column. */
  readonly contains: (column: string) => string;
}

type Index = FtsTable;

/** The rows each index holds, as the queries alias them. */
const ROWS: Readonly<Record<Index, { readonly table: string; readonly alias: string }>> = {
  servers_fts: { table: 'servers', alias: 's' },
  tools_fts: { table: 'tools', alias: 't' },
};

/**
 * The words as a tsquery in which every word must match as a prefix: websearch_to_tsquery parses
 * and quotes them (it never fails on user text), then each quoted lexeme gets `:*`.
 */
const PREFIX_TSQUERY = "to_tsquery('simple', regexp_replace(websearch_to_tsquery('simple', ?)::text, '''([^'']|'''')+''', '\\&:*', 'g'))";

const TEXT_SEARCH: Readonly<Record<Dialect, TextSearch>> = {
  sqlite: {
    // Without CROSS JOIN SQLite would start from a filter's index and run one full-text lookup per row.
    join: 'CROSS JOIN',
    where: (index) => `${index} MATCH ?`,
    rank: (index) => `bm25(${index}, ${FTS_TABLES[index].weights.map((w) => w.toFixed(1)).join(', ')})`,
    rankBindsExpression: false,
    expression: (terms) => terms.map((term) => `"${term}"*`).join(' '),
    contains: (column) => `instr(${column}, ?) > 0`,
  },
  postgres: {
    join: 'JOIN',
    where: (index) => `${index}.document @@ ${PREFIX_TSQUERY}`,
    // ts_rank's weights run D, C, B, A.
    rank: (index) => `ts_rank('{0.15, 0.3, 0.8, 1.0}', ${index}.document, ${PREFIX_TSQUERY}) DESC`,
    rankBindsExpression: true,
    // Each word in double quotes, so `or` and a leading `-` are words, not websearch operators.
    expression: (terms) => terms.map((term) => `"${term}"`).join(' '),
    contains: (column) => `strpos(${column}, ?) > 0`,
  },
};

/**
 * `searchIndex` (SQLite) answers relevance searches from memory while it matches the catalog's
 * generation; SQL answers everything else, and those searches whenever it does not.
 */
export function createCatalogReader(db: Db, searchIndex: SearchIndex | null = null): CatalogReader {
  const dialect = dialectOf(db);
  const text = TEXT_SEARCH[dialect];
  /** The index joined to the rows it holds (its rowid is their seq). */
  const indexed = (index: Index): string => {
    const { table, alias } = ROWS[index];
    return `${index} ${text.join} ${table} ${alias} ON ${alias}.seq = ${index}.rowid`;
  };

  const serverQuery = (search: ServerSearch, select: string, paged: boolean): Query => {
    const bindings: Knex.RawBinding[] = [];
    const terms = search.terms;
    let sql = `SELECT ${select} FROM ${terms !== null ? indexed('servers_fts') : 'servers s'}`;
    if (search.category !== null) {
      sql += ` ${terms !== null ? text.join : 'JOIN'} server_categories c ON c.server_id = s.id AND c.slug = ?`;
      bindings.push(search.category);
    }
    if (terms !== null) {
      sql += ` WHERE ${text.where('servers_fts')}`;
      bindings.push(text.expression(terms));
    }
    if (!paged) return { sql, bindings };
    if (search.sort === 'relevance' && terms !== null) {
      // Exact name matches, then prefix name matches (each led by servers more sources list), then rank.
      const tier = `CASE WHEN ${text.contains('s.match_names')} THEN 0 WHEN ${text.contains('s.match_names')} THEN 1 ELSE 2 END`;
      // Within a name tier the shorter display name is the closer match; only then do the databases' own ranks decide.
      sql += ` ORDER BY ${tier}, CASE WHEN ${tier} < 2 THEN -s.source_count ELSE 0 END, CASE WHEN ${tier} < 2 THEN length(s.sort_name) ELSE 0 END, ${text.rank('servers_fts')}, s.id`;
      const exact = `\n${search.text ?? ''}\n`;
      const prefix = `\n${search.text ?? ''}`;
      bindings.push(exact, prefix, exact, prefix, exact, prefix);
      if (text.rankBindsExpression) bindings.push(text.expression(terms));
    } else {
      sql += ` ORDER BY ${SERVER_ORDER[dialect][search.sort === 'relevance' ? 'a-z' : search.sort]}`;
    }
    sql += ' LIMIT ? OFFSET ?';
    bindings.push(search.limit, search.offset);
    return { sql, bindings };
  };

  /** PostgreSQL only: servers whose name is close to a query that matched nothing (a typo). */
  const nearMissQuery = (search: ServerSearch, select: string, paged: boolean): Query => {
    const bindings: Knex.RawBinding[] = [];
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
      sql += ` ORDER BY ${SERVER_ORDER[dialect][search.sort]}`;
    }
    sql += ' LIMIT ? OFFSET ?';
    bindings.push(search.limit, search.offset);
    return { sql, bindings };
  };

  const toolQuery = (search: ToolSearch, select: string, paged: boolean): Query => {
    const bindings: Knex.RawBinding[] = [];
    const where: string[] = [];
    const terms = search.terms;
    // The index drives, never an authentication index with a lookup per row.
    let sql = `SELECT ${select} FROM `;
    sql += terms !== null ? `${indexed('tools_fts')} ${text.join} servers s ON s.id = t.server_id` : 'tools t JOIN servers s ON s.id = t.server_id';
    if (terms !== null) {
      where.push(text.where('tools_fts'));
      bindings.push(text.expression(terms));
    }
    if (search.authentication !== null) {
      where.push('t.authentication = ?');
      bindings.push(search.authentication);
    }
    if (where.length > 0) sql += ` WHERE ${where.join(' AND ')}`;
    if (!paged) return { sql, bindings };
    if (search.sort === 'relevance' && terms !== null) {
      sql += ` ORDER BY CASE WHEN t.sort_name = ? THEN 0 WHEN substr(t.sort_name, 1, ?) = ? THEN 1 ELSE 2 END, ${text.rank('tools_fts')}, t.id`;
      const name = search.text ?? '';
      bindings.push(name, name.length, name);
      if (text.rankBindsExpression) bindings.push(text.expression(terms));
    } else {
      sql += ` ORDER BY ${TOOL_ORDER[search.sort === 'relevance' ? 'a-z' : search.sort]}`;
    }
    sql += ' LIMIT ? OFFSET ?';
    bindings.push(search.limit, search.offset);
    return { sql, bindings };
  };

  const select = async <T>(query: Query): Promise<T[]> => rowsOf<T>(await db.raw(query.sql, query.bindings));

  const count = async (query: Query): Promise<number> => {
    const rows = await select<{ n: number | string }>(query);
    return Number(rows[0]?.n ?? 0);
  };

  const page = async <Row, T>(query: (select: string, paged: boolean) => Query, columns: string, map: (row: Row) => T): Promise<Page<T>> => {
    const [rows, total] = await Promise.all([select<Row>(query(columns, true)), count(query('count(*) AS n', false))]);
    return { items: rows.map(map), total, answeredBy: 'sql' };
  };

  const toolsOfServer = async (serverId: string): Promise<Tool[]> => {
    if (!storable(serverId)) return [];
    const rows: ToolRow[] = await db('tools as t').join('servers as s', 's.id', 't.server_id').where('t.server_id', serverId).orderBy('t.position').select(TOOL_COLUMNS);
    return rows.map(toTool);
  };

  /** The rows of an indexed page, in its order; null if one has gone since (SQL answers then). */
  const rowsOfPage = async <Row extends { seq: number }, T>(page: IndexedPage, from: string, alias: string, columns: string, map: (row: Row) => T): Promise<Page<T> | null> => {
    if (page.seqs.length === 0) return { items: [], total: page.total, answeredBy: 'index' };
    const rows = await selectPrepared<Row>(db, `SELECT ${columns} FROM ${from} WHERE ${alias}.seq IN (${page.seqs.map(() => '?').join(', ')})`, page.seqs);
    const bySeq = new Map(rows.map((row) => [Number(row.seq), row]));
    const items: T[] = [];
    for (const seq of page.seqs) {
      const row = bySeq.get(seq);
      if (!row) return null;
      items.push(map(row));
    }
    return { items, total: page.total, answeredBy: 'index' };
  };

  /** A relevance search with words, from the in-memory index when it is current; else null. */
  const fromMemory = async <T>(ask: (indexes: SearchIndexes) => IndexedPage | null, fetch: (page: IndexedPage) => Promise<Page<T> | null>): Promise<Page<T> | null> => {
    const indexes = await searchIndex?.current();
    const page = indexes ? ask(indexes) : null;
    return page ? fetch(page) : null;
  };

  return {
    async searchServers(search) {
      if (search.sort === 'relevance' && search.terms !== null && search.text !== null) {
        const { terms, text } = search;
        const found = await fromMemory(
          (indexes) => indexes.searchServers({ terms, text, category: search.category, limit: search.limit, offset: search.offset }),
          (page) => rowsOfPage<ServerRow, ServerSummary>(page, 'servers s', 's', SUMMARY_COLUMNS, toSummary),
        );
        if (found) return found;
      }
      const found = await page((columns, paged) => serverQuery(search, columns, paged), SUMMARY_COLUMNS, toSummary);
      // A single word that matched nothing may be a mistyped name (multi-word queries keep every word required).
      if (found.total > 0 || dialect !== 'postgres' || search.terms?.length !== 1 || !search.text) return found;
      return page((columns, paged) => nearMissQuery(search, columns, paged), SUMMARY_COLUMNS, toSummary);
    },

    async explainServerSearch(search) {
      const query = serverQuery(search, 's.*', true);
      if (dialect === 'postgres') {
        // The plan PostgreSQL would choose for a large catalog: a small one is cheaper to scan.
        return db.transaction(async (trx) => {
          await trx.raw('SET LOCAL enable_seqscan = off');
          const rows = rowsOf<{ 'QUERY PLAN': string }>(await trx.raw(`EXPLAIN ${query.sql}`, query.bindings));
          return rows.map((row) => row['QUERY PLAN'].trim());
        });
      }
      const rows = await select<{ detail: string }>({ sql: `EXPLAIN QUERY PLAN ${query.sql}`, bindings: query.bindings });
      return rows.map((row) => row.detail);
    },

    async searchTools(search) {
      if (search.sort === 'relevance' && search.terms !== null && search.text !== null) {
        const { terms, text } = search;
        const found = await fromMemory(
          (indexes) => indexes.searchTools({ terms, text, authentication: search.authentication, limit: search.limit, offset: search.offset }),
          (page) => rowsOfPage<ToolRow, Tool>(page, 'tools t JOIN servers s ON s.id = t.server_id', 't', ['t.seq', ...TOOL_COLUMNS].join(', '), toTool),
        );
        if (found) return found;
      }
      return page((columns, paged) => toolQuery(search, columns, paged), TOOL_COLUMNS.join(', '), toTool);
    },

    async findServer(idOrName) {
      if (!storable(idOrName)) return null;
      const row: ServerRow | undefined = await db('servers as s').where('s.id', idOrName).orWhere('s.name', idOrName).orderByRaw('s.id = ? DESC', [idOrName]).first('s.*');
      if (!row) return null;
      const [remotes, packages, tools, sources] = await Promise.all([
        db('remotes').where({ server_id: row.id }).orderBy('position'),
        db('packages').where({ server_id: row.id }).orderBy('position'),
        toolsOfServer(row.id),
        db('sources').where({ server_id: row.id }).orderBy(['source', 'source_key']).select('source', 'source_key', 'ingested_at'),
      ]);
      const summary = toSummary(row);
      return {
        ...summary,
        websiteUrl: row.website_url,
        license: row.license,
        versions: JSON.parse(row.versions),
        packages: packages.map((p: PackageRow) => ({
          registryType: p.registry_type,
          identifier: p.identifier,
          version: p.version,
          runtimeHint: p.runtime_hint,
          transport: p.transport,
          environmentVariables: JSON.parse(p.environment_variables),
          arguments: JSON.parse(p.arguments),
        })),
        remotes: remotes.map((r: RemoteRow) => ({ transport: r.transport, url: r.url, host: r.host, headers: JSON.parse(r.headers) })),
        tools: tools.map((t) => ({ id: t.id, name: t.name, title: t.title, description: t.description })),
        sources: sources.map((s: { source: SourceRef['source']; source_key: string; ingested_at: string }) => ({ source: s.source, key: s.source_key, ingestedAt: s.ingested_at })),
        links: {
          self: `/api/v1/servers/${encodeURIComponent(row.id)}`,
          tools: `/api/v1/tools/search?q=${encodeURIComponent(row.name)}`,
        },
      };
    },

    async findServerIdByDomain(host) {
      if (!storable(host)) return null;
      const rows: Array<{ id: string; name: string; updated_at: string | null }> = await db('servers')
        .where({ domain: host })
        .select('id', 'name', 'updated_at');
      const reversed = host.split('.').reverse().join('.');
      const namespaceMatches = (name: string): boolean => {
        const namespace = name.split('/')[0] ?? '';
        return namespace === reversed || reversed.startsWith(`${namespace}.`) || namespace === host;
      };
      rows.sort((a, b) =>
        Number(namespaceMatches(b.name)) - Number(namespaceMatches(a.name)) ||
        (b.updated_at ?? '').localeCompare(a.updated_at ?? '') ||
        a.id.localeCompare(b.id),
      );
      return rows[0]?.id ?? null;
    },

    async findTool(id) {
      if (!storable(id)) return null;
      const row: ToolRow | undefined = await db('tools as t').join('servers as s', 's.id', 't.server_id').where('t.id', id).first(TOOL_COLUMNS);
      return row ? toTool(row) : null;
    },

    toolsOf: toolsOfServer,

    async upstreamRecords(serverId) {
      if (!storable(serverId)) return [];
      const rows: Array<{ source: SourceRef['source']; source_key: string; ingested_at: string; record: string }> = await db('sources')
        .where({ server_id: serverId })
        .orderBy(['source', 'source_key'])
        .select('source', 'source_key', 'ingested_at', 'record');
      return rows.map((row) => ({ source: row.source, key: row.source_key, ingestedAt: row.ingested_at, record: JSON.parse(row.record) }));
    },

    async listCategories() {
      const rows: Array<{ slug: string; name: string; count: number }> = await db('categories as c')
        .leftJoin('server_categories as sc', 'sc.slug', 'c.slug')
        .groupBy('c.slug', 'c.name', 'c.position')
        .orderBy('c.position')
        .select('c.slug', 'c.name')
        .count({ count: 'sc.server_id' });
      return rows.map((r) => ({ slug: r.slug, name: r.name, count: Number(r.count) }));
    },

    async countServers() {
      const row = await db('servers').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
  };
}

interface ServerRow {
  seq: number; id: string; name: string; title: string | null; description: string; domain: string | null; version: string | null;
  versions: string; categories: string; transports: string; endpoint_count: number; tool_count: number;
  authentication: Authentication; repository_url: string | null; website_url: string | null; license: string | null;
  published_at: string | null; updated_at: string | null;
}

interface RemoteRow { transport: 'streamable-http' | 'sse'; url: string; host: string; headers: string }

interface PackageRow {
  registry_type: Server['packages'][number]['registryType']; identifier: string; version: string | null; runtime_hint: string | null;
  transport: Server['packages'][number]['transport']; environment_variables: string; arguments: string;
}

interface ToolRow {
  seq: number; id: string; name: string; title: string | null; description: string; server_id: string; server_name: string;
  input_schema: string; annotations: string; authentication: Authentication;
}

/** What a summary reads (not the versions list, names index or hashes a search page never shows). */
const SUMMARY_COLUMNS = ['seq', 'id', 'name', 'title', 'description', 'domain', 'version', 'categories', 'transports', 'endpoint_count', 'tool_count', 'authentication', 'repository_url', 'published_at', 'updated_at']
  .map((column) => `s.${column}`)
  .join(', ');

const TOOL_COLUMNS = ['t.id', 't.name', 't.title', 't.description', 't.server_id', 's.name as server_name', 't.input_schema', 't.annotations', 't.authentication'];

function toSummary(row: ServerRow): ServerSummary {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    description: row.description,
    domain: row.domain,
    version: row.version,
    categories: JSON.parse(row.categories),
    transports: JSON.parse(row.transports),
    endpointCount: Number(row.endpoint_count),
    toolCount: Number(row.tool_count),
    authentication: row.authentication,
    repositoryUrl: row.repository_url,
    publishedAt: row.published_at,
    updatedAt: row.updated_at,
  };
}

function toTool(row: ToolRow): Tool {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    description: row.description,
    serverId: row.server_id,
    serverName: row.server_name,
    inputSchema: JSON.parse(row.input_schema),
    annotations: JSON.parse(row.annotations),
    authentication: row.authentication,
  };
}
