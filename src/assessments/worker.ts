/**
 * Background workers for assessments: claim a queued job (or one whose instance died),
 * run the probes, store the observations. Any instance may run them; a restart loses nothing.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import type { AssessmentStore, Observation } from '../store/index.js';
import { statusOf } from './assessment-service.js';

export type ProbeRunner = (domain: string) => Promise<Observation[]>;

export interface WorkerOptions {
  readonly concurrency?: number;
  /** How long a claim holds before another instance may take the job over. */
  readonly leaseMs?: number;
  /** How often idle workers look for jobs queued elsewhere. */
  readonly pollMs?: number;
  readonly now?: () => Date;
}

export interface Workers {
  /** Wakes idle workers (an assessment was just queued). */
  kick(): void;
  /** Stops taking jobs and waits for the running ones. */
  stop(): Promise<void>;
}

export function startWorkers(store: AssessmentStore, probe: ProbeRunner, logger: Logger, options: WorkerOptions = {}): Workers {
  const id = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? 120_000;
  let stopped = false;
  const sleepers = new Set<() => void>();
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });
  const wakeAll = (): void => {
    for (const wake of [...sleepers]) wake();
  };

  const work = async (): Promise<void> => {
    while (!stopped) {
      const at = now();
      const job = await store.claim(id, at.toISOString(), new Date(at.getTime() + leaseMs).toISOString()).catch((err: unknown) => {
        logger.error({ err }, 'claiming an assessment failed');
        return null;
      });
      if (!job) {
        await sleep(options.pollMs ?? 1000);
        continue;
      }
      await store.markRunning(job.id);
      let observations: Observation[] = [];
      try {
        observations = await probe(job.domain);
      } catch (err) {
        logger.error({ err, assessment: job.id }, 'assessment probes failed');
      }
      await store.finish(job.id, id, statusOf(observations), observations, now().toISOString());
    }
  };
  const loops = Array.from({ length: Math.max(1, options.concurrency ?? 2) }, work);
  return {
    kick: wakeAll,
    async stop() {
      stopped = true;
      wakeAll();
      await Promise.allSettled(loops);
    },
  };
}
