/**
 * The catalog's lookups: one server (by id, name or domain), one tool, a server's tools and
 * upstream records, the categories, the count. Searches are the engines' (src/search).
 */
import type { CatalogServer } from '../catalog/catalog-entry.js';
import type { Category, SourceRef, Tool, UpstreamRecord } from '../types.js';
import { storable, type Db } from './db.js';
import { TOOL_COLUMNS, toSummary, toTool, type PackageRow, type RemoteRow, type ServerRow, type ToolRow } from './rows.js';

export interface CatalogLookups {
  findServer(idOrName: string): Promise<CatalogServer | null>;
  findServerIdByDomain(host: string): Promise<string | null>;
  findTool(id: string): Promise<Tool | null>;
  /** Every tool of a server, in upstream order. */
  toolsOf(serverId: string): Promise<Tool[]>;
  /** Each source's record of a server as ingested (already scrubbed at ingest). */
  upstreamRecords(serverId: string): Promise<UpstreamRecord[]>;
  listCategories(): Promise<Category[]>;
  countServers(): Promise<number>;
  /** The key a server installs under in a client's configuration, unique in the catalog (src/catalog/install-key.ts). */
  installKeyOf(serverId: string): Promise<string | null>;
}

export function createCatalogLookups(db: Db): CatalogLookups {
  const toolsOfServer = async (serverId: string): Promise<Tool[]> => {
    if (!storable(serverId)) return [];
    const rows: ToolRow[] = await db('tools as t').join('servers as s', 's.id', 't.server_id').where('t.server_id', serverId).orderBy('t.position').select(TOOL_COLUMNS);
    return rows.map(toTool);
  };

  return {
    async installKeyOf(serverId) {
      if (!storable(serverId)) return null;
      const row: { install_key: string | null } | undefined = await db('servers').where({ id: serverId }).first('install_key');
      return row?.install_key ?? null;
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
