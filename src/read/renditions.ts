/**
 * Pages rendered once for the answers they were made from: the read model hands out the same
 * Answer object for as long as it keeps an answer (until the catalog changes, or a moment for
 * trust and status), so a page whose answers are all the very objects it was last rendered from
 * is that same page. Bounded: the pages of the most recently viewed keys only.
 */
import { LRUCache } from 'lru-cache';
import type { Answer } from '../read/answer.js';
import type { TextBody } from './text-body.js';

/** Pages kept, and the bytes they may hold together. */
const MAX_PAGES = 2_000;
const MAX_BYTES = 64 * 1024 * 1024;

interface Rendered {
  readonly from: readonly Answer<unknown>[];
  readonly page: TextBody;
}

export interface PageMemo {
  /** The page of `key` rendered from exactly `answers`, or `render`'s, kept for the next time. */
  page(key: string, answers: readonly Answer<unknown>[], render: () => TextBody): TextBody;
}

export function createPageMemo(): PageMemo {
  const pages = new LRUCache<string, Rendered>({ max: MAX_PAGES, maxSize: MAX_BYTES, sizeCalculation: (r) => r.page.bytes.length + 1 });
  return {
    page(id, answers, render) {
      const kept = pages.get(id);
      if (kept && kept.from.length === answers.length && kept.from.every((answer, i) => answer === answers[i])) return kept.page;
      const page = render();
      pages.set(id, { from: answers, page });
      return page;
    },
  };
}
