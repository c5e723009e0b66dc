/**
 * Typo tolerance (ranking.ts: TYPOS, MATCH_STEPS): which indexed words a mistyped query word
 * stands for. Every engine asks this with its own vocabulary (the words its index holds) and
 * turns the answer into its own match expression, so all of them match the same words.
 */
import { TYPOS } from './ranking.js';

/** A query word and the indexed words it also matches as a typo (none when it is exact only). */
export interface WordMatch {
  /** Matched as a prefix, as every word is. */
  readonly word: string;
  /** Whole indexed words within the word's allowed edits, closest first, then in code-unit order. */
  readonly typos: readonly string[];
}

const TYPO_WORD = /^[a-z0-9]+$/;

/** The edits a word may carry: 0 below TYPOS.oneEdit letters or for a word not of ASCII letters and digits. */
export function editsAllowed(word: string): number {
  if (!TYPO_WORD.test(word)) return 0;
  return word.length >= TYPOS.twoEdits ? 2 : word.length >= TYPOS.oneEdit ? 1 : 0;
}

/**
 * The optimal-string-alignment distance between `a` and `b` (adjacent transpositions count one
 * edit), or `limit + 1` as soon as it must exceed `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const width = b.length + 1;
  let before = new Int32Array(width);
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let j = 0; j < width; j += 1) previous[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    current[0] = i;
    let best = i;
    for (let j = 1; j < width; j += 1) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        d = Math.min(d, (before[j - 2] as number) + 1);
      }
      current[j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    [before, previous, current] = [previous, current, before];
  }
  const distance = previous[b.length] as number;
  return distance > limit ? limit + 1 : distance;
}

/**
 * The indexed words `word` matches as a typo: words of ASCII letters and digits in `vocabulary`
 * (every engine holds those alike) within its allowed edits that it does not already match as a
 * prefix, the closest TYPOS.maxTerms (ties in code-unit order).
 */
export function typosOf(vocabulary: Iterable<string>, word: string): string[] {
  const limit = editsAllowed(word);
  if (limit === 0) return [];
  const found: Array<{ term: string; distance: number }> = [];
  for (const term of vocabulary) {
    if (Math.abs(term.length - word.length) > limit || term.startsWith(word) || !TYPO_WORD.test(term)) continue;
    const distance = editDistance(word, term, limit);
    if (distance <= limit) found.push({ term, distance });
  }
  found.sort((x, y) => x.distance - y.distance || (x.term < y.term ? -1 : x.term > y.term ? 1 : 0));
  return found.slice(0, TYPOS.maxTerms).map((f) => f.term);
}

/**
 * Whether a query's words may have typos at all (checked before any vocabulary is read): all of
 * them ASCII letters and digits (so every engine splits them alike), one long enough.
 */
export function mayHaveTypos(words: readonly string[]): boolean {
  return words.every((word) => TYPO_WORD.test(word)) && words.some((word) => editsAllowed(word) > 0);
}

/** Each word with its typos from `vocabulary`; null when no word has one (the typo step matches nothing new). */
export function typoMatches(vocabulary: Iterable<string>, words: readonly string[]): WordMatch[] | null {
  if (!mayHaveTypos(words)) return null;
  const terms = [...vocabulary];
  const matches = words.map((word) => ({ word, typos: typosOf(terms, word) }));
  return matches.some((m) => m.typos.length > 0) ? matches : null;
}
