/**
 * The catalog's lookups: one server (by id, name or domain), one tool, a server's tools and
 * upstream records, the categories, the count. Searches are the engines' (src/search).
 */
import type { CatalogServer } from '../catalog/catalog-entry.js';
import type { Category, SourceRef, Tool, ToolDefinitionRecord, UpstreamRecord } from '../types.js';
import { selectPrepared, storable, type Db } from './db.js';
import { toolHistoryOf } from './tool-history.js';
import { TOOL_COLUMNS, toSummary, toTool, type PackageRow, type RemoteRow, type ToolRow, type WholeServerRow as ServerRow } from './read-rows.js';

/** What trust reads of a tool: its annotations and what the tool-definition scan found; and its fingerprint, which the registry API's block shows. */
export type ScannedTool = Pick<Tool, 'name' | 'fingerprint' | 'annotations' | 'findings'>;

/** A server with what trust reads of its tools. */
export interface AnnotatedServer {
  readonly server: CatalogServer;
  readonly annotations: ScannedTool[];
}

/** Everything the catalog holds of one server: what its page shows, read together (`serverWithRecords`). */
export interface ServerWithRecords {
  readonly server: CatalogServer;
  /** The key it installs under in a client's configuration (src/catalog/install-key.ts). */
  readonly installKey: string | null;
  /** Its tools, whole, in upstream order. */
  readonly tools: Tool[];
  /** Each source's record of it as ingested. */
  readonly upstream: UpstreamRecord[];
}

export interface CatalogLookups {
  findServer(idOrName: string): Promise<CatalogServer | null>;
  /**
   * One server (by id or name) with its install key, whole tools and upstream records: five
   * reads by one key, each a statement prepared once (on SQLite), where the same through the
   * single lookups costs eleven queries.
   */
  serverWithRecords(idOrName: string): Promise<ServerWithRecords | null>;
  /**
   * Several servers by id, read together (a page of the registry API): those found, by id, each
   * with the annotations of its tools (what trust reads of them), read with the tools.
   */
  findServers(ids: readonly string[]): Promise<Map<string, AnnotatedServer>>;
  /** The annotations of every tool of each of several servers, by server id (what trust reads of tools). */
  toolAnnotationsOf(ids: readonly string[]): Promise<Map<string, ScannedTool[]>>;
  findServerIdByDomain(host: string): Promise<string | null>;
  findTool(id: string): Promise<Tool | null>;
  /** Every tool of a server, in upstream order. */
  toolsOf(serverId: string): Promise<Tool[]>;
  /** Each source's record of a server as ingested (already scrubbed at ingest). */
  upstreamRecords(serverId: string): Promise<UpstreamRecord[]>;
  /** Every definition the catalog has held of a server's tools (tool-history.ts). */
  toolHistory(serverId: string): Promise<ToolDefinitionRecord[]>;
  listCategories(): Promise<Category[]>;
  countServers(): Promise<number>;
  /** The key a server installs under in a client's configuration, unique in the catalog (src/catalog/install-key.ts). */
  installKeyOf(serverId: string): Promise<string | null>;
}

type Owned<R> = R & { server_id: string };
type ToolSummaryRow = { server_id: string; id: string; name: string; title: string | null; description: string; fingerprint?: string; findings?: string; annotations?: string };
type SourceRow = { server_id: string; source: SourceRef['source']; source_key: string; ingested_at: string };

/** A server as the catalog holds it, from its row and its child rows (each in its table's order). */
function serverOf(row: ServerRow, remotes: readonly RemoteRow[], packages: readonly PackageRow[], tools: readonly ToolSummaryRow[], sources: readonly SourceRow[]): CatalogServer {
  return {
    ...toSummary(row),
    websiteUrl: row.website_url,
    license: row.license,
    versions: JSON.parse(row.versions),
    packages: packages.map((p) => ({
      registryType: p.registry_type,
      identifier: p.identifier,
      version: p.version,
      runtimeHint: p.runtime_hint,
      transport: p.transport,
      environmentVariables: JSON.parse(p.environment_variables),
      arguments: JSON.parse(p.arguments),
    })),
    remotes: remotes.map((r) => ({ transport: r.transport, url: r.url, host: r.host, headers: JSON.parse(r.headers) })),
    tools: tools.map((t) => ({ id: t.id, name: t.name, title: t.title, description: t.description })),
    sources: sources.map((s) => ({ source: s.source, key: s.source_key, ingestedAt: s.ingested_at })),
    toolsFingerprint: row.tools_fingerprint,
    toolsChangedAt: row.tools_changed_at,
    toolFindings: row.tool_findings === null ? null : Number(row.tool_findings),
  };
}

/** Reads of one server by one key, the same text every time, so SQLite prepares each once: the server's, and its whole tools and records. */
const BY_KEY = {
  // By id, else name, else an id the server had before (server_aliases).
  server: 'SELECT s.* FROM servers s WHERE s.id = ? OR s.name = ? OR s.id = (SELECT a.server_id FROM server_aliases a WHERE a.alias_id = ?) ORDER BY (s.id = ?) DESC, (s.name = ?) DESC LIMIT 1',
  remotes: 'SELECT * FROM remotes WHERE server_id = ? ORDER BY position',
  packages: 'SELECT * FROM packages WHERE server_id = ? ORDER BY position',
  tools: 'SELECT server_id, id, name, title, description FROM tools WHERE server_id = ? ORDER BY position',
  sources: 'SELECT server_id, source, source_key, ingested_at FROM sources WHERE server_id = ? ORDER BY source, source_key',
  wholeTools: 'SELECT id, name, title, description, server_id, input_schema, annotations, authentication, source, fingerprint, findings, quality_flags FROM tools WHERE server_id = ? ORDER BY position',
  records: 'SELECT server_id, source, source_key, ingested_at, record FROM sources WHERE server_id = ? ORDER BY source, source_key',
} as const;

export function createCatalogLookups(db: Db): CatalogLookups {
  return {
    async installKeyOf(serverId) {
      if (!storable(serverId)) return null;
      const row: { install_key: string | null } | undefined = await db('servers').where({ id: serverId }).first('install_key');
      return row?.install_key ?? null;
    },
    async findServer(idOrName) {
      return (await oneServer<ToolSummaryRow, SourceRow>(db, idOrName, BY_KEY.tools, BY_KEY.sources))?.server ?? null;
    },
    serverWithRecords: (idOrName) => serverWithRecords(db, idOrName),
    async findServers(ids) {
      const wanted = [...new Set(ids)].filter(storable);
      if (wanted.length === 0) return new Map();
      return serversOf(db, await db('servers as s').whereIn('s.id', wanted).select('s.*'), { annotations: true });
    },
    toolAnnotationsOf: (ids) => toolAnnotationsOf(db, ids),
    findServerIdByDomain: (host) => findServerIdByDomain(db, host),
    async findTool(id) {
      if (!storable(id)) return null;
      const byId = async (toolId: string): Promise<ToolRow | undefined> => db('tools as t').join('servers as s', 's.id', 't.server_id').where('t.id', toolId).first(TOOL_COLUMNS);
      let row = await byId(id);
      // A tool id begins with its server's id (no server id holds a colon): one the server had before still finds it.
      const colon = id.indexOf(':');
      if (!row && colon > 0) {
        const alias: { server_id: string } | undefined = await db('server_aliases').where('alias_id', id.slice(0, colon)).first('server_id');
        if (alias) row = await byId(`${alias.server_id}${id.slice(colon)}`);
      }
      return row ? toTool(row) : null;
    },
    async toolsOf(serverId) {
      if (!storable(serverId)) return [];
      const rows: ToolRow[] = await db('tools as t').join('servers as s', 's.id', 't.server_id').where('t.server_id', serverId).orderBy('t.position').select(TOOL_COLUMNS);
      return rows.map(toTool);
    },
    upstreamRecords: (serverId) => upstreamRecords(db, serverId),
    toolHistory: (serverId) => toolHistoryOf(db, serverId),
    listCategories: () => listCategories(db),
    async countServers() {
      const row = await db('servers').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
  };
}

/** One server by id or name, its child rows read by its id: tools and sources by the statements given. */
async function oneServer<T extends ToolSummaryRow, S extends SourceRow>(db: Db, idOrName: string, toolsSql: string, sourcesSql: string) {
  if (!storable(idOrName)) return null;
  const [row] = await selectPrepared<ServerRow & { install_key: string | null }>(db, BY_KEY.server, [idOrName, idOrName, idOrName, idOrName, idOrName]);
  if (!row) return null;
  const [remotes, packages, tools, sources] = await Promise.all([
    selectPrepared<RemoteRow>(db, BY_KEY.remotes, [row.id]),
    selectPrepared<PackageRow>(db, BY_KEY.packages, [row.id]),
    selectPrepared<T>(db, toolsSql, [row.id]),
    selectPrepared<S>(db, sourcesSql, [row.id]),
  ]);
  return { row, server: serverOf(row, remotes, packages, tools, sources), tools, sources };
}

async function serverWithRecords(db: Db, idOrName: string): Promise<ServerWithRecords | null> {
  const found = await oneServer<Omit<ToolRow, 'server_name'>, SourceRow & { record: string }>(db, idOrName, BY_KEY.wholeTools, BY_KEY.records);
  if (!found) return null;
  const { row, server, tools, sources } = found;
  return {
    server,
    installKey: row.install_key ?? null,
    tools: tools.map((tool) => toTool({ ...tool, server_name: row.name })),
    upstream: sources.map((source) => ({ source: source.source, key: source.source_key, ingestedAt: source.ingested_at, record: JSON.parse(source.record) })),
  };
}

/**
 * Servers with their remotes, packages, tools and sources, each child table read once for all
 * of them, by id; with `annotations`, each with its tools' annotations too (read with the tools).
 */
async function serversOf(db: Db, rows: readonly ServerRow[], { annotations = false } = {}): Promise<Map<string, AnnotatedServer>> {
  const ids = rows.map((row) => row.id);
  const toolColumns = ['server_id', 'id', 'name', 'title', 'description', ...(annotations ? ['annotations', 'findings', 'fingerprint'] : [])];
  const [remotes, packages, tools, sources]: [Owned<RemoteRow>[], Owned<PackageRow>[], ToolSummaryRow[], SourceRow[]] = await Promise.all([
    db('remotes').whereIn('server_id', ids).orderBy(['server_id', 'position']),
    db('packages').whereIn('server_id', ids).orderBy(['server_id', 'position']),
    db('tools').whereIn('server_id', ids).orderBy(['server_id', 'position']).select(toolColumns),
    db('sources').whereIn('server_id', ids).orderBy(['server_id', 'source', 'source_key']).select('server_id', 'source', 'source_key', 'ingested_at'),
  ]);
  const [remotesBy, packagesBy, toolsBy, sourcesBy] = [byServer(remotes), byServer(packages), byServer(tools), byServer(sources)];
  const out = new Map<string, AnnotatedServer>();
  for (const row of rows) {
    const serverTools = toolsBy.get(row.id) ?? [];
    const server = serverOf(row, remotesBy.get(row.id) ?? [], packagesBy.get(row.id) ?? [], serverTools, sourcesBy.get(row.id) ?? []);
    out.set(row.id, { server, annotations: annotations ? serverTools.map((t) => ({ name: t.name, fingerprint: t.fingerprint ?? '', annotations: JSON.parse(t.annotations ?? '{}'), findings: JSON.parse(t.findings ?? '[]') })) : [] });
  }
  return out;
}

/** Rows grouped by their server, each group in the rows' order. */
function byServer<R extends { server_id: string }>(all: readonly R[]): Map<string, R[]> {
  const map = new Map<string, R[]>();
  for (const r of all) {
    const list = map.get(r.server_id);
    if (list) list.push(r);
    else map.set(r.server_id, [r]);
  }
  return map;
}

async function toolAnnotationsOf(db: Db, ids: readonly string[]): Promise<Map<string, ScannedTool[]>> {
  const wanted = [...new Set(ids)].filter(storable);
  const out = new Map<string, ScannedTool[]>(wanted.map((id) => [id, []]));
  if (wanted.length === 0) return out;
  const rows: Array<{ server_id: string; name: string; fingerprint: string; annotations: string; findings: string }> = await db('tools').whereIn('server_id', wanted).orderBy(['server_id', 'position']).select('server_id', 'name', 'fingerprint', 'annotations', 'findings');
  for (const row of rows) out.get(row.server_id)?.push({ name: row.name, fingerprint: row.fingerprint, annotations: JSON.parse(row.annotations), findings: JSON.parse(row.findings) });
  return out;
}

/** The server of a domain: one whose namespace is the domain reversed first, then the latest updated. */
async function findServerIdByDomain(db: Db, host: string): Promise<string | null> {
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
}

async function upstreamRecords(db: Db, serverId: string): Promise<UpstreamRecord[]> {
  if (!storable(serverId)) return [];
  const rows: Array<{ source: SourceRef['source']; source_key: string; ingested_at: string; record: string }> = await db('sources')
    .where({ server_id: serverId })
    .orderBy(['source', 'source_key'])
    .select('source', 'source_key', 'ingested_at', 'record');
  return rows.map((row) => ({ source: row.source, key: row.source_key, ingestedAt: row.ingested_at, record: JSON.parse(row.record) }));
}

async function listCategories(db: Db): Promise<Category[]> {
  const rows: Array<{ slug: string; name: string; count: number }> = await db('categories as c')
    .leftJoin('server_categories as sc', 'sc.slug', 'c.slug')
    .groupBy('c.slug', 'c.name', 'c.position')
    .orderBy('c.position')
    .select('c.slug', 'c.name')
    .count({ count: 'sc.server_id' });
  return rows.map((r) => ({ slug: r.slug, name: r.name, count: Number(r.count) }));
}
