/**
 * Typo tolerance (ranking.ts: TYPOS, MATCH_STEPS): which indexed words a mistyped query word
 * stands for. Every engine asks this with its own vocabulary (the words its index holds) and
 * turns the answer into its own match expression, so all of them match the same words.
 */
import { TYPOS } from './ranking.js';

/**
 * A query word as the matching strategy matches it (ranking.ts: MATCHING_STRATEGY): as a prefix,
 * its stem and synonyms as prefixes, or (a word no indexed word starts with) the indexed words it is a typo of.
 */
export interface WordMatch {
  /** Matched as a prefix, as every word is. */
  readonly word: string;
  /** Matched as a prefix too (words.ts: stemOf); null for none. */
  readonly stem: string | null;
  /** Matched as prefixes too (words.ts: synonymsOf); absent for none. */
  readonly synonyms?: readonly string[];
  /** Whole indexed words within the word's allowed edits, closest first, then in code-unit order. */
  readonly typos: readonly string[];
}

/** One way a query word matches: a term, as a prefix or whole. */
export interface Alternative {
  readonly term: string;
  readonly prefix: boolean;
}

/**
 * A word's alternatives in the order every engine writes them (its phrases, in bm25's order):
 * its stem in place of the word where it has one (the stem's prefix matches every form the
 * word's does: ranking.ts TYPED_WEIGHT), its synonyms, its typos.
 */
export function alternativesOf({ word, stem, synonyms = [], typos }: WordMatch): Alternative[] {
  return [
    { term: stem ?? word, prefix: true },
    ...synonyms.map((term) => ({ term, prefix: true })),
    ...typos.map((term) => ({ term, prefix: false })),
  ];
}

/**
 * The words of a search that have a stem, as typed (each a prefix phrase, in the words' order):
 * what relevance adds TYPED_WEIGHT of (ranking.ts). Empty when no word has a stem.
 */
export function typedForms(words: readonly WordMatch[]): string[] {
  return words.filter((word) => word.stem !== null).map((word) => word.word);
}

const TYPO_WORD = /^[a-z0-9]+$/;

/** A word without its diacritics (electrónico → electronico), as the indexes fold them. */
export function typoForm(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '');
}

/** The edits a word may carry: 0 below TYPOS.oneEdit letters or for a word not of ASCII letters and digits (diacritics aside). */
export function editsAllowed(word: string): number {
  word = typoForm(word);
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
export function typosOf(vocabulary: Iterable<string>, typed: string): string[] {
  const word = typoForm(typed);
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
