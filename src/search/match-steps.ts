/**
 * The match steps of ranking.ts (MATCH_STEPS), in order, for any engine: a name-prefix search
 * when the query reads as a namespace or a name, then the words, then (when nothing matched)
 * the words with their typos. The first step that matches anything answers; an engine that
 * cannot answer a step (null) declines the whole search.
 */
import { mayHaveTypos, typoMatches, type WordMatch } from './typos.js';

/** What an engine runs for each step; results carry the number of all their matches. */
export interface MatchStepRunner<P extends { readonly total: number }> {
  /** Matches of names starting with `prefix`; absent where the search has no such step (tools). */
  readonly byName?: (prefix: string) => Promise<P | null>;
  readonly byWords: (words: readonly WordMatch[]) => Promise<P | null>;
  /** The indexed words typos are found among. */
  readonly vocabulary: () => Promise<Iterable<string>>;
}

export async function inSteps<P extends { readonly total: number }>(terms: readonly string[], namePrefix: string | null, run: MatchStepRunner<P>): Promise<P | null> {
  if (namePrefix !== null && run.byName) {
    const named = await run.byName(namePrefix);
    if (named === null || named.total > 0) return named;
  }
  const exact = await run.byWords(terms.map((word) => ({ word, typos: [] })));
  if (exact === null || exact.total > 0 || !mayHaveTypos(terms)) return exact;
  const typed = typoMatches(await run.vocabulary(), terms);
  return typed === null ? exact : run.byWords(typed);
}

