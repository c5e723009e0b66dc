/**
 * The match steps of ranking.ts (MATCH_STEPS), in order, for any engine: a name-prefix search
 * when the query reads as a namespace or a name, then the words by the matching strategy
 * (MATCHING_STRATEGY): each word with its stem and synonyms, a word no indexed word starts with
 * (nor its stem or a synonym) by its typos or not at all. An engine that cannot answer a step
 * (null) declines the whole search.
 */
import { editsAllowed, typosOf, type WordMatch } from './typos.js';
import { stemOf, synonymsOf } from './words.js';

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

/**
 * The words the search keeps: each with its stem and the synonyms an indexed word starts with,
 * or with its typos when no indexed word starts with it, its stem or a synonym.
 */
async function wordMatches(terms: readonly string[], run: Pick<MatchStepRunner<never>, 'holds' | 'vocabulary'>): Promise<WordMatch[] | null> {
  const forms = terms.map((word) => {
    const stem = stemOf(word);
    return { word, stem, synonyms: synonymsOf(word, stem) };
  });
  // A word's stem is a prefix of it: whatever starts with the word starts with the stem.
  const asked = forms.flatMap(({ word, stem, synonyms }) => [stem ?? word, ...synonyms]);
  const answers = await run.holds(asked);
  if (answers === null) return null;
  let at = 0;
  const found = forms.map(({ synonyms }) => {
    const [self, ...others] = answers.slice(at, (at += 1 + synonyms.length));
    return { self: self === true, synonyms: synonyms.filter((_, i) => others[i]) };
  });
  const absent = forms.filter((form, i) => !found[i]?.self && found[i]?.synonyms.length === 0 && editsAllowed(form.word) > 0);
  const vocabulary = absent.length > 0 ? [...(await run.vocabulary())] : [];
  const words: WordMatch[] = [];
  forms.forEach(({ word, stem }, i) => {
    const { self, synonyms } = found[i] ?? { self: false, synonyms: [] };
    if (self || synonyms.length > 0) {
      words.push({ word, stem: self ? stem : null, synonyms, typos: [] });
      return;
    }
    const typos = editsAllowed(word) > 0 ? typosOf(vocabulary, word) : [];
    if (typos.length > 0) words.push({ word, stem: null, typos });
  });
  return words;
}
