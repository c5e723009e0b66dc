/**
 * The one cache of the read model: answers and the pages made of them, bounded by their bytes
 * together. Everything is dropped when the catalog's content generation moves; an entry that
 * also reads monitor checks or the clock carries a short time to live of its own.
 */
import { LRUCache } from 'lru-cache';
import type { Answer } from './answer.js';

/** A page made from answers (HTML, or a static file): its media type and bytes. */
export interface TextBody {
  readonly type: string;
  readonly bytes: Buffer;
}

/** What the cache holds: an answer's JSON, or a page. */
export type CacheEntry = Answer<unknown> | TextBody;

/**
 * MiB of kept entries at most, unless told (ANSWER_CACHE_MB): room for a long rotation of
 * distinct reads and pages, and registry API pages.
 */
export const ANSWER_CACHE_MB = 128;

const sizeOf = (entry: CacheEntry, key: string): number => key.length + ('json' in entry ? entry.json.length : entry.bytes.length);

export interface AnswerCache {
  /** The entry kept under `key` at `generation`. */
  get(generation: string, key: string): CacheEntry | undefined;
  /** Keeps `entry` for the generation, or for `ttlMs` at most within it. */
  set(generation: string, key: string, entry: CacheEntry, ttlMs?: number): void;
  /** Lookups that found an entry and that did not, since start, and the bytes held now (metrics). */
  stats(): { hits: number; misses: number; bytes: number };
}

export function createAnswerCache(maxBytes = ANSWER_CACHE_MB * 2 ** 20): AnswerCache {
  const entries = new LRUCache<string, CacheEntry>({ maxSize: maxBytes, sizeCalculation: (entry, key) => Math.max(1, sizeOf(entry, key)) });
  let current = '';
  let hits = 0;
  let misses = 0;
  const follow = (generation: string): void => {
    if (generation === current) return;
    entries.clear();
    current = generation;
  };
  return {
    get(generation, key) {
      follow(generation);
      const entry = entries.get(key);
      if (entry === undefined) misses += 1;
      else hits += 1;
      return entry;
    },
    set(generation, key, entry, ttlMs) {
      follow(generation);
      entries.set(key, entry, ttlMs ? { ttl: ttlMs } : {});
    },
    stats: () => ({ hits, misses, bytes: entries.calculatedSize }),
  };
}
