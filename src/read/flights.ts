/**
 * How the read model computes what it does not hold: one computation per distinct answer at a
 * time (identical requests that arrive while it runs wait for it: single flight), and at most
 * `concurrency` computations at once, the rest waiting in a queue of bounded length (gate.ts).
 * The queue, not the database pool, absorbs a burst of distinct cold reads, so the pool stays
 * free for the reads each answer needs and nothing waits for a connection behind a backlog.
 * A computation whose callers have all gone (their signals aborted) before it started never starts.
 */
import { createGate, type Gate, type GateOptions } from './gate.js';

/**
 * The read model's reads: fewer at once than the database pool's connections, so short reads
 * still find one; a thousand waiting at most (each holds its request meanwhile).
 */
export const READS: GateOptions = { concurrency: 8, queued: 1_000, what: 'reads' };

export interface Flights {
  /**
   * `compute`'s result, shared by every caller that asks for `key` while it runs; `signal`: this
   * caller has gone. `compute` is given the flight's own signal (every caller has gone), for the
   * work it waits for in turn.
   */
  run<T>(key: string, compute: (callersGone: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T>;
}

interface Flight {
  readonly result: Promise<unknown>;
  /** Whether every caller has gone (it will not start: a new caller starts a flight of its own). */
  readonly abandoned: boolean;
  /** Joins a caller: the flight is abandoned (before it starts) once every caller with a signal has gone and none came without one. */
  join(signal: AbortSignal | undefined): void;
}

/** Flights through `gate` (a gate of their own by default, sized for reads). */
export function createFlights(gate: Gate = createGate(READS)): Flights {
  const inFlight = new Map<string, Flight>();

  const start = (key: string, compute: (callersGone: AbortSignal) => Promise<unknown>): Flight => {
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
      if (inFlight.get(key) === flight) inFlight.delete(key);
      for (const [signal, leave] of listening) signal.removeEventListener('abort', leave);
    });
    const flight: Flight = {
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
    return flight;
  };

  return {
    run<T>(key: string, compute: (callersGone: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
      let flight = inFlight.get(key);
      if (!flight || flight.abandoned) inFlight.set(key, (flight = start(key, compute)));
      flight.join(signal);
      // Set above under this key only, by a run of the same T.
      return flight.result as Promise<T>;
    },
  };
}
