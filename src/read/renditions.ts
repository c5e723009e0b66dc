/**
 * Renditions made from several answers of the read model at once (a web page from a dozen of
 * them), kept beside the answers: a rendition is kept under its key and a stamp of what its
 * answers depend on (the catalog's content generation, and for one that reads trust or status
 * the monitor checks this process recorded, for at most the time those answers serve), so it is
 * served while the answers it read would be the same, with one lookup. One answer's own
 * renditions are `Answer.rendition`. Bounded: the most recently used only, and a budget of bytes.
 */
import { LRUCache } from 'lru-cache';
import type { Flights } from './flights.js';

/** Renditions kept per set, and the bytes they may hold together. */
const MAX_RENDITIONS = 5_000;
const MAX_BYTES = 48 * 1024 * 1024;

export interface Stamp {
  /** What the answers depend on now; null when it cannot be read (the database does not answer). */
  readonly now: string | null;
  /** The last stamp read: while the stamp cannot be read, what was kept at it is served. */
  readonly last: string | null;
}

export interface RenditionDeps<R> {
  readonly bytesOf: (rendition: R) => number;
  /** How long a rendition serves (ms): null, while its stamp holds; 0, not at all (each is made afresh). */
  readonly ttlMs: number | null;
  readonly stamp: () => Promise<Stamp>;
  /** How a rendition not kept is made: identical requests meanwhile share it, under a bound on renderings at once. */
  readonly flights: Flights;
}

export interface Renditions<R> {
  /** The rendition kept under `key` at the current stamp, or `render`'s, kept if the stamp held while it was made; `signal`: the caller has gone. */
  of(key: string, render: (callersGone?: AbortSignal) => Promise<R>, signal?: AbortSignal): Promise<R>;
}

export function createRenditions<R extends object>({ bytesOf, ttlMs, stamp, flights }: RenditionDeps<R>): Renditions<R> {
  const kept = new LRUCache<string, R>({
    max: MAX_RENDITIONS,
    maxSize: MAX_BYTES,
    sizeCalculation: (rendition, key) => bytesOf(rendition) + key.length,
    ...(ttlMs ? { ttl: ttlMs } : {}),
  });
  return {
    async of(key, render, signal) {
      if (ttlMs === 0) return render();
      const { now, last } = await stamp();
      const at = now ?? last;
      const stamped = `${at}\n${key}`;
      const hit = at === null ? undefined : kept.get(stamped);
      if (hit !== undefined) return hit;
      return flights.run(stamped, async (callersGone) => {
        const rendition = await render(callersGone);
        if (now !== null && (await stamp()).now === now) kept.set(stamped, rendition);
        return rendition;
      }, signal);
    },
  };
}
