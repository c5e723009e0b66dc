/**
 * The match steps of ranking.ts (MATCH_STEPS), in order, for any engine: a name-prefix search
 * when the query reads as a namespace or a name, then the words by the matching strategy
 * (MATCHING_STRATEGY): each word with its stem, a word no indexed word starts with by its typos
 * or not at all. An engine that cannot answer a step (null) declines the whole search.
 */
import { editsAllowed, typosOf, type WordMatch } from './typos.js';
import { stemOf } from './words.js';

/** What an engine runs for each step; results carry the number of all their matches. */
export interface MatchStepRunner<P extends { readonly total: number }> {
  /** Matches of names starting with `prefix`; absent where the search has no such step (tools). */
  readonly byName?: (prefix: string) => Promise<P | null>;
  /** Documents holding at least one of the words (none: no match), those holding all of them first. */
  readonly byWords: (words: readonly WordMatch[]) => Promise<P | null>;
  /** For each prefix, whether an indexed word starts with it; null where the engine declines. */
  readonly holds: (prefixes: readonly string[]) => Promise<readonly boolean[] | null>;
  /** The indexed words typos are found among. */
  readonly vocabulary: () => Promise<Iterable<string>>;
}

export async function inSteps<P extends { readonly total: number }>(terms: readonly string[], namePrefix: string | null, run: MatchStepRunner<P>): Promise<P | null> {
  if (namePrefix !== null && run.byName) {
    const named = await run.byName(namePrefix);
    if (named === null || named.total > 0) return named;
  }
  const words = await wordMatches(terms, run);
  return words === null ? null : run.byWords(words);
}

/** The words the search keeps, each with its stem, or with its typos when no indexed word starts with it. */
async function wordMatches(terms: readonly string[], run: Pick<MatchStepRunner<never>, 'holds' | 'vocabulary'>): Promise<WordMatch[] | null> {
  const forms = terms.map((word) => ({ word, stem: stemOf(word) }));
  // A word's stem is a prefix of it: whatever starts with the word starts with the stem.
  const held = await run.holds(forms.map(({ word, stem }) => stem ?? word));
  if (held === null) return null;
  const absent = forms.filter((_, i) => !held[i] && editsAllowed(forms[i]?.word ?? '') > 0);
  const vocabulary = absent.length > 0 ? [...(await run.vocabulary())] : [];
  const words: WordMatch[] = [];
  forms.forEach(({ word, stem }, i) => {
    if (held[i]) {
      words.push({ word, stem, typos: [] });
      return;
    }
    const typos = editsAllowed(word) > 0 ? typosOf(vocabulary, word) : [];
    if (typos.length > 0) words.push({ word, stem: null, typos });
  });
  return words;
}
