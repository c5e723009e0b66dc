/**
 * The read model: the one door every surface (REST, MCP, the registry API, the web pages) reads
 * the catalog through. It alone reads the catalog's content generation (once per read, handed
 * to the search), encodes each answer once (answer.ts) and keeps answers and the pages made of
 * them in one cache (answer-cache.ts). Reads of the catalog alone live until the content
 * changes; reads that also depend on monitor checks or the clock (trust, status, compare, the
 * pages that show them) live `monitorTtlMs`, and no longer than the next check this process
 * records. What it computes, it computes under a bound (bounded-work.ts).
 */
import type { CatalogServer } from '../catalog/catalog-entry.js';
import { DEFAULT_LIMIT, type DiscoveryService, type ServerSearchInput, type ServerView, type ToolSearchInput } from '../discovery/discovery-service.js';
import type { SearchCoverage } from '../search/engine.js';
import type { RegistryListInput, RegistryServerList, RegistryServerResponse, RegistryApiService } from '../registry-api/registry-api-service.js';
import type { CategoryList, Comparison, InstallClient, InstallInstructions, Server, ServerPage, StatusReport, Tool, ToolHistory, ToolPage, TrustReport } from '../types.js';
import { Answer } from './answer.js';
import { AppError } from '../errors.js';
import type { JsonText } from '../json.js';
import { createAnswerCache, type AnswerCache, type CacheEntry, type TextBody } from './answer-cache.js';
import { busy, createGate, createSharedWork, type Gate, type GateOptions, type SharedWork } from './bounded-work.js';

/**
 * `signal`, where a read takes one: its caller has gone (the request's connection closed), so a
 * computation that has not started yet for it need not start.
 */
export interface ReadModel {
  searchServers(input: ServerSearchInput, signal?: AbortSignal): Promise<Answer<ServerPage>>;
  searchTools(input: ToolSearchInput, signal?: AbortSignal): Promise<Answer<ToolPage>>;
  getServer(idOrName: string): Promise<Answer<Server>>;
  /** The server with a remote endpoint on `domain` (the older route set). */
  getServerByDomain(domain: string): Promise<Answer<Server>>;
  getTool(id: string): Promise<Answer<Tool>>;
  listCategories(): Promise<Answer<CategoryList>>;
  /** What answers relevance searches now (`/readyz`): the choice of engine is the read model's. */
  searchCoverage(): Promise<SearchCoverage>;
  getInstall(idOrName: string, client?: InstallClient): Promise<Answer<InstallInstructions>>;
  getTrust(idOrName: string): Promise<Answer<TrustReport>>;
  /** Every definition the catalog has held of a server's tools, and the changes between them. */
  getToolHistory(idOrName: string): Promise<Answer<ToolHistory>>;
  getStatus(idOrName: string): Promise<Answer<StatusReport>>;
  compareServers(ids: readonly string[], signal?: AbortSignal): Promise<Answer<Comparison>>;
  /** The MCP Registry API (src/registry-api): a page of the list, a server's versions, one version. */
  registryServers(input: RegistryListInput): Promise<Answer<RegistryServerList>>;
  registryVersions(name: string, includeDeleted: boolean): Promise<Answer<RegistryServerList>>;
  registryVersion(name: string, version: string, includeDeleted: boolean): Promise<Answer<RegistryServerResponse>>;
  /** Every tool of a server, by the server's id, in upstream order. */
  getServerTools(serverId: string): Promise<Answer<Tool[]>>;
  /**
   * A server with its tools, install instructions, trust and status, read together (a server's
   * web page): its value, through the encoder. Not kept: the page made of it is.
   */
  getServerView(idOrName: string): Promise<ServerPageView>;
  /**
   * A page made from answers by `render`, kept in the same cache as they are while they would be
   * the same; `showsChecks`: it shows trust or status, so it lives as they do.
   */
  page(key: string, render: (callersGone: AbortSignal) => Promise<TextBody>, showsChecks: boolean, signal?: AbortSignal): Promise<TextBody>;
}

/** A server's view with the server as every surface shows it (with its links). */
export type ServerPageView = Omit<ServerView, 'server'> & { readonly server: Server };

export interface ReadModelDeps {
  readonly discovery: DiscoveryService;
  /** The registry API's service; a read model built without it (a test of another surface) has no registry API. */
  readonly registryApi?: RegistryApiService;
  /** The catalog's content generation; null when it cannot be read (nothing is then kept or replaced). */
  readonly generation: () => Promise<string | null>;
  /** Whether the database answers now: asked after a read failed, to tell an outage from a fault. */
  readonly databaseAnswers?: () => Promise<boolean>;
  /** Whether a failure means the database is busy (a connection not had in time): 503 `service_unavailable`, not a fault. */
  readonly databaseBusy?: (err: unknown) => boolean;
  readonly cache?: AnswerCache;
  /**
   * How long an answer that reads monitor checks or the clock lives (ms; 0: each read computes
   * its own): a burst of reads of one server costs one computation, and a new check shows within it.
   */
  readonly monitorTtlMs?: number;
  /** Checks recorded in this process so far (the monitor in `serve`): an answer made before the latest is not served again. */
  readonly checksRecorded?: () => number;
  /** How reads of the catalog are computed. */
  readonly reads?: SharedWork;
  /** How comparisons are computed: apart from reads, fewer at once, so a flood of them never queues a search. */
  readonly comparisons?: SharedWork;
  /** Where page renderings wait for their turn (apart from the reads they wait for in turn). */
  readonly renderings?: Gate;
}

const MONITOR_TTL_MS = 30_000;
/** Comparisons: each reads up to ten whole servers and their trust, so two at once, one per core, and few waiting. */
const COMPARISONS: GateOptions = { concurrency: 2, queued: 64, what: 'comparisons' };
/** Page renderings that are not kept yet: a few at once (each holds its reads while it renders), few waiting. */
const RENDERINGS: GateOptions = { concurrency: 4, queued: 64, what: 'page renderings' };
/** How long a client is told to wait before asking again while the database does not answer. */
const OUTAGE_RETRY_SECONDS = 5;

/** How an entry is made and kept: through which shared work, and whether it lives as monitor checks do. */
interface Keeping {
  readonly through: SharedWork;
  readonly followsChecks: boolean;
  readonly signal?: AbortSignal | undefined;
}

export function createReadModel(deps: ReadModelDeps): ReadModel {
  const { discovery, registryApi, generation } = deps;
  const { cached, uncached, renderings } = createCaching(deps);
  const reads = deps.reads ?? createSharedWork();
  const comparisons = deps.comparisons ?? createSharedWork(createGate(COMPARISONS));
  const keyOf = (operation: string, ...args: unknown[]): string => `${operation}\n${JSON.stringify(args)}`;
  /** The answer to a read of the catalog alone, kept for the generation it was read at. */
  const catalogRead = <T>(key: string, compute: (at: string | null) => Promise<T | JsonText<T>>, signal?: AbortSignal): Promise<Answer<T>> =>
    cached(key, async (at) => Answer.of<T>(await compute(at)), { through: reads, followsChecks: false, signal });
  /** The answer to a read of monitor checks or the clock too, kept for a moment. */
  const checkedRead = <T>(key: string, compute: () => Promise<T>, through = reads, signal?: AbortSignal): Promise<Answer<T>> =>
    cached(key, async () => Answer.of<T>(await compute()), { through, followsChecks: true, signal });
  const getServer = (idOrName: string): Promise<Answer<Server>> => catalogRead(keyOf('getServer', idOrName), async () => withLinks(await discovery.getServer(idOrName)));
  /** A server as the catalog holds it, from its kept answer (install, trust and status are made from it, not found again). */
  const catalogServer = async (idOrName: string): Promise<CatalogServer> => {
    const { links: _links, ...server } = (await getServer(idOrName)).value;
    return server;
  };
  const registry = (): RegistryApiService => {
    if (!registryApi) throw new AppError('not_found', 'This service has no registry API.');
    return registryApi;
  };

  return {
    // Keyed with the page's defaults applied: REST's `?q=x`, the web page of `x` and MCP's call ask the same read.
    searchServers: (input, signal) =>
      catalogRead(keyOf('searchServers', input.q, input.category, input.trust, input.quality, input.sort, input.limit ?? DEFAULT_LIMIT, input.offset ?? 0), (at) => discovery.searchServers(input, at), signal),
    searchTools: (input, signal) =>
      catalogRead(keyOf('searchTools', input.q, input.authentication, input.sort, input.limit ?? DEFAULT_LIMIT, input.offset ?? 0), (at) => discovery.searchTools(input, at), signal),
    getServer,
    getServerByDomain: (domain) => catalogRead(keyOf('getServerByDomain', domain), async () => withLinks(await discovery.getServerByDomain(domain))),
    getTool: (id) => catalogRead(keyOf('getTool', id), () => discovery.getTool(id)),
    getServerTools: (serverId) => catalogRead(keyOf('getServerTools', serverId), () => discovery.getServerTools(serverId)),
    getServerView: async (idOrName) => {
      const view = await uncached(async () => {
        const found = await discovery.serverView(idOrName);
        return { ...found, server: withLinks(found.server) };
      });
      return view.value;
    },
    listCategories: () => catalogRead(keyOf('listCategories'), () => discovery.listCategories()),
    searchCoverage: async () => discovery.searchCoverage(await generation()),
    getInstall: (idOrName, client) => catalogRead(keyOf('getInstall', idOrName, client), async () => discovery.installOf(await catalogServer(idOrName), client)),
    getToolHistory: (idOrName) => catalogRead(keyOf('getToolHistory', idOrName), async () => discovery.toolHistoryOf(await catalogServer(idOrName))),
    getTrust: (idOrName) => checkedRead(keyOf('getTrust', idOrName), async () => discovery.trustOf(await catalogServer(idOrName))),
    getStatus: (idOrName) => checkedRead(keyOf('getStatus', idOrName), async () => discovery.statusOf(await catalogServer(idOrName))),
    compareServers: (ids, signal) => checkedRead(keyOf('compareServers', ids), () => discovery.compareServers(ids), comparisons, signal),
    // Kept until the catalog changes; trust and status in Sextant's `_meta` say when they were observed.
    registryServers: (input) =>
      catalogRead(keyOf('registryServers', input.cursor, input.limit, input.search, input.updated_since, input.version, input.include_deleted), (at) => registry().listServers(input, at)),
    registryVersions: (name, includeDeleted) => catalogRead(keyOf('registryVersions', name, includeDeleted), () => registry().listVersions(name, includeDeleted)),
    registryVersion: (name, version, includeDeleted) =>
      catalogRead(keyOf('registryVersion', name, version, includeDeleted), () => registry().getVersion(name, version, includeDeleted)),
    page: (key, render, showsChecks, signal) => cached(`page\n${key}`, (_at, callersGone) => render(callersGone), { through: renderings, followsChecks: showsChecks, signal }),
  };
}

/**
 * The cache in front of every read: `cached` answers from it, or makes the entry (identical
 * misses share one computation) and keeps it if the generation held meanwhile; `uncached` makes
 * an answer each time. Either way a failure while the database does not answer becomes
 * `database_unavailable`, and a connection not had in time while it answers `service_unavailable`.
 */
function createCaching({ generation, cache = createAnswerCache(), databaseAnswers = async () => true, databaseBusy = () => false, monitorTtlMs = MONITOR_TTL_MS, checksRecorded = () => 0, renderings }: ReadModelDeps) {
  /** The last generation read: while the database does not answer, what was kept at it is served. */
  let known: string | null = null;
  const databaseErrors = async <R>(compute: () => Promise<R>): Promise<R> => {
    try {
      return await compute();
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (!(await databaseAnswers())) {
        throw new AppError('database_unavailable', `The catalog's database does not answer; try again in ${OUTAGE_RETRY_SECONDS} s.`, [], { 'Retry-After': String(OUTAGE_RETRY_SECONDS) });
      }
      throw databaseBusy(err) ? busy('database reads') : err;
    }
  };
  const cached = async <K extends CacheEntry>(key: string, make: (at: string | null, callersGone: AbortSignal) => Promise<K>, { through, followsChecks, signal }: Keeping): Promise<K> => {
    const now = await generation();
    if (followsChecks && monitorTtlMs <= 0) return databaseErrors(() => make(now, new AbortController().signal));
    if (now !== null) known = now;
    const at = now ?? known;
    const fullKey = followsChecks ? `${checksRecorded()}\n${key}` : key;
    const hit = at === null ? undefined : cache.get(at, fullKey);
    // Kept under a key only this function sets, by a `make` of the same K.
    if (hit) return hit as K;
    return through.run(`${now ?? ''}\n${fullKey}`, async (callersGone) => {
      const made = await databaseErrors(() => make(now, callersGone));
      if (now !== null && (await generation()) === now) cache.set(now, fullKey, made, followsChecks ? monitorTtlMs : undefined);
      return made;
    }, signal);
  };
  const uncached = async <T>(compute: () => Promise<T>): Promise<Answer<T>> => Answer.of(await databaseErrors(compute));
  return { cached, uncached, renderings: createSharedWork(renderings ?? createGate(RENDERINGS)) };
}

/**
 * The contract's links of a server: where the REST route set serves it and searches its tools.
 * Every surface shows the same representation, so they are added as its answer is made.
 */
function withLinks(server: CatalogServer): Server {
  const links = { self: `/api/v1/servers/${encodeURIComponent(server.id)}`, tools: `/api/v1/tools/search?q=${encodeURIComponent(server.name)}` };
  return { ...server, links };
}

/** The content generation as the read model follows it: null, not a throw, when the store cannot tell. */
export function followGeneration(read: () => Promise<string>): () => Promise<string | null> {
  return async () => {
    try {
      return await read();
    } catch {
      return null;
    }
  };
}
