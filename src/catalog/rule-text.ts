/**
 * The text the tool rules read (tool-rules.ts), with what several rules look for worked out once:
 * which of the words the patterns need it holds (so a pattern runs only where it can match), and
 * its encoded runs (base64, hex).
 */
import { Buffer } from 'node:buffer';

/**
 * What a pattern needs: groups of words such that every match holds a word of each group (in any
 * case, maybe inside a longer word). A pattern runs only on texts that hold them: most texts hold
 * none, and one search finds every needed word. A group must cover every alternative of its
 * pattern, or the pattern misses matches.
 */
type Group = readonly string[];
export type Needs = readonly Group[];
export interface Pattern {
  readonly needs: Needs;
  readonly regex: RegExp;
}
/** The groups holding each word some pattern needs: a text is searched for all the words in one pass. */
const GROUPS_WITH = new Map<string, Set<Group>>();
export function pattern(needs: Needs, source: string, flags = 'i'): Pattern {
  for (const group of needs) for (const word of group.map((w) => w.toLowerCase())) GROUPS_WITH.set(word, (GROUPS_WITH.get(word) ?? new Set()).add(group));
  return { needs, regex: new RegExp(source, flags) };
}

/** A text as the rules read it, with what several rules look for worked out once, when first asked. */
export class RuleText {
  #groups: ReadonlySet<Group> | undefined;
  #encoded: readonly EncodedRun[] | undefined;
  constructor(readonly text: string) {}

  /** False where the pattern cannot match: the text holds no word of one of its groups. */
  mayMatch({ needs }: Pattern): boolean {
    const groups = this.#neededGroups();
    for (const group of needs) if (!groups.has(group)) return false;
    return true;
  }

  /** True where no pattern can match (most texts): it holds no word any pattern needs. */
  get quiet(): boolean {
    return this.#neededGroups().size === 0;
  }

  /** The text's encoded runs (base64, hex). */
  get encoded(): readonly EncodedRun[] {
    return (this.#encoded ??= encodedRuns(this.text));
  }

  #neededGroups(): ReadonlySet<Group> {
    return (this.#groups ??= groupsIn(this.text));
  }
}

/** Built on first use, once every pattern has added its words. */
let needed: ReturnType<typeof neededWords> | undefined;

/** The groups with a word in the text. */
function groupsIn(text: string): Set<Group> {
  needed ??= neededWords();
  const { regex, groupsAt, marks } = needed;
  const found = new Set<Group>();
  for (const mark of marks) if (text.includes(mark)) for (const group of groupsAt.get(mark) ?? []) found.add(group);
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    for (const group of groupsAt.get(m[0].toLowerCase()) ?? []) found.add(group);
    regex.lastIndex = m.index + 1;
  }
  return found;
}

/**
 * One search for every needed word, with the case folding of the patterns. It finds the longest
 * word at each place (overlaps included), which stands for the needed words it begins with.
 * Single marks (`<`, `@`) are looked for on their own: as alternatives they slow the search.
 */
function neededWords() {
  const isMark = (word: string): boolean => word.length === 1 && word.toLowerCase() === word.toUpperCase();
  const groupsOf = (word: string): Group[] => [...(GROUPS_WITH.get(word) ?? [])];
  const marks = [...GROUPS_WITH.keys()].filter(isMark);
  const words = [...GROUPS_WITH.keys()].filter((word) => !isMark(word)).sort((a, b) => b.length - a.length);
  const regex = new RegExp(words.map((word) => word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'gi');
  const groupsAt = new Map(marks.map((mark) => [mark, groupsOf(mark)]));
  for (const word of words) groupsAt.set(word, [...new Set(words.filter((other) => word.startsWith(other)).flatMap(groupsOf))]);
  return { regex, marks, groupsAt };
}

/** A run starts only where the one before it does not (the same runs, without retrying inside each). */
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{40,}={0,2}/g;
const HEX_RUN = /\b(?:0x)?[0-9a-fA-F]{40,}\b|(?:\\x[0-9a-fA-F]{2}){16,}/g;
/** Encoded blocks this long whose content is not text are still worth a look. */
const BLOB = { base64: 200, hex: 128 };

/** Mostly printable ASCII with letters and spaces: words, not a hash, a key or an image. */
function isReadable(bytes: Uint8Array): boolean {
  if (bytes.length < 24) return false;
  let printable = 0;
  let letters = 0;
  let spaces = 0;
  for (const b of bytes) {
    if ((b >= 0x20 && b < 0x7f) || b === 9 || b === 10 || b === 13) printable += 1;
    if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)) letters += 1;
    if (b === 0x20) spaces += 1;
  }
  return printable >= 0.95 * bytes.length && letters >= 0.6 * bytes.length && spaces >= 3;
}

const hexBytes = (run: string): Uint8Array => Buffer.from(run.replace(/^0x|\\x/g, ''), 'hex');

export interface EncodedRun {
  readonly index: number;
  readonly length: number;
  readonly readable: boolean;
  readonly blob: boolean;
}

/** Each encoded run, hex ones first. Few texts hold one, so a cheap look comes first. */
function encodedRuns(text: string): readonly EncodedRun[] {
  if (text.length < 40) return [];
  const base64 = hasBase64Run(text);
  // Hex digits are base64 letters too: a hex run not written as `\x` escapes is inside a base64 run.
  return base64 || text.includes('\\') ? runsIn(text, base64) : [];
}

/** The encoded runs of a text, hex ones first. */
function runsIn(text: string, hasBase64: boolean): EncodedRun[] {
  const runs: EncodedRun[] = [];
  for (const m of allMatches(HEX_RUN, text)) runs.push(hexRun(m));
  if (hasBase64) for (const m of allMatches(BASE64_RUN, text)) runs.push(base64Run(m));
  return runs;
}

/** A hex run, with whether it decodes to readable text and whether it is long enough to count as a blob. */
function hexRun(m: RegExpExecArray): EncodedRun {
  return { index: m.index, length: m[0].length, readable: isReadable(hexBytes(m[0])), blob: m[0].length >= BLOB.hex };
}

/** The same for a base64 run, which counts as a blob only if it mixes lower case, upper case and digits. */
function base64Run(m: RegExpExecArray): EncodedRun {
  const varied = /[a-z]/.test(m[0]) && /[A-Z]/.test(m[0]) && /[0-9]/.test(m[0]);
  return { index: m.index, length: m[0].length, readable: isReadable(Buffer.from(m[0], 'base64')), blob: varied && m[0].length >= BLOB.base64 };
}

/** The letters of BASE64_RUN, by character code. */
const BASE64_LETTER = Uint8Array.from({ length: 128 }, (_, code) => (/[A-Za-z0-9+/_-]/.test(String.fromCharCode(code)) ? 1 : 0));

/**
 * Whether the text has as long a run of base64 letters as BASE64_RUN needs, reading few characters:
 * each window of that length is read from its end back, and one that fails moves past the
 * character that failed it, so no character is read twice.
 */
function hasBase64Run(text: string): boolean {
  const min = 40;
  for (let start = 0; start + min <= text.length; ) {
    let i = start + min - 1;
    while (i >= start && BASE64_LETTER[text.charCodeAt(i)] === 1) i -= 1;
    if (i < start) return true;
    start = i + 1;
  }
  return false;
}

/** Every match of a global pattern that cannot match empty, without the copy of it matchAll makes. */
function allMatches(regex: RegExp, text: string): RegExpExecArray[] {
  const found: RegExpExecArray[] = [];
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) found.push(m);
  return found;
}
