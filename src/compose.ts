/** The composition root's wiring: config → store → services → app, shared by the CLI and tests. */
import type Koa from 'koa';
import { createApp } from './app.js';
import { createAssessmentService, type AssessmentService } from './assessments/assessment-service.js';
import { rdapFromBootstrap, runProbes } from './assessments/probes/index.js';
import { startWorkers, type ProbeRunner, type WorkerOptions, type Workers } from './assessments/worker.js';
import type { Config } from './config.js';
import { loadContract } from './contract.js';
import type { Logger } from './logger.js';
import { createMetrics, type Metrics } from './metrics/metrics.js';
import { DnssecResolver } from './net/dns-records.js';
import { createNetClient, type NetClient, type NetClientOptions } from './net/index.js';
import { createProxyService, type ProxyService } from './proxy/proxy-service.js';
import { rankedServers, searchThrough } from './search/engine-choice.js';
import { createRegistryApiService, RANKED_HEAD } from './registry-api/registry-api-service.js';
import { createReadModel, followGeneration, type ReadModel } from './read/read-model.js';
import { ANSWER_CACHE_MB, createAnswerCache } from './read/answer-cache.js';
import { createDiscoveryService, type DiscoveryService } from './discovery/discovery-service.js';
import { createMemoryEngine, createSqlEngine, type SearchEngine } from './search/index.js';
import { createAccessTokens, createAudit, type AccessTokens, type Audit } from './auth/access-tokens.js';
import type { CatalogPolicy } from './catalog/catalog-policy.js';
import { createStore, type Store } from './store/index.js';
import { startWatchlistScheduler, type SchedulerOptions, type WatchlistScheduler } from './watchlists/scheduler.js';
import { createDeliverer, type DeliveryOptions } from './watchlists/webhook-delivery.js';
import { createWatchlistService, type WatchlistService } from './watchlists/watchlist-service.js';

export type ServiceConfig = Pick<
  Config,
  'host' | 'publicUrl' | 'allowedHosts' | 'databaseUrl' | 'discoveryRateLimit' | 'mcpRateLimit' | 'registryRateLimit' | 'pageRateLimit' | 'trustProxyHops' | 'rateLimitIpv6Prefix' | 'mcpAllowedOrigins' | 'netAllowPrivate' | 'proxyRateLimit' | 'proxyDeadline' | 'assessmentLimit' | 'assessmentDailyCap' | 'rdapBootstrapUrl'
> & Partial<Pick<Config, 'answerCacheMb' | 'watchlistToken' | 'readAccess'>>;

export interface Service {
  readonly store: Store;
  readonly registry: DiscoveryService;
  readonly read: ReadModel;
  /**
   * Builds what the search engines hold for the catalog as it is (the in-memory index); whether
   * every engine answers. It resolves before the index's snapshot is kept (that follows while serving).
   */
  warmSearch(): Promise<boolean>;
  readonly net: NetClient;
  readonly proxy: ProxyService;
  readonly assessments: AssessmentService;
  readonly watchlists: WatchlistService;
  /** Access tokens of an organisation's own registry, and the audit log of its writes. */
  readonly access: AccessTokens;
  readonly audit: Audit;
  readonly app: Koa;
  /** The service's metrics, when asked for (ServiceOptions.metrics). */
  readonly metrics: Metrics | null;
  /** The service's version, from the contract (`info.version`). */
  readonly version: string;
  /** Stopping begins: `/readyz` answers 503 and every answer closes its connection. */
  beginStop(): void;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** Overrides for the guarded network client (tests: short timeouts, an injected resolver). */
  readonly net?: Partial<NetClientOptions>;
  /** Run assessment workers in this process (serve and tests; not one-off CLI commands). */
  readonly workers?: boolean;
  /** Replaces the real probes (tests that are about queueing, not probing). */
  readonly probe?: ProbeRunner;
  /** Worker settings (tests: a short lease). */
  readonly workerOptions?: WorkerOptions;
  /** Watchlist schedule and webhook settings (tests: a short tick, a quick retry, a moved clock). */
  readonly watchlists?: SchedulerOptions & DeliveryOptions;
  /** Count requests, MCP calls and searches, and read state at each scrape (serve with METRICS_PORT). */
  readonly metrics?: boolean;
  /** The catalog policy in force (serve follows CATALOG_POLICY); none when absent. */
  readonly policy?: () => CatalogPolicy | null;
}

/** Opens and migrates the store, builds the services and the app. */
export async function createService(config: ServiceConfig, logger: Logger, options: ServiceOptions = {}): Promise<Service> {
  // Serving reads rows by key and searches from memory: the OS's file cache does the rest.
  const store = createStore(config.databaseUrl, { pageCacheMb: 16 });
  const metrics = options.metrics ? createMetrics() : null;
  const engines = searchEngines(store, logger);
  const client = createNetClient({ allowPrivate: config.netAllowPrivate, ...options.net });
  let workers: Workers | null = null;
  let scheduler: WatchlistScheduler | null = null;
  try {
    await store.migrate();
    // Checked once, at start: a damaged file is reported (and /readyz says 503), not served as
    // healthy. Awaited, so its connection is closed before anything writes (a first load leaves
    // WAL mode only while no other connection is open: src/store/first-load-journal.ts).
    const { state, problems } = await store.integrity();
    if (state === 'corrupt') logger.error({ problems }, 'the database file is damaged (SQLite quick_check): not ready; restore it from a backup');
    if (state === 'error') logger.error({ problems }, "the database file's integrity could not be checked: not ready");
    const document = loadContract();
    const version = document.info.version;
    const generation = followGeneration(store.contentGeneration);
    const registry = createDiscoveryService({ catalog: store.catalog, search: searchThrough(engines, metrics?.search), monitor: store.monitor });
    // A registry list's cursor goes on in the order it started in, so the list ranks only by bm25,
    // which the in-memory index and FTS5 compute alike; where neither answers (PostgreSQL while
    // its index builds) the list goes by name, and so do the cursors it gives.
    const rank = rankedServers(engines.filter((engine) => engine.scoring === 'bm25'), RANKED_HEAD, metrics?.search);
    const registryApi = createRegistryApiService({ versions: store.registryVersions, catalog: store.catalog, monitor: store.monitor, rank });
    const cache = createAnswerCache((config.answerCacheMb ?? ANSWER_CACHE_MB) * 2 ** 20);
    metrics?.watch({ answerCache: cache.stats, pool: store.poolUse, endpointStates: store.monitor.endpointStates, catalogRuns: store.monitor.catalogRuns });
    const read = createReadModel({ discovery: registry, registryApi, generation, cache, checksRecorded: store.monitor.checksRecorded, databaseAnswers: store.answers, databaseBusy: store.busy });
    const proxy = createProxyService({ catalog: store.catalog, net: client, clientVersion: version, deadlineMs: config.proxyDeadline * 1000 });
    const probe = options.probe ?? defaultProbe(client, config);
    if (options.workers) workers = startWorkers(store.assessments, probe, logger, options.workerOptions);
    const assessments = createAssessmentService({
      store: store.assessments,
      rateLimiter: store.rateLimiter,
      limits: { perClientPerHour: config.assessmentLimit, dailyCap: config.assessmentDailyCap },
      onQueued: () => workers?.kick(),
    });
    const watchlistClock = options.watchlists?.now ?? (() => new Date());
    const watchlists = createWatchlistService({ store: store.watchlists, assessments, now: watchlistClock });
    // Watchlists run where assessments are worked, and only while they are on (WATCHLIST_TOKEN).
    if (options.workers && config.watchlistToken) {
      const deliver = createDeliverer({ store: store.watchlists, assessments, net: client, publicUrl: config.publicUrl, now: watchlistClock }, options.watchlists);
      scheduler = startWatchlistScheduler({ store: store.watchlists, assessments, deliver, logger }, options.watchlists);
    }
    const access = createAccessTokens({ store: store.access, limiter: store.rateLimiter });
    const audit = createAudit(store.access);
    let stopping = false;
    const app = await createApp({ config, store, read, proxy, assessments, watchlists: { service: watchlists, token: config.watchlistToken ?? null }, logger, metrics, document, stopping: () => stopping, access, audit, ...(options.policy ? { policy: options.policy } : {}) });
    return {
      store, registry, read, net: client, metrics,
      async warmSearch() {
        return (await Promise.all(engines.map(async (engine) => (await (engine.serving?.() ?? engine.warm?.())) ?? true))).every(Boolean);
      }, proxy, assessments, watchlists, access, audit, app, version,
      beginStop() {
        stopping = true;
      },
      async close() {
        await scheduler?.stop();
        await workers?.stop();
        await client.close();
        for (const engine of engines) engine.close?.();
        await store.close();
      },
    };
  } catch (err) {
    await scheduler?.stop();
    await workers?.stop();
    await client.close();
    for (const engine of engines) engine.close?.();
    await store.close();
    throw err;
  }
}

/**
 * The search engines, in the order the read model asks them: the in-memory engine (while it is
 * current) before the database's own SQL (FTS5 on SQLite, tsvector on PostgreSQL). On either
 * database each instance builds its index at start (or loads a snapshot of it) and follows the
 * shared content generation: a bulk write keeps the snapshot of its result as it commits
 * (src/ingest/ingest-service.ts), which instances load; SQL answers meanwhile.
 */
function searchEngines(store: Store, logger: Logger): SearchEngine[] {
  const sql = createSqlEngine(store.searchSource);
  const memory = createMemoryEngine(store.searchSource, () => store.contentGeneration(true), {
    built: (stats) => logger.info(stats, 'search index built'),
    failed: (err) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'search index build failed; SQL answers searches'),
    snapshotFailed: (err, doing) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, doing === 'read' ? 'search index snapshot unreadable; building the index' : 'search index snapshot not kept'),
  });
  return [memory, sql];
}

/** The real probes: system DNS, the guarded client, RDAP servers from the IANA bootstrap. */
function defaultProbe(net: NetClient, config: ServiceConfig): ProbeRunner {
  const rdapBaseUrl = rdapFromBootstrap(net, config.rdapBootstrapUrl);
  const dns = new DnssecResolver({ timeout: 5000, tries: 2 });
  return (domain) => runProbes({ domain, net, dns, allowPrivate: config.netAllowPrivate, rdapBaseUrl, timeoutMs: 10_000, now: () => new Date() });
}
