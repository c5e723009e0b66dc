/**
 * Answers kept per catalog content generation, bounded by their bytes together. Everything is
 * dropped when the generation moves; an answer computed while it moved is not kept.
 */
import { LRUCache } from 'lru-cache';
import type { Answer } from './answer.js';

/**
 * Bytes of kept answers at most: room for a long rotation of distinct reads, REST and MCP
 * renditions together, and of registry API pages (about 45 KB each, held compressed).
 */
const KEPT_BYTES = 128 * 2 ** 20;

/**
 * What an answer is charged when it enters: its JSON three times (the JSON, and MCP's result
 * that holds the page again as structured content and as text), so renditions made later fit;
 * an answer held compressed, which holds no rendition, what it holds.
 */
const charge = (answer: Answer<unknown>, key: string): number => key.length + (answer.compressed ? answer.bytes : 3 * answer.body.size);

export interface AnswerCache {
  /** The answer kept under `key` at `generation`. */
  get(generation: string, key: string): Answer<unknown> | undefined;
  set(generation: string, key: string, answer: Answer<unknown>): void;
}

export function createAnswerCache(maxBytes = KEPT_BYTES): AnswerCache {
  const kept = new LRUCache<string, Answer<unknown>>({ maxSize: maxBytes, sizeCalculation: (answer, key) => Math.max(1, charge(answer, key)) });
  let current = '';
  const follow = (generation: string): void => {
    if (generation === current) return;
    kept.clear();
    current = generation;
  };
  return {
    get(generation, key) {
      follow(generation);
      return kept.get(key);
    },
    set(generation, key, answer) {
      follow(generation);
      kept.set(key, answer);
    },
  };
}
