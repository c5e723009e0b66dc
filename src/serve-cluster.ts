/**
 * `serve` with `WORKERS=N`: a primary process and N server processes on one port (node:cluster,
 * the primary handing out connections in turn). The primary migrates and loads the demo catalog
 * once, holds the SQLite file's serve lock, keeps the rate-limit counters every worker shares
 * (rate-limiter-flexible's cluster master), gathers the workers' metrics, restarts a worker that
 * dies, and on SIGTERM or SIGINT stops them all and waits for their requests in flight.
 * Exactly one worker, the first, runs the monitor and the assessment workers.
 */
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import { redactUrl, type Config } from './config.js';
import { readPolicyFile } from './curation/policy-file.js';
import { loadDemoCatalogIfEmpty } from './ingest/demo.js';
import type { Logger } from './logger.js';
import { openMetricsPort } from './metrics/metrics-server.js';
import { createStore } from './store/index.js';
import { holdServeLock } from './store/serve-lock.js';

/** What a worker is told by the primary, through its environment. */
export interface WorkerRole {
  /** 0 to N-1, kept by a worker that is restarted. */
  readonly index: number;
  /** Whether this worker runs the monitor and the assessment workers. */
  readonly background: boolean;
}

const INDEX = 'SEXTANT_WORKER_INDEX';
const BACKGROUND = 'SEXTANT_WORKER_BACKGROUND';
/** A worker that dies is started again after this long, so a worker that cannot start does not spin. */
const RESTART_DELAY_MS = 1000;

/** This process's role when it is a worker of `serve`, else null. */
export function workerRole(): WorkerRole | null {
  if (!cluster.isWorker) return null;
  return { index: Number(process.env[INDEX] ?? 0), background: process.env[BACKGROUND] === '1' };
}

/** Lets the primary gather this worker's metrics from `registry`. */
export function shareMetrics(registry: Registry): void {
  // Making one is what sets a worker listening for the primary's requests.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
}

/**
 * Resolves when a worker is asked to stop: SIGTERM from the primary, or the primary gone. SIGINT
 * (a Ctrl-C reaches the whole process group) is the primary's to relay, so it is not taken here.
 */
export function workerStopped(): Promise<string> {
  process.on('SIGINT', () => undefined);
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('disconnect', () => resolve('primary gone'));
  });
}

/** The primary of `serve` with `config.workers` workers; resolves with the exit status. */
export async function servePrimary(config: Config, logger: Logger): Promise<number> {
  // A policy file that cannot be used stops the start, before any worker serves.
  const policy = await readPolicyFile(config.catalogPolicy);
  const store = createStore(config.databaseUrl);
  try {
    await store.migrate();
    if (config.demoCatalog === 'auto') {
      const summary = await loadDemoCatalogIfEmpty(store, policy);
      if (summary) logger.info({ servers: summary.added, tools: summary.tools }, 'loaded the demo catalog into the empty catalog');
    }
  } finally {
    await store.close();
  }
  const serveLock = await holdServeLock(config.databaseUrl);
  if (!serveLock.alone) logger.warn({ database: redactUrl(config.databaseUrl) }, 'another sextant serve runs on this SQLite file: these workers run no endpoint monitor; run one serve per SQLite file');
  // The counters of the limits kept in memory (SQLite's per-minute ones) live here, shared by every worker.
  new RateLimiterClusterMaster();
  const aggregator = new AggregatorRegistry();

  let stopping = false;
  let serving = false;
  let failed = false;
  const fork = (index: number): Worker => cluster.fork({ [INDEX]: String(index), [BACKGROUND]: index === 0 && serveLock.alone ? '1' : '0' });
  const workers = new Map<Worker, number>();
  const stopAll = (): void => {
    stopping = true;
    for (const worker of workers.keys()) worker.process.kill('SIGTERM');
  };
  const allGone = new Promise<'gone'>((resolve) => {
    cluster.on('exit', (worker, code, signal) => {
      const index = workers.get(worker);
      if (index === undefined) return;
      workers.delete(worker);
      if (stopping) failed ||= code !== 0;
      else if (serving) {
        logger.error({ worker: index, code, signal }, 'a worker died: starting it again');
        setTimeout(() => {
          if (!stopping) workers.set(fork(index), index);
          else if (workers.size === 0) resolve('gone');
        }, RESTART_DELAY_MS);
        return;
      } else {
        // One that cannot start (the port is taken, the database is damaged) would not start again either.
        logger.error({ worker: index, code, signal }, 'a worker stopped before serving: stopping');
        failed = true;
        stopAll();
      }
      if (workers.size === 0) resolve('gone');
    });
  });
  const listening = new Promise<number>((resolve) => {
    let count = 0;
    cluster.on('listening', (_worker, address) => {
      count += 1;
      if (count === config.workers) resolve(address.port);
    });
  });
  for (let index = 0; index < config.workers; index += 1) workers.set(fork(index), index);
  // The background worker reloads the catalog policy; every worker is told, as each would be alone.
  if (config.catalogPolicy !== null) {
    process.on('SIGHUP', () => {
      for (const worker of workers.keys()) worker.process.kill('SIGHUP');
    });
  }
  const signalled = Promise.race([once(process, 'SIGINT').then(() => 'SIGINT'), once(process, 'SIGTERM').then(() => 'SIGTERM')]);
  const first = await Promise.race([listening, signalled, allGone]);
  let metrics = null;
  if (typeof first === 'number') {
    serving = true;
    logger.info({ url: `http://${config.host}:${first}`, database: redactUrl(config.databaseUrl), workers: config.workers }, 'sextant is serving');
    if (config.metricsPort > 0) metrics = await openMetricsPort(async () => ({ contentType: aggregator.contentType, text: await aggregator.clusterMetrics() }), config, logger);
  }
  const by = typeof first === 'number' ? await Promise.race([signalled, allGone]) : first;
  if (by !== 'gone') {
    logger.info({ signal: by, graceSeconds: config.shutdownGrace, workers: workers.size }, 'shutting down: the workers finish the requests in flight');
    stopAll();
    if (workers.size > 0) await allGone;
  }
  metrics?.close();
  await serveLock.release();
  return failed ? 1 : 0;
}
