/**
 * Watchlists and their runs. Running a watchlist and delivering a run's webhook are each claimed
 * with a lease (as assessment jobs are, assessment-store.ts `claim`), so instances on one
 * database never do either twice, and work whose instance died is taken over once its lease ends.
 */
import type { Knex } from 'knex';
import type { components } from '../../generated/openapi.js';
import { storable, type Db } from './db.js';

type Schemas = components['schemas'];
export type DeliveryState = Schemas['WatchlistDelivery']['state'];
export type DeliveryAttempt = Schemas['WatchlistDeliveryAttempt'];

export interface StoredWatchlist {
  readonly id: string;
  readonly name: string | null;
  readonly domains: readonly string[];
  readonly intervalHours: number;
  readonly webhookUrl: string | null;
  /** The signing secret; the service never returns it after creation. */
  readonly webhookSecret: string | null;
  readonly createdAt: string;
  readonly lastRunAt: string | null;
  readonly nextRunAt: string;
}

export interface StoredRun {
  readonly id: string;
  readonly watchlistId: string;
  readonly startedAt: string;
  readonly assessments: ReadonlyArray<{ readonly domain: string; readonly assessmentId: string }>;
  readonly deliveryState: DeliveryState;
  readonly attempts: readonly DeliveryAttempt[];
  readonly nextAttemptAt: string | null;
}

/** What a delivery attempt (or a wait for the run's assessments) leaves behind. */
export interface DeliveryUpdate {
  readonly state: DeliveryState;
  readonly attempts: readonly DeliveryAttempt[];
  readonly nextAttemptAt: string | null;
}

export interface WatchlistStore {
  create(watchlist: StoredWatchlist): Promise<void>;
  find(id: string): Promise<StoredWatchlist | null>;
  /** Every watchlist, oldest first. */
  list(): Promise<StoredWatchlist[]>;
  /** Deletes the watchlist and its runs; false when there was none. */
  remove(id: string): Promise<boolean>;
  /** The watchlist's latest runs, newest first. */
  runs(watchlistId: string, limit: number): Promise<StoredRun[]>;
  /** Claims the watchlist due longest (`next_run_at` ≤ now) whose lease is free or ran out, or null. */
  claimDue(worker: string, now: string, leaseUntil: string): Promise<StoredWatchlist | null>;
  /**
   * Records a run of a watchlist `worker` holds, schedules the next and frees the lease, in one
   * transaction; false (nothing recorded) when the lease was lost or the watchlist deleted.
   */
  recordRun(worker: string, run: StoredRun, nextRunAt: string): Promise<boolean>;
  /** Frees a claimed watchlist without running it (its run failed; it is tried again at the next tick). */
  release(watchlistId: string, worker: string): Promise<void>;
  /** Claims the run whose delivery is due longest, or null. */
  claimDelivery(worker: string, now: string, leaseUntil: string): Promise<StoredRun | null>;
  /** Writes a claimed run's delivery and frees its lease; false when the lease was lost. */
  updateDelivery(runId: string, worker: string, update: DeliveryUpdate): Promise<boolean>;
}

interface WatchlistRow {
  id: string; name: string | null; domains: string; interval_hours: number | string; webhook_url: string | null; webhook_secret: string | null;
  created_at: string; last_run_at: string | null; next_run_at: string; claimed_by: string | null; lease_until: string | null;
}

interface RunRow {
  id: string; watchlist_id: string; started_at: string; assessments: string; delivery_state: DeliveryState; delivery_attempts: string;
  next_attempt_at: string | null; claimed_by: string | null; lease_until: string | null;
}

function watchlistOf(row: WatchlistRow): StoredWatchlist {
  return {
    id: row.id, name: row.name, domains: JSON.parse(row.domains), intervalHours: Number(row.interval_hours), webhookUrl: row.webhook_url,
    webhookSecret: row.webhook_secret, createdAt: row.created_at, lastRunAt: row.last_run_at, nextRunAt: row.next_run_at,
  };
}

function runOf(row: RunRow): StoredRun {
  return {
    id: row.id, watchlistId: row.watchlist_id, startedAt: row.started_at, assessments: JSON.parse(row.assessments), deliveryState: row.delivery_state,
    attempts: JSON.parse(row.delivery_attempts), nextAttemptAt: row.next_attempt_at,
  };
}

/**
 * Claims one row of `table` that `due` selects and whose lease is free or ran out: read a
 * candidate, then take it only if nobody else did in between (the update re-checks its lease).
 */
async function claimRow<Row extends { id: string; lease_until: string | null }>(
  db: Db, table: string, due: (q: Knex.QueryBuilder) => Knex.QueryBuilder, orderBy: string, worker: string, now: string, leaseUntil: string,
): Promise<Row | null> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const candidate: Row | undefined = await due(db(table))
      .andWhere((q) => q.whereNull('lease_until').orWhere('lease_until', '<', now))
      .orderBy(orderBy)
      .first();
    if (!candidate) return null;
    // Still due too: another instance may have finished with it since it was read.
    const claimed = await due(db(table))
      .andWhere({ id: candidate.id })
      .andWhere((q) => (candidate.lease_until === null ? q.whereNull('lease_until') : q.where('lease_until', candidate.lease_until)))
      .update({ claimed_by: worker, lease_until: leaseUntil });
    if (claimed === 1) return candidate;
  }
  return null;
}

export function createWatchlistStore(db: Db): WatchlistStore {
  return {
    async create(w) {
      await db('watchlists').insert({
        id: w.id, name: w.name, domains: JSON.stringify(w.domains), interval_hours: w.intervalHours, webhook_url: w.webhookUrl, webhook_secret: w.webhookSecret,
        created_at: w.createdAt, last_run_at: w.lastRunAt, next_run_at: w.nextRunAt, claimed_by: null, lease_until: null,
      });
    },

    async find(id) {
      if (!storable(id)) return null;
      const row: WatchlistRow | undefined = await db('watchlists').where({ id }).first();
      return row ? watchlistOf(row) : null;
    },

    async list() {
      const rows: WatchlistRow[] = await db('watchlists').orderBy([{ column: 'created_at' }, { column: 'id' }]);
      return rows.map(watchlistOf);
    },

    async remove(id) {
      if (!storable(id)) return false;
      return db.transaction(async (trx) => {
        await trx('watchlist_runs').where({ watchlist_id: id }).delete();
        return (await trx('watchlists').where({ id }).delete()) === 1;
      });
    },

    async runs(watchlistId, limit) {
      const rows: RunRow[] = await db('watchlist_runs').where({ watchlist_id: watchlistId }).orderBy([{ column: 'started_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
      return rows.map(runOf);
    },

    async claimDue(worker, now, leaseUntil) {
      const row = await claimRow<WatchlistRow>(db, 'watchlists', (q) => q.where('next_run_at', '<=', now), 'next_run_at', worker, now, leaseUntil);
      return row ? watchlistOf(row) : null;
    },

    async recordRun(worker, run, nextRunAt) {
      return db.transaction(async (trx) => {
        const held = await trx('watchlists').where({ id: run.watchlistId, claimed_by: worker })
          .update({ last_run_at: run.startedAt, next_run_at: nextRunAt, claimed_by: null, lease_until: null });
        if (held !== 1) return false;
        await trx('watchlist_runs').insert({
          id: run.id, watchlist_id: run.watchlistId, started_at: run.startedAt, assessments: JSON.stringify(run.assessments), delivery_state: run.deliveryState,
          delivery_attempts: JSON.stringify(run.attempts), next_attempt_at: run.nextAttemptAt, claimed_by: null, lease_until: null,
        });
        return true;
      });
    },

    async release(watchlistId, worker) {
      await db('watchlists').where({ id: watchlistId, claimed_by: worker }).update({ claimed_by: null, lease_until: null });
    },

    async claimDelivery(worker, now, leaseUntil) {
      const row = await claimRow<RunRow>(db, 'watchlist_runs', (q) => q.where({ delivery_state: 'pending' }).andWhere('next_attempt_at', '<=', now), 'next_attempt_at', worker, now, leaseUntil);
      return row ? runOf(row) : null;
    },

    async updateDelivery(runId, worker, update) {
      const held = await db('watchlist_runs').where({ id: runId, claimed_by: worker }).update({
        delivery_state: update.state, delivery_attempts: JSON.stringify(update.attempts), next_attempt_at: update.nextAttemptAt, claimed_by: null, lease_until: null,
      });
      return held === 1;
    },
  };
}
