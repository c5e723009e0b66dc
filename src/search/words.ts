/**
 * A query's words as the matching strategy takes them (ranking.ts: MATCHING_STRATEGY): stop
 * words, stems, and text in scripts written without spaces.
 */
import { MAX_SYNONYMS, MIN_STEMMED, STEM_RULES, STOP_WORDS, SYNONYMS } from './ranking.js';

const STEMMABLE = /^[a-z]+$/;

/** The stem of `word` by STEM_RULES (a prefix of it), or null when it has none. */
export function stemOf(word: string): string | null {
  if (word.length < MIN_STEMMED || !STEMMABLE.test(word)) return null;
  for (const rule of STEM_RULES) {
    if (!word.endsWith(rule.suffix) || word.length < (rule.minLength ?? 0)) continue;
    if (rule.unless?.some((ending) => word.endsWith(ending))) continue;
    const base = word.slice(0, word.length - rule.suffix.length);
    if (rule.notAfter?.includes(base.at(-1) ?? '')) continue;
    let stem = base + rule.by;
    if (stem.length < rule.minStem) return null;
    if (rule.undouble && stem.length > 3 && stem.at(-1) === stem.at(-2) && !'lsz'.includes(stem.at(-1) ?? '')) stem = stem.slice(0, -1);
    return stem === word ? null : stem;
  }
  return null;
}

/**
 * The words `word` also stands for (ranking.ts: SYNONYMS), looked up by the word, then by its
 * stem; none that the word or its stem already starts with or is the start of.
 */
export function synonymsOf(word: string, stem: string | null): string[] {
  const listed = Object.hasOwn(SYNONYMS, word) ? SYNONYMS[word] : stem !== null && Object.hasOwn(SYNONYMS, stem) ? SYNONYMS[stem] : undefined;
  const forms = stem === null ? [word] : [word, stem];
  const overlaps = (synonym: string): boolean => forms.some((form) => form.startsWith(synonym) || synonym.startsWith(form));
  return (listed ?? []).filter((synonym) => !overlaps(synonym)).slice(0, MAX_SYNONYMS);
}

/** Whether a word is an English stop word (STOP_WORDS). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** The query's words less stop words, or all of them when nothing else is left. */
export function meaningfulWords(words: readonly string[]): string[] {
  const meaningful = words.filter((word) => !isStopWord(word));
  return meaningful.length > 0 ? meaningful : [...words];
}

/** The words of a search a result holds, from its mask (bit i: word i); every word for a null mask (a name match). */
export function matchedTermsOf(words: readonly string[], mask: number | null): string[] {
  return mask === null ? [...words] : words.filter((_, i) => (mask & (2 ** i)) !== 0);
}
