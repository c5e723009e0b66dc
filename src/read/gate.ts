/**
 * A bound on expensive work: at most `concurrency` pieces run at once, at most `queued` wait
 * (one more is refused at once: 503 `service_unavailable` with `Retry-After`), and a piece whose
 * caller has gone (its signal aborted) leaves the queue and is never started.
 */
import { AppError } from '../errors.js';

export interface GateOptions {
  /** Pieces of work running at once. */
  readonly concurrency: number;
  /** Pieces waiting at most. */
  readonly queued: number;
  /** What waits, as the refusal names it (`searches`, `comparisons`). */
  readonly what: string;
}

export interface Gate {
  /**
   * Resolves with the release of a slot once one is free; rejects when the queue is full, or
   * when `signal` aborts first (the slot is never taken).
   */
  enter(signal?: AbortSignal): Promise<() => void>;
}

interface Waiter {
  readonly admit: () => void;
  readonly signal: AbortSignal | undefined;
}

/** The refusal of a full queue. */
export function busy(what: string): AppError {
  return new AppError('service_unavailable', `Too many ${what} are waiting; try again in a second.`, [], { 'Retry-After': '1' });
}

/** What a request whose client has gone is answered (nobody reads it: it is never computed). */
export function clientGone(): AppError {
  return new AppError('service_unavailable', 'The client closed the connection before its answer was made.', [], { 'Retry-After': '1' });
}

export function createGate({ concurrency, queued, what }: GateOptions): Gate {
  const waiting: Waiter[] = [];
  let running = 0;
  const release = (): void => {
    // The slot passes to the next waiter whose caller is still there (running stays counted).
    for (let next = waiting.shift(); next; next = waiting.shift()) {
      if (!next.signal?.aborted) return next.admit();
    }
    running -= 1;
  };
  const releaseOnce = (): (() => void) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };
  return {
    enter(signal) {
      if (signal?.aborted) return Promise.reject(clientGone());
      if (running < concurrency) {
        running += 1;
        return Promise.resolve(releaseOnce());
      }
      if (waiting.length >= queued) return Promise.reject(busy(what));
      return new Promise((resolve, reject) => {
        const onAbort = (): void => {
          const at = waiting.indexOf(waiter);
          if (at >= 0) waiting.splice(at, 1);
          reject(clientGone());
        };
        const waiter: Waiter = {
          signal,
          admit: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(releaseOnce());
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(waiter);
      });
    },
  };
}
