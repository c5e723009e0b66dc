/**
 * Renditions made from several answers at once (a web page from a dozen of them), kept by the
 * read model beside the answers they come from: the read model hands out the same Answer object
 * for as long as it keeps an answer (until the catalog changes, or `recentMs` for trust and
 * status), so a rendition whose answers are all the very objects it was last made from is that
 * same rendition. One answer's own renditions are `Answer.rendition`. Bounded: the most recently
 * used keys only, and a budget of bytes.
 */
import { LRUCache } from 'lru-cache';
import type { Answer } from './answer.js';

/** Renditions kept, and the bytes they may hold together. */
const MAX_RENDITIONS = 2_000;
const MAX_BYTES = 64 * 1024 * 1024;

interface Made<R> {
  readonly from: readonly Answer<unknown>[];
  readonly rendition: R;
}

export interface Renditions<R> {
  /** The rendition of `key` made from exactly `answers`, or `render`'s, kept for the next time. */
  of(key: string, answers: readonly Answer<unknown>[], render: () => R): R;
}

/** Renditions of type `R`, each weighing `bytesOf` against the budget. */
export function createRenditions<R>(bytesOf: (rendition: R) => number): Renditions<R> {
  const kept = new LRUCache<string, Made<R>>({ max: MAX_RENDITIONS, maxSize: MAX_BYTES, sizeCalculation: (made) => bytesOf(made.rendition) + 1 });
  return {
    of(key, answers, render) {
      const made = kept.get(key);
      if (made && made.from.length === answers.length && made.from.every((answer, i) => answer === answers[i])) return made.rendition;
      const rendition = render();
      kept.set(key, { from: answers, rendition });
      return rendition;
    },
  };
}
