/**
 * SIGINT and SIGTERM for a long CLI run (ingest, sync): the first asks the run to stop, so it rolls back
 * and removes its temporary files itself; another, a second or more later, ends the process at
 * once (what was left in the temporary folder goes with the process's exit: src/ingest/spool.ts).
 */
import { constants } from 'node:os';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type StopSignal = (typeof SIGNALS)[number];

/** A run's link to the stop signals, until `release`. */
export interface StopSignals {
  /** Aborts, with `StoppedBy` as its reason, at the first signal. */
  readonly signal: AbortSignal;
  /** The signal that stopped `error`'s run, when `error` is that stop; else null. */
  stoppedBy(error: unknown): StopSignal | null;
  release(): void;
}

/** The reason a run's signal aborts with. */
class StoppedBy extends Error {
  override name = 'StoppedBy';
  constructor(readonly by: StopSignal) {
    super(`stopped by ${by}`);
  }
}

/** The conventional exit status of a process ended by `signal` (128 + its number). */
export function exitCodeOf(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}

/** Ctrl-C reaches the `sextant` launcher and its run alike, and the launcher passes it on: a repeat this soon is the same stop. */
const REPEAT_MS = 1000;

export function stopOnSignals(): StopSignals {
  const controller = new AbortController();
  let first = 0;
  const handlers = SIGNALS.map((name) => {
    const handler = (): void => {
      if (!controller.signal.aborted) {
        first = Date.now();
        controller.abort(new StoppedBy(name));
      } else if (Date.now() - first >= REPEAT_MS) {
        process.exit(exitCodeOf(name));
      }
    };
    process.on(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    stoppedBy: (error) => (error instanceof StoppedBy && error === controller.signal.reason ? error.by : null),
    release() {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}
