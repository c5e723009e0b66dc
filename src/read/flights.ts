/**
 * How the read model computes what it does not hold: one computation per distinct answer at a
 * time (identical requests that arrive while it runs wait for it: single flight), and at most
 * `concurrency` computations at once, the rest waiting in a queue of bounded length. The queue,
 * not the database pool, absorbs a burst of distinct cold reads, so the pool stays free for the
 * reads each answer needs and nothing waits for a connection behind a backlog.
 */
import { AppError } from '../errors.js';

export interface FlightOptions {
  /** Computations running at once (below the database pool's size, so short reads still find a connection). */
  readonly concurrency: number;
  /** Computations waiting at most; one more is refused (503, `service_unavailable`). */
  readonly queued: number;
}

export const DEFAULT_FLIGHTS: FlightOptions = { concurrency: 8, queued: 10_000 };

export interface Flights {
  /** `compute`'s result, shared by every caller that asks for `key` while it runs. */
  run<T>(key: string, compute: () => Promise<T>): Promise<T>;
}

export function createFlights({ concurrency, queued }: FlightOptions = DEFAULT_FLIGHTS): Flights {
  const inFlight = new Map<string, Promise<unknown>>();
  const waiting: Array<() => void> = [];
  let running = 0;

  const slot = async (): Promise<void> => {
    if (running < concurrency) {
      running += 1;
      return;
    }
    if (waiting.length >= queued) throw new AppError('service_unavailable', 'Too many searches are waiting; try again shortly.', [], { 'Retry-After': '1' });
    // The slot is handed over by the computation that ends (running stays counted).
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  return {
    run<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const current = inFlight.get(key);
      // Set below under this key only, by a run of the same T.
      if (current) return current as Promise<T>;
      const flight = (async () => {
        await slot();
        try {
          return await compute();
        } finally {
          release();
        }
      })().finally(() => inFlight.delete(key));
      inFlight.set(key, flight);
      return flight;
    },
  };
}
