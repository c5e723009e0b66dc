/**
 * Bounds on the read model's work. A gate lets at most `concurrency` pieces run at once and
 * `queued` wait (one more is refused at once: 503 `service_unavailable` with `Retry-After`); a
 * piece whose caller has gone (its signal aborted) leaves the queue and is never started.
 * Shared work runs one computation per distinct key at a time, through a gate: identical
 * requests that arrive while it runs wait for it, so a burst of them costs one computation.
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

/**
 * Reads of the catalog: fewer at once than the database pool's connections, so short reads
 * still find one; a thousand waiting at most (each holds its request meanwhile).
 */
export const READS: GateOptions = { concurrency: 8, queued: 1_000, what: 'reads' };

export interface SharedWork {
  /**
   * `compute`'s result, shared by every caller that asks for `key` while it runs; `signal`: this
   * caller has gone. `compute` is given the computation's own signal (every caller has gone), for the
   * work it waits for in turn.
   */
  run<T>(key: string, compute: (callersGone: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T>;
}

interface Computation {
  readonly result: Promise<unknown>;
  /** Whether every caller has gone (it will not start: a new caller starts a computation of its own). */
  readonly abandoned: boolean;
  /** Joins a caller: the computation is abandoned (before it starts) once every caller with a signal has gone and none came without one. */
  join(signal: AbortSignal | undefined): void;
}

/** Shared work through `gate` (a gate of its own by default, sized for reads). */
export function createSharedWork(gate: Gate = createGate(READS)): SharedWork {
  const running = new Map<string, Computation>();

  const start = (key: string, compute: (callersGone: AbortSignal) => Promise<unknown>): Computation => {
    const callersGone = new AbortController();
    const listening: Array<[AbortSignal, () => void]> = [];
    let present = 0;
    let unsignalled = false;
    const result: Promise<unknown> = (async () => {
      // A microtask later: the first caller joins before the gate looks at the signal.
      await Promise.resolve();
      const release = await gate.enter(unsignalled ? undefined : callersGone.signal);
      try {
        return await compute(callersGone.signal);
      } finally {
        release();
      }
    })().finally(() => {
      if (running.get(key) === computation) running.delete(key);
      for (const [signal, leave] of listening) signal.removeEventListener('abort', leave);
    });
    const computation: Computation = {
      result,
      get abandoned() {
        return callersGone.signal.aborted;
      },
      join(signal) {
        if (!signal) {
          unsignalled = true;
          return;
        }
        const leave = (): void => {
          present -= 1;
          if (present === 0 && !unsignalled) callersGone.abort();
        };
        present += 1;
        if (signal.aborted) return leave();
        signal.addEventListener('abort', leave, { once: true });
        listening.push([signal, leave]);
      },
    };
    return computation;
  };

  return {
    run<T>(key: string, compute: (callersGone: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
      let computation = running.get(key);
      if (!computation || computation.abandoned) running.set(key, (computation = start(key, compute)));
      computation.join(signal);
      // Set above under this key only, by a run of the same T.
      return computation.result as Promise<T>;
    },
  };
}
