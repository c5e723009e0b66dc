/**
 * The read model: the one door every surface (REST, MCP, and later the registry API and the web
 * pages) reads the catalog through. It alone reads the catalog's content generation, keeps
 * answers (scrubbed once as they enter, with the bytes each edge sends) and, through
 * src/search/engine-choice.ts, picks the search engine. Reads of the catalog alone are kept until the
 * content changes; reads that also depend on monitor checks or the clock serve only the reads of
 * the next moment (trust, status, compare: `recentMs`), so a check never flushes a content
 * answer and shows within that moment. What it computes, it computes under a bound (gate.ts).
 */
import type { CatalogServer } from '../catalog/catalog-entry.js';
import { DEFAULT_LIMIT, type DiscoveryService, type ServerSearchInput, type ServerView, type ToolSearchInput } from '../discovery/discovery-service.js';
import type { SearchCoverage } from '../search/engine.js';
import type { RegistryListInput, RegistryServerList, RegistryServerResponse, RegistryApiService } from '../registry-api/registry-api-service.js';
import type { CategoryList, Comparison, InstallClient, InstallInstructions, Server, ServerPage, StatusReport, Tool, ToolPage, TrustReport } from '../types.js';
import { LRUCache } from 'lru-cache';
import { Answer } from './answer.js';
import { AppError } from '../errors.js';
import { scrubValue } from '../catalog/secrets.js';
import type { JsonText } from '../json.js';
import { createAnswerCache, type AnswerCache } from './answer-cache.js';
import { createFlights, type Flights } from './flights.js';
import { busy, createGate, type Gate, type GateOptions } from './gate.js';
import { withLinks } from './links.js';
import { createRenditions, type Renditions } from './renditions.js';

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
  getStatus(idOrName: string): Promise<Answer<StatusReport>>;
  /** Kept like trust and status, which it shows: for `recentMs`, until a new check. */
  compareServers(ids: readonly string[], signal?: AbortSignal): Promise<Answer<Comparison>>;
  /** The MCP Registry API (src/registry-api): a page of the list, a server's versions, one version. */
  registryServers(input: RegistryListInput): Promise<Answer<RegistryServerList>>;
  registryVersions(name: string, includeDeleted: boolean): Promise<Answer<RegistryServerList>>;
  registryVersion(name: string, version: string, includeDeleted: boolean): Promise<Answer<RegistryServerResponse>>;
  /** Every tool of a server, by the server's id (a web page's details), in upstream order. */
  getServerTools(serverId: string): Promise<Answer<Tool[]>>;
  /**
   * A server with its tools, install instructions, trust and status, read together (a server's
   * web page). Made afresh and scrubbed, as objects: what is kept is the page made of it
   * (`renditions`), so the view is never written out as JSON.
   */
  getServerView(idOrName: string): Promise<ServerPageView>;
  /**
   * Renditions made from several answers (a web page): each kept while the answers it reads
   * would be the same (src/read/renditions.ts). `followsChecks`: it reads trust or status.
   */
  renditions<R extends object>(bytesOf: (rendition: R) => number, followsChecks: boolean): Renditions<R>;
}

/** A server's view with the server as every surface shows it (with its links). */
export type ServerPageView = Omit<ServerView, 'server'> & { readonly server: Server };

export interface ReadModelDeps {
  readonly discovery: DiscoveryService;
  /** The registry API's service; a read model built without it (a test of another surface) has no registry API. */
  readonly registryApi?: RegistryApiService;
  /** The catalog's content generation; null when it cannot be read (answers are then neither kept nor replaced). */
  readonly generation: () => Promise<string | null>;
  /** Whether the database answers now: asked after a read failed, to tell an outage from a fault. */
  readonly databaseAnswers?: () => Promise<boolean>;
  /** Whether a failure means the database is busy (a connection not had in time): 503 `service_unavailable`, not a fault. */
  readonly databaseBusy?: (err: unknown) => boolean;
  readonly cache?: AnswerCache;
  /**
   * How long a trust or status answer serves the reads that follow it (ms; 0: each read computes
   * its own): a burst of reads of one server costs one computation, and a new monitor check shows
   * within this time.
   */
  readonly recentMs?: number;
  /**
   * Checks recorded in this process so far (the monitor in `serve`): a trust or status answer
   * made before the latest is not served again. Checks another process records show within `recentMs`.
   */
  readonly checksRecorded?: () => number;
  /** How reads of the catalog are computed (flights.ts). */
  readonly flights?: Flights;
  /** How comparisons are computed: apart from reads, fewer at once, so a flood of them never queues a search. */
  readonly comparisons?: Flights;
  /** Where page renderings (`renditions`) wait for their turn. */
  readonly renders?: Gate;
}

/** How long trust, status and compare answers serve the reads that follow (ms), how many are held, and their bytes together. */
const RECENT_MS = 30_000;
const RECENT_MAX = 10_000;
const RECENT_BYTES = 32 * 2 ** 20;

/** Comparisons: each reads up to ten whole servers and their trust, so two at once, one per core, and few waiting. */
const COMPARISONS: GateOptions = { concurrency: 2, queued: 64, what: 'comparisons' };
/** Page renderings that are not kept yet: a few at once (each holds its reads while it renders), few waiting. */
const RENDERS: GateOptions = { concurrency: 4, queued: 64, what: 'page renderings' };

/** How long a client is told to wait before asking again while the database does not answer. */
const OUTAGE_RETRY_SECONDS = 5;

/** The error of a read the database could not answer (503, `database_unavailable`, `Retry-After`). */
function databaseUnavailable(): AppError {
  return new AppError('database_unavailable', `The catalog's database does not answer; try again in ${OUTAGE_RETRY_SECONDS} s.`, [], {
    'Retry-After': String(OUTAGE_RETRY_SECONDS),
  });
}

export function createReadModel({
  discovery: registry, registryApi, generation, databaseAnswers = async () => true, databaseBusy = () => false, cache = createAnswerCache(), flights = createFlights(),
  comparisons = createFlights(createGate(COMPARISONS)), renders = createGate(RENDERS), recentMs = RECENT_MS, checksRecorded = () => 0,
}: ReadModelDeps): ReadModel {
  /** The last generation read: while the database does not answer, answers kept at it are served. */
  let known: string | null = null;
  /**
   * `compute`'s value; a failure while the database does not answer becomes `database_unavailable`,
   * and a connection not had in time while it answers `service_unavailable` (both 503, Retry-After).
   */
  const guarded = async <R>(compute: () => Promise<R>): Promise<R> => {
    try {
      return await compute();
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (!(await databaseAnswers())) throw databaseUnavailable();
      throw databaseBusy(err) ? busy('database reads') : err;
    }
  };
  /**
   * The answer kept under `key`, or `compute`'s, kept if the content did not change meanwhile.
   * Identical misses share one computation, and computations queue (flights.ts).
   */
  const kept = async <T>(key: string, compute: () => Promise<T | JsonText<T>>, signal?: AbortSignal): Promise<Answer<T>> => {
    const now = await generation();
    if (now !== null) known = now;
    const at = now ?? known;
    const hit = at === null ? undefined : cache.get(at, key);
    // Kept under a key only this function sets, for a compute of the same T.
    if (hit) return hit as Answer<T>;
    return flights.run(`${now ?? ''}\n${key}`, async () => {
      const answer = Answer.of<T>(await guarded(compute)).forKeeping();
      if (now !== null && (await generation()) === now) cache.set(now, key, answer);
      return answer;
    }, signal);
  };
  const fresh = async <T>(compute: () => Promise<T>): Promise<Answer<T>> => Answer.of(await guarded(compute));
  const recentAnswers = recentMs > 0
    ? new LRUCache<string, Answer<unknown>>({ max: RECENT_MAX, maxSize: RECENT_BYTES, sizeCalculation: (answer, key) => answer.bytes + key.length, ttl: recentMs })
    : null;
  /** `compute`'s answer (computed `through` these flights), or the one made under `key` less than `recentMs` ago (reads of monitor checks and the clock). */
  const recent = async <T>(key: string, compute: () => Promise<T>, through = flights, signal?: AbortSignal): Promise<Answer<T>> => {
    if (!recentAnswers) return fresh(compute);
    key = `${checksRecorded()}\n${key}`;
    const hit = recentAnswers.get(key);
    // Kept under a key only this function sets, for a compute of the same T.
    if (hit) return hit as Answer<T>;
    return through.run(`recent\n${key}`, async () => {
      const answer = (await fresh(compute)).forKeeping();
      recentAnswers.set(key, answer);
      return answer;
    }, signal);
  };
  const keyOf = (operation: string, ...args: unknown[]): string => `${operation}\n${JSON.stringify(args)}`;
  const getServer = (idOrName: string): Promise<Answer<Server>> => kept(keyOf('getServer', idOrName), async () => withLinks(await registry.getServer(idOrName)));
  /** A server as the catalog holds it, from the answer kept for it (install, trust and status are made from it, not found again). */
  const catalogServer = async (idOrName: string): Promise<CatalogServer> => {
    const { links: _links, ...server } = (await getServer(idOrName)).value;
    return server;
  };
  const registryApiOf = (): RegistryApiService => {
    if (!registryApi) throw new AppError('not_found', 'This service has no registry API.');
    return registryApi;
  };

  return {
    // Keyed with the page's defaults applied: REST's `?q=x`, the web page of `x` and MCP's call ask the same read.
    searchServers: (input, signal) =>
      kept(keyOf('searchServers', input.q, input.category, input.sort, input.limit ?? DEFAULT_LIMIT, input.offset ?? 0), () => registry.searchServers(input), signal),
    searchTools: (input, signal) =>
      kept(keyOf('searchTools', input.q, input.authentication, input.sort, input.limit ?? DEFAULT_LIMIT, input.offset ?? 0), () => registry.searchTools(input), signal),
    getServer,
    getServerByDomain: (domain) => kept(keyOf('getServerByDomain', domain), async () => withLinks(await registry.getServerByDomain(domain))),
    getTool: (id) => kept(keyOf('getTool', id), () => registry.getTool(id)),
    getServerTools: (serverId) => kept(keyOf('getServerTools', serverId), () => registry.getServerTools(serverId)),
    getServerView: async (idOrName) => {
      const view = await guarded(() => registry.serverView(idOrName));
      return scrubValue({ ...view, server: withLinks(view.server) });
    },
    listCategories: () => kept(keyOf('listCategories'), () => registry.listCategories()),
    searchCoverage: () => registry.searchCoverage(),
    getInstall: (idOrName, client) => kept(keyOf('getInstall', idOrName, client), async () => registry.installOf(await catalogServer(idOrName), client)),
    getTrust: (idOrName) => recent(keyOf('getTrust', idOrName), async () => registry.trustOf(await catalogServer(idOrName))),
    getStatus: (idOrName) => recent(keyOf('getStatus', idOrName), async () => registry.statusOf(await catalogServer(idOrName))),
    compareServers: (ids, signal) => recent(keyOf('compareServers', ids), () => registry.compareServers(ids), comparisons, signal),
    // Kept until the catalog changes; trust and status in Sextant's `_meta` say when they were observed.
    registryServers: (input) =>
      kept(keyOf('registryServers', input.cursor, input.limit, input.search, input.updated_since, input.version, input.include_deleted), () => registryApiOf().listServers(input)),
    registryVersions: (name, includeDeleted) => kept(keyOf('registryVersions', name, includeDeleted), () => registryApiOf().listVersions(name, includeDeleted)),
    registryVersion: (name, version, includeDeleted) =>
      kept(keyOf('registryVersion', name, version, includeDeleted), () => registryApiOf().getVersion(name, version, includeDeleted)),
    renditions: <R extends object>(bytesOf: (rendition: R) => number, followsChecks: boolean) =>
      createRenditions<R>({
        bytesOf,
        flights: createFlights(renders),
        // Trust and status answers serve for `recentMs`: a rendition of them no longer, and none is kept without them.
        ttlMs: followsChecks ? recentMs : null,
        stamp: async () => {
          const now = await generation();
          if (now !== null) known = now;
          const checks = followsChecks ? `\n${checksRecorded()}` : '';
          return { now: now === null ? null : `${now}${checks}`, last: known === null ? null : `${known}${checks}` };
        },
      }),
  };
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
