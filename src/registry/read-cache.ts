/**
 * In-process caches of read results (search pages, records, categories), keyed by the
 * operation's normalized arguments and dropped whenever the catalog's generation changes.
 * Values are stored already scrubbed of credentials, so the output edge's scrub of them is
 * free (scrubValue skips what it produced).
 */
import { LRUCache } from 'lru-cache';
import { scrubValue } from '../catalog/secrets.js';

/** Looks `key` up, or computes, scrubs and keeps the value. */
export type CachedRead<T> = (key: string, compute: () => Promise<T>) => Promise<T>;

/**
 * Makes typed caches that all follow one generation (null: caching off). `maxWeight` bounds a
 * cache by what it holds, not by its count of keys: a record weighs 1, a page 1 + its items, so
 * a cache of 100-item pages cannot grow a hundred times larger than one of records.
 */
export type CacheFactory = <T extends object>(maxWeight?: number) => CachedRead<T>;

/** What a cached value weighs: one, plus one per item of a page. */
export function weightOf(value: object): number {
  const items: unknown = 'items' in value ? value.items : undefined;
  return 1 + (Array.isArray(items) ? items.length : 0);
}

export function createCacheFactory(generation: (() => Promise<string>) | null): CacheFactory {
  return <T extends object>(maxWeight = 5_000): CachedRead<T> => {
    if (!generation) return (_key, compute) => compute();
    const cache = new LRUCache<string, T>({ maxSize: maxWeight, sizeCalculation: weightOf });
    let current = '';
    return async (key, compute) => {
      const now = await generation();
      if (now !== current) {
        cache.clear();
        current = now;
      }
      const hit = cache.get(key);
      if (hit) return hit;
      const value = scrubValue(await compute());
      // Keep it only if nothing changed while it was computed.
      if ((await generation()) === now) cache.set(key, value);
      return value;
    };
  };
}

/**
 * The catalog's generation as a cache of catalog reads sees it: reading it drops everything in
 * `cache` when it has moved. Null when the store cannot tell (the database is failing): the
 * caller then neither answers from the cache nor keeps anything, so every request goes the
 * whole way and fails, or not, as it would without the cache.
 */
export function followGeneration(cache: { clear(): void }, generation: () => Promise<string>): () => Promise<string | null> {
  let current = '';
  return async () => {
    let now: string;
    try {
      now = await generation();
    } catch {
      return null;
    }
    if (now !== current) {
      cache.clear();
      current = now;
    }
    return now;
  };
}

/** Bytes of kept responses at most, REST and MCP together (room for a long rotation of distinct reads of both). */
const KEPT_RESPONSE_BYTES = 64 * 2 ** 20;

/** One kind of kept response in a KeptResponses budget: its keys are its own. */
export interface KeptSpace<T> {
  /** The generation to look up and keep in; null when the store cannot tell (then neither). */
  generation(): Promise<string | null>;
  get(key: string): T | undefined;
  set(key: string, value: T): void;
}

/**
 * Serialized responses of catalog reads (REST bodies, MCP call results), kept per catalog
 * generation in one LRU bounded by their bytes together: whichever surface is busy gets the
 * room, and the process holds one budget, not one per surface.
 */
export interface KeptResponses {
  /** A space of values whose size is `bytesOf(value)` plus their key's length. */
  space<T>(name: string, bytesOf: (value: T) => number): KeptSpace<T>;
}

export function createKeptResponses(generationOf: () => Promise<string>, maxBytes = KEPT_RESPONSE_BYTES): KeptResponses {
  const kept = new LRUCache<string, { readonly value: unknown; readonly bytes: number }>({
    maxSize: maxBytes,
    sizeCalculation: (entry, key) => Math.max(1, key.length + entry.bytes),
  });
  const generation = followGeneration(kept, generationOf);
  const names = new Set<string>();
  return {
    space<T>(name: string, bytesOf: (value: T) => number): KeptSpace<T> {
      if (names.has(name) || name.includes('\n')) throw new Error(`kept response space "${name}" is taken or not a plain name`);
      names.add(name);
      const prefix = `${name}\n`;
      return {
        generation,
        get: (key) => kept.get(prefix + key)?.value as T | undefined,
        set: (key, value) => void kept.set(prefix + key, { value, bytes: bytesOf(value) }),
      };
    },
  };
}
