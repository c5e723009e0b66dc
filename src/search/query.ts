/**
 * A search's text as the engines take it: the normalized query (for the name tiers) and its
 * meaningful words (ranking.ts: MATCHING_STRATEGY). The services parse `q` with this once; every
 * engine reads the result.
 */
import { cjkParts, hasCjk, pairsOf } from '../catalog/search-text.js';
import { MAX_TERMS } from './ranking.js';
import { meaningfulWords } from './words.js';

/** A query as the engines see it: its words (each matched as a prefix), and the normalized text. */
export interface ParsedQuery {
  readonly text: string;
  /** null when the text has no searchable word (e.g. only punctuation). */
  readonly terms: readonly string[] | null;
}

/**
 * The query's meaningful words, each matched as a prefix: stop words left out, runs of CJK
 * characters as their pairs (as the catalog holds them: src/catalog/search-text.ts), the first
 * MAX_TERMS distinct ones. Returns null for an absent or blank query.
 */
export function parseQuery(q: string | undefined): ParsedQuery | null {
  // Control characters are never part of a name or a word: they read as spaces.
  const text = (q ?? '').normalize('NFKC').replace(/\p{Cc}/gu, ' ').trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === '') return null;
  const words = (text.match(/[\p{L}\p{N}]+/gu) ?? []).flatMap((word) =>
    hasCjk(word) ? cjkParts(word).flatMap((part) => (part.cjk ? pairsOf(part.text) : [part.text])) : [word],
  );
  const terms = [...new Set(meaningfulWords(words))].slice(0, MAX_TERMS);
  return { text, terms: terms.length > 0 ? terms : null };
}

/** A reverse-DNS namespace (`io.github.someone`), maybe followed by a name under it (`/weather`). */
const NAMESPACE_SHAPED = /^[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)+(?:\/\S*)?$/u;

/**
 * The query text as a name prefix (ranking.ts: MATCH_STEPS, "name prefix"): a namespace, or a
 * name under one, matches the servers whose names start with it; null for any other text.
 */
export function namePrefixOf(text: string | null): string | null {
  return text !== null && NAMESPACE_SHAPED.test(text) ? text : null;
}
