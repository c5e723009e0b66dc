/** Rate limiters whose counters live where every instance of the service sees them. */
import cluster from 'node:cluster';
import { RateLimiterCluster, RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import { dialectOf, type Db } from './db.js';
import { tableRateLimiter, type Limiter } from './table-rate-limiter.js';

export type { Limiter } from './table-rate-limiter.js';

export interface RateLimiterSpec {
  /** Names the policy's counters (several policies share one table). */
  readonly keyPrefix: string;
  readonly points: number;
  /** Window, in seconds. */
  readonly duration: number;
  /**
   * Counts that must outlive a restart (the assessment quotas): in the database on SQLite too.
   * Elsewhere SQLite counts in memory: a write per request on its one connection would queue
   * every read behind it, and a per-minute count lost in a restart costs a minute's allowance.
   */
  readonly durable?: boolean;
}

/**
 * A limiter on PostgreSQL's `rate_limits` table (with this process's memory as insurance if the
 * database fails); on SQLite on that table when `durable`, else in memory: this process's, or
 * in a worker of `serve` (src/serve-cluster.ts) its primary's, which every worker asks.
 */
export function createRateLimiter(db: Db, { durable, ...spec }: RateLimiterSpec): Limiter {
  const memory = new RateLimiterMemory({ ...spec });
  if (dialectOf(db) === 'postgres') return new RateLimiterPostgres({ ...spec, storeClient: db, storeType: 'knex', tableName: 'rate_limits', tableCreated: true, insuranceLimiter: memory });
  if (durable) return tableRateLimiter(db, spec, memory);
  return cluster.isWorker ? new RateLimiterCluster({ ...spec, timeoutMs: CLUSTER_TIMEOUT_MS }) : memory;
}

/** How long a worker waits for its primary's count before the request fails (the primary answers in microseconds). */
const CLUSTER_TIMEOUT_MS = 5000;
