/**
 * The watchlists' schedule, in the processes that run assessment workers: every tick it runs
 * each due watchlist (one assessment per domain, not counted against the public limit) and works
 * each due webhook delivery. Both are claimed with a lease in the database, so instances sharing
 * it never run a watchlist or send a delivery twice.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AssessmentService } from '../assessments/assessment-service.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { StoredRun, StoredWatchlist, WatchlistStore } from '../store/index.js';
import type { Deliver } from './webhook-delivery.js';

const HOUR_MS = 3_600_000;
/** Watchlists or deliveries one tick works at most: the rest wait for the next. */
const PER_TICK = 100;

export interface SchedulerOptions {
  /** How often due watchlists and deliveries are looked for (default 5 s). */
  readonly tickMs?: number;
  /** How long a claim holds before another instance may take the work over (default 5 min). */
  readonly leaseMs?: number;
  readonly now?: () => Date;
}

export interface SchedulerDeps {
  readonly store: WatchlistStore;
  readonly assessments: AssessmentService;
  readonly deliver: Deliver;
  readonly logger: Logger;
}

export interface WatchlistScheduler {
  /** One pass now: due runs, then due deliveries. */
  tick(): Promise<void>;
  /** Stops ticking and waits for the pass under way. */
  stop(): Promise<void>;
}

export function startWatchlistScheduler(deps: SchedulerDeps, options: SchedulerOptions = {}): WatchlistScheduler {
  const worker = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? 300_000;
  const lease = (): [string, string] => {
    const at = now();
    return [at.toISOString(), new Date(at.getTime() + leaseMs).toISOString()];
  };

  const runOne = async (watchlist: StoredWatchlist): Promise<void> => {
    const startedAt = now();
    const assessments: Array<{ domain: string; assessmentId: string }> = [];
    for (const domain of watchlist.domains) {
      const created = await deps.assessments.create({ domain }, 'watchlist', { counted: false }).catch((err: unknown) => {
        // A domain today's rules refuse (they changed since it was stored) is left out, not retried.
        if (err instanceof AppError && err.code === 'invalid_domain') return null;
        throw err;
      });
      if (created === null) deps.logger.warn({ watchlist: watchlist.id, domain }, 'watchlist domain no longer valid; not assessed');
      else assessments.push({ domain, assessmentId: created.assessment.id });
    }
    const hook = watchlist.webhookUrl !== null;
    const run: StoredRun = {
      id: randomUUID(), watchlistId: watchlist.id, startedAt: startedAt.toISOString(), assessments,
      deliveryState: hook ? 'pending' : 'none', attempts: [], nextAttemptAt: hook ? startedAt.toISOString() : null,
    };
    const next = new Date(startedAt.getTime() + watchlist.intervalHours * HOUR_MS).toISOString();
    if (!(await deps.store.recordRun(worker, run, next))) deps.logger.warn({ watchlist: watchlist.id }, 'watchlist run not recorded: its lease ran out or it was deleted');
  };

  const pass = async (): Promise<void> => {
    for (let done = 0; done < PER_TICK; done += 1) {
      const watchlist = await deps.store.claimDue(worker, ...lease());
      if (!watchlist) break;
      await runOne(watchlist).catch(async (err: unknown) => {
        deps.logger.error({ err, watchlist: watchlist.id }, 'watchlist run failed; tried again at the next tick');
        await deps.store.release(watchlist.id, worker);
      });
    }
    for (let done = 0; done < PER_TICK; done += 1) {
      const run = await deps.store.claimDelivery(worker, ...lease());
      if (!run) break;
      const update = await deps.deliver(run).catch((err: unknown) => {
        deps.logger.error({ err, run: run.id }, 'webhook delivery failed on our side; tried again later');
        return { state: run.deliveryState, attempts: run.attempts, nextAttemptAt: new Date(now().getTime() + leaseMs).toISOString() };
      });
      await deps.store.updateDelivery(run.id, worker, update);
    }
  };

  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> = Promise.resolve();
  const tick = (): Promise<void> => {
    current = current.then(pass).catch((err: unknown) => deps.logger.error({ err }, 'watchlist schedule pass failed'));
    return current;
  };
  const loop = (): void => {
    timer = setTimeout(() => void tick().then(() => {
      if (!stopped) loop();
    }), options.tickMs ?? 5_000);
  };
  loop();
  return {
    tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
