/**
 * The service's Prometheus metrics (prom-client), one registry per service. What is counted as
 * it happens (requests, MCP calls, searches) is observed here; what is a state (the answer cache,
 * the database pool, endpoint states, catalog runs) is read when Prometheus scrapes.
 * The names, stated once, are in README.md "Metrics".
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the metrics read at each scrape, from the parts of the service that hold it. */
export interface MetricSources {
  readonly answerCache: () => { readonly hits: number; readonly misses: number; readonly bytes: number };
  readonly pool: () => { readonly used: number; readonly free: number; readonly pending: number; readonly max: number };
  /** Catalogued endpoints by the state of their latest check (`unchecked` for none yet). */
  readonly endpointStates: () => Promise<Readonly<Record<string, number>>>;
  /** Ingest and sync runs recorded in the database, by command and status, with the last success of each command. */
  readonly catalogRuns: () => Promise<ReadonlyArray<{ readonly command: string; readonly status: string; readonly runs: number; readonly lastSuccess: string | null }>>;
}

export interface Metrics {
  readonly registry: Registry;
  /** A request answered: its contract operation (`none` when unrouted), method and status. */
  request(operation: string | null, method: string, status: number, seconds: number): void;
  /** An MCP `tools/call` of a tool the server offers, and how it ended (ok, tool_error, invalid_arguments, error). */
  mcpCall(tool: string, outcome: string): void;
  /** A search answered by `engine` (`memory`, `fts5`, `postgres`). */
  search(engine: string, kind: 'servers' | 'tools' | 'rank', seconds: number): void;
  /** Adds the gauges read at each scrape. */
  watch(sources: MetricSources): void;
}

/** Seconds: a kept answer takes well under a millisecond, a cold search of a large catalog tens of them, a proxied call seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const REQUEST_METHODS = new Set(['GET', 'HEAD', 'POST', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']);

export function createMetrics(): Metrics {
  const registry = new Registry();
  // Process CPU, memory, file descriptors, GC, and event-loop lag (nodejs_eventloop_lag_*).
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'sextant_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being handed to the socket, by contract operation, method and status.',
    labelNames: ['operation', 'method', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const mcpCalls = new Counter({
    name: 'sextant_mcp_tool_calls_total',
    help: 'MCP tools/call requests by tool and outcome (ok, tool_error, invalid_arguments, error).',
    labelNames: ['tool', 'outcome'] as const,
    registers: [registry],
  });
  const searches = new Histogram({
    name: 'sextant_search_duration_seconds',
    help: 'Time a search took, by the engine that answered it and what it searched (servers, tools, rank: a registry API ranking).',
    labelNames: ['engine', 'kind'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return {
    registry,
    request(operation, method, status, seconds) {
      // Labels come from a closed set: a caller cannot grow the series with made-up methods.
      requests.observe({ operation: operation ?? 'none', method: REQUEST_METHODS.has(method) ? method : 'OTHER', status: String(status) }, seconds);
    },
    mcpCall(tool, outcome) {
      mcpCalls.inc({ tool, outcome });
    },
    search(engine, kind, seconds) {
      searches.observe({ engine, kind }, seconds);
    },
    watch(sources) {
      watchState(registry, sources);
    },
  };
}

/**
 * The gauges read at each scrape. Those read from the database say the same in every worker of
 * one service, so across workers the first one's value is taken (`aggregator: 'first'`), not a sum.
 */
function watchState(registry: Registry, sources: MetricSources): void {
  // Two gauges read the runs: one query per scrape serves both (the registry collects them together).
  let runsInFlight: ReturnType<MetricSources['catalogRuns']> | null = null;
  const catalogRuns = (): ReturnType<MetricSources['catalogRuns']> => {
    runsInFlight ??= sources.catalogRuns().finally(() => {
      runsInFlight = null;
    });
    return runsInFlight;
  };
  new Counter({
    name: 'sextant_answer_cache_lookups_total',
    help: 'Reads looked up in the answer cache since start, by result: hit (answered from it) or miss (computed, then kept).',
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      const { hits, misses } = sources.answerCache();
      this.reset();
      this.inc({ result: 'hit' }, hits);
      this.inc({ result: 'miss' }, misses);
    },
  });
  new Gauge({
    name: 'sextant_answer_cache_bytes',
    help: 'Bytes of answers and pages the answer cache holds (at most ANSWER_CACHE_MB).',
    registers: [registry],
    collect() {
      this.set(sources.answerCache().bytes);
    },
  });
  new Gauge({
    name: 'sextant_db_pool_connections',
    help: 'Database pool connections by state: used, free, pending (requests waiting for one) and max (the pool size).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = sources.pool();
      for (const state of ['used', 'free', 'pending', 'max'] as const) this.set({ state }, pool[state]);
    },
  });
  new Gauge({
    name: 'sextant_monitor_endpoints',
    help: 'Catalogued remote endpoints by the state of their latest monitor check (unchecked: none yet).',
    labelNames: ['state'] as const,
    aggregator: 'first',
    registers: [registry],
    async collect() {
      const states = await sources.endpointStates();
      this.reset();
      for (const [state, count] of Object.entries(states)) this.set({ state }, count);
    },
  });
  new Gauge({
    name: 'sextant_catalog_runs',
    help: 'Ingest and sync runs recorded in the database, by command and status (complete, failed, running: still running or killed; reset: the next sync is a full one, the catalog policy having widened).',
    labelNames: ['command', 'status'] as const,
    aggregator: 'first',
    registers: [registry],
    async collect() {
      const runs = await catalogRuns();
      this.reset();
      for (const run of runs) this.set({ command: run.command, status: run.status }, run.runs);
    },
  });
  new Gauge({
    name: 'sextant_catalog_run_last_success_timestamp_seconds',
    help: 'When the last complete ingest or sync run started (Unix time), by command.',
    labelNames: ['command'] as const,
    aggregator: 'first',
    registers: [registry],
    async collect() {
      const runs = await catalogRuns();
      this.reset();
      for (const run of runs) if (run.lastSuccess !== null) this.set({ command: run.command }, Date.parse(run.lastSuccess) / 1000);
    },
  });
}
