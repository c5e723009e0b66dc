/**
 * A search's text as the engines take it: the normalized query (for the name tiers) and its words
 * (each matched as a prefix). The services parse `q` with this once; every engine reads the result.
 */

/** Words of a query beyond this many are ignored. */
const MAX_TERMS = 12;

/** A query as the engines see it: its words (each matched as a prefix), and the normalized text. */
export interface ParsedQuery {
  readonly text: string;
  /** null when the text has no searchable word (e.g. only punctuation). */
  readonly terms: readonly string[] | null;
}

/** Every word of the query must match, each as a prefix. Returns null for an absent or blank query. */
export function parseQuery(q: string | undefined): ParsedQuery | null {
  // Control characters are never part of a name or a word: they read as spaces.
  const text = (q ?? '').normalize('NFKC').replace(/\p{Cc}/gu, ' ').trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === '') return null;
  const terms = (text.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
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

