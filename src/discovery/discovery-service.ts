/**
 * Area B read services: search, lookups, categories, install, trust, status and comparison.
 * Plain arguments in, contract shapes out, in the domain's terms (field names, not request
 * locations or URLs). Every surface reaches them through the read model (src/read).
 */
import { AppError } from '../errors.js';
import type { CatalogServer } from '../catalog/catalog-entry.js';
import type { CatalogSearch, QualityFilter, SearchCoverage } from '../search/engine.js';
import { parseQuery } from '../search/query.js';
import type { CatalogReader, MonitorStore } from '../store/index.js';
import type { Authentication, CategoryList, Comparison, StatusReport, InstallClient, InstallInstructions, ServerPage, ServerSort, Tool, ToolChange, ToolHistory, ToolPage, ToolSort, TrustReport } from '../types.js';
import { toolChangesOf } from '../catalog/tool-changes.js';
import { INSTALL_CLIENTS, installFor } from './install-clients.js';
import { summarize, trustReport } from './trust.js';
import { STATUS_HISTORY, primaryState, statusReport } from './status.js';
import { TAXONOMY } from '../catalog/taxonomy.js';

/** What every search takes: text, a sort of its own kind, and a page. */
interface SearchInput<Sort> {
  readonly q?: string | undefined;
  readonly sort?: Sort | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

export interface ServerSearchInput extends SearchInput<ServerSort> {
  readonly category?: string | undefined;
  /** `clean`: only servers whose scanned tools hold no serious finding and have not changed (engine.ts CLEAN_SERVER). */
  readonly trust?: 'clean' | undefined;
  /** Only servers without a quality flag, or only those with one; without it, all (the flagged after: ranking.ts). */
  readonly quality?: QualityFilter | undefined;
}

export interface ToolSearchInput extends SearchInput<ToolSort> {
  readonly authentication?: Authentication | undefined;
}

/** Everything a server's page shows, made from one read of the server (`serverView`). */
export interface ServerView {
  readonly server: CatalogServer;
  /** Its tools, whole, in upstream order. */
  readonly tools: Tool[];
  readonly install: InstallInstructions;
  readonly trust: TrustReport;
  readonly status: StatusReport;
}

/** `generation`, where a search takes one: the catalog's content generation as the read model read it (null: unknown), which picks the engine. */
export interface DiscoveryService {
  searchServers(input: ServerSearchInput, generation: string | null): Promise<ServerPage>;
  searchTools(input: ToolSearchInput, generation: string | null): Promise<ToolPage>;
  /** A server as the catalog holds it (the read model adds the contract's links). */
  getServer(idOrName: string): Promise<CatalogServer>;
  getServerByDomain(domain: string): Promise<CatalogServer>;
  getTool(id: string): Promise<Tool>;
  /** Every tool of the server with this id, in upstream order (none for an unknown id). */
  getServerTools(serverId: string): Promise<Tool[]>;
  listCategories(): Promise<CategoryList>;
  /** What answers relevance searches at `generation`. */
  searchCoverage(generation: string | null): SearchCoverage;
  /**
   * Install instructions of a server (as `getServer` gave it) for one client, or for every
   * supported client. This and the next two take the server found, not its id: the read model
   * finds it once for all of them, from the answer it keeps.
   */
  installOf(server: CatalogServer, client?: InstallClient): Promise<InstallInstructions>;
  trustOf(server: CatalogServer): Promise<TrustReport>;
  statusOf(server: CatalogServer): Promise<StatusReport>;
  /** Every definition the catalog has held of the server's tools, and the changes between them. */
  toolHistoryOf(server: CatalogServer): Promise<ToolHistory>;
  compareServers(ids: readonly string[]): Promise<Comparison>;
  /**
   * A server with its tools, install instructions for every client, trust and status: what
   * `getServer`, `getServerTools`, `installOf`, `trustOf` and `statusOf` give, from one read of the
   * server with its records and one of its checks.
   */
  serverView(idOrName: string): Promise<ServerView>;
}

/** The taxonomy's slugs: the categories table is kept equal to it, so no query is needed to check one. */
const CATEGORY_SLUGS: readonly string[] = TAXONOMY.map((c) => c.slug);

export const MIN_COMPARE = 2;
export const MAX_COMPARE = 10;

export const DEFAULT_LIMIT = 20;
/**
 * The query, applied sort and page of a search: `relevance` is the default with a query and
 * `a-z` without, and `relevance` without a query is applied as `a-z`.
 */
function resolveSearch<Sort extends string>(input: SearchInput<Sort | 'relevance' | 'a-z'>) {
  const query = parseQuery(input.q);
  const requested = input.sort ?? (query ? 'relevance' : 'a-z');
  const sort = requested === 'relevance' && !query ? 'a-z' : requested;
  return { query, sort, limit: input.limit ?? DEFAULT_LIMIT, offset: input.offset ?? 0 };
}

export interface DiscoveryDeps {
  readonly catalog: CatalogReader;
  /** Searches, through the engine chosen for the generation the read model hands them. */
  readonly search: CatalogSearch;
  readonly monitor: Pick<MonitorStore, 'recentChecks'>;
  readonly now?: () => Date;
}

/** Install instructions of a server for one client, or for every supported client. */
function instructions(server: CatalogServer, installKey: string | null, client?: InstallClient): InstallInstructions {
  const clients = client ? [client] : INSTALL_CLIENTS;
  return { serverId: server.id, serverName: server.name, clients: clients.map((c) => installFor(server, c, installKey)) };
}

const notFound = (idOrName: string): AppError => new AppError('not_found', `No server has the id or name "${idOrName}".`, [], {}, 'server');

export function createDiscoveryService(deps: DiscoveryDeps): DiscoveryService {
  const { catalog, search, monitor, now = () => new Date() } = deps;
  const findServer = async (idOrName: string): Promise<CatalogServer> => {
    const server = await catalog.findServer(idOrName);
    if (!server) throw notFound(idOrName);
    return server;
  };

  return {
    searchServers: (input, generation) => searchServers(search, input, generation),
    searchTools: (input, generation) => searchTools(search, input, generation),
    getServer: findServer,

    async getServerByDomain(domain) {
      const id = await catalog.findServerIdByDomain(domain.toLowerCase().replace(/\.$/, ''));
      const server = id === null ? null : await catalog.findServer(id);
      if (!server) throw new AppError('not_found', `No server has a remote endpoint on "${domain}".`);
      return server;
    },

    async getTool(id) {
      const tool = await catalog.findTool(id);
      if (!tool) throw new AppError('not_found', `No tool has the id "${id}".`, [], {}, 'tool');
      return tool;
    },

    getServerTools: (serverId) => catalog.toolsOf(serverId),
    searchCoverage: (generation) => search.coverage(generation),

    async listCategories() {
      const items = await catalog.listCategories();
      return { items, total: items.length };
    },

    async installOf(server, client) {
      return instructions(server, await catalog.installKeyOf(server.id), client);
    },

    async trustOf(server) {
      // Trust reads the tools' annotations and findings only: not their schemas, which toolsOf would read too.
      const [annotations, upstream, checks, changes] = await Promise.all([
        catalog.toolAnnotationsOf([server.id]), catalog.upstreamRecords(server.id), monitor.recentChecks(server.id, STATUS_HISTORY), changesOf(catalog, server),
      ]);
      return trustReport(server, annotations.get(server.id) ?? [], upstream, checks, now().toISOString(), changes);
    },

    async toolHistoryOf(server) {
      const definitions = await catalog.toolHistory(server.id);
      return { serverId: server.id, serverName: server.name, toolsFingerprint: server.toolsFingerprint, toolsChangedAt: server.toolsChangedAt, changes: toolChangesOf(definitions), definitions };
    },

    async statusOf(server) {
      return statusReport(server, await monitor.recentChecks(server.id, STATUS_HISTORY));
    },

    serverView: (idOrName) => serverView(deps, idOrName),
    compareServers: (ids) => compareServers(deps, ids),
  };
}

async function searchServers(search: CatalogSearch, input: ServerSearchInput, generation: string | null): Promise<ServerPage> {
  const { query, sort, limit, offset } = resolveSearch<ServerSort>(input);
  const category = input.category ?? null;
  if (category !== null && !CATEGORY_SLUGS.includes(category)) {
    throw new AppError('validation_failed', `Unknown category "${category}".`, [
      { location: 'category', message: `must be one of: ${CATEGORY_SLUGS.join(', ')}` },
    ]);
  }
  const trust = input.trust ?? null;
  const quality = input.quality ?? null;
  const envelope = { limit, offset, sort, query: query?.text ?? null, category, trust, quality };
  if (query && query.terms === null) return { items: [], total: 0, ...envelope, terms: [] };
  const page = await search.servers({ terms: query?.terms ?? null, text: query?.text ?? null, category, trust, quality, sort, limit, offset }, generation);
  return { items: page.items, total: page.total, ...envelope, terms: query ? [...(page.terms ?? [])] : null };
}

async function searchTools(search: CatalogSearch, input: ToolSearchInput, generation: string | null): Promise<ToolPage> {
  const { query, sort, limit, offset } = resolveSearch<ToolSort>(input);
  const authentication = input.authentication ?? null;
  const envelope = { limit, offset, sort, query: query?.text ?? null, authentication };
  if (query && query.terms === null) return { items: [], total: 0, ...envelope, terms: [] };
  const page = await search.tools({ terms: query?.terms ?? null, text: query?.text ?? null, authentication, sort, limit, offset }, generation);
  return { items: page.items, total: page.total, ...envelope, terms: query ? [...(page.terms ?? [])] : null };
}

/** A server's tool changes, read only when it has any. */
async function changesOf(catalog: DiscoveryDeps['catalog'], server: CatalogServer): Promise<ToolChange[]> {
  return server.toolsChangedAt === null ? [] : toolChangesOf(await catalog.toolHistory(server.id));
}

/** A server's page data from one read of the server with its records and one of its checks. */
async function serverView({ catalog, monitor, now = () => new Date() }: DiscoveryDeps, idOrName: string): Promise<ServerView> {
  const found = await catalog.serverWithRecords(idOrName);
  if (!found) throw notFound(idOrName);
  const { server, installKey, tools, upstream } = found;
  const [checks, changes] = await Promise.all([monitor.recentChecks(server.id, STATUS_HISTORY), changesOf(catalog, server)]);
  return {
    server,
    tools,
    install: instructions(server, installKey),
    trust: trustReport(server, tools, upstream, checks, now().toISOString(), changes),
    status: statusReport(server, checks),
  };
}

async function compareServers({ catalog, monitor, now = () => new Date() }: DiscoveryDeps, ids: readonly string[]): Promise<Comparison> {
  const wanted = [...new Set(ids)];
  if (wanted.length < MIN_COMPARE || wanted.length > MAX_COMPARE) {
    throw new AppError('validation_failed', `Compare takes ${MIN_COMPARE} to ${MAX_COMPARE} different server ids.`, [{ location: 'ids', message: `must name ${MIN_COMPARE} to ${MAX_COMPARE} different servers` }]);
  }
  const found = await Promise.all(wanted.map((id) => catalog.findServer(id)));
  const missing = wanted.filter((_, i) => !found[i]);
  if (missing.length > 0) throw new AppError('not_found', `No server has the id or name ${missing.map((m) => `"${m}"`).join(', ')}.`, [], {}, 'server');
  const servers = found.filter((s): s is CatalogServer => s !== null);
  const at = now().toISOString();
  const annotations = await catalog.toolAnnotationsOf(servers.map((server) => server.id));
  const compared = await Promise.all(servers.map(async (server) => {
    const endpointChecks = await monitor.recentChecks(server.id, 1);
    const { checks } = trustReport(server, annotations.get(server.id) ?? [], [], endpointChecks, at);
    return {
      id: server.id, name: server.name, title: server.title, transports: server.transports, endpointCount: server.endpointCount,
      toolCount: server.toolCount, authentication: server.authentication, license: server.license, categories: server.categories,
      trust: { summary: summarize(checks), outcomes: checks.map((c) => ({ check: c.check, outcome: c.outcome })) },
      status: primaryState(server, endpointChecks),
    };
  }));
  const names = servers.map((s) => new Set(s.tools.map((t) => t.name)));
  const shared = [...(names[0] ?? [])].filter((name) => names.every((set) => set.has(name))).sort();
  const unique = servers.map((server, i) => ({
    serverId: server.id,
    tools: [...(names[i] ?? [])].filter((name) => names.every((set, j) => j === i || !set.has(name))).sort(),
  }));
  return { servers: compared, tools: { shared, unique } };
}
