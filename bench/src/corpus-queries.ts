/**
 * Search queries taken from the generated corpus: words banded by document frequency (broad,
 * common, mid, rare), word pairs that occur together in one document, and typed prefixes.
 */
import type { Rng } from './prng.js';
import type { ToolTemplate } from './corpus-sources.js';

const KINDS = ['broad', 'common', 'mid', 'rare', 'pair', 'prefix'] as const;
export type QueryKind = (typeof KINDS)[number];

export interface Query {
  readonly q: string;
  readonly kind: QueryKind;
  /** Documents (servers, or tool uses) holding the word, or the rarer word of a pair. */
  readonly df: number;
}

const STOPWORDS = new Set(
  ('the and for with from that this your you are via using use into through can all any its their our more other will which also '
    + 'has have not but was were been these those such than then them they what when where who how about allows provides enables '
    + 'based across over like get set new one two etc our own each only just well within without between per both while')
    .split(/\s+/),
);

function tokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((word) => !STOPWORDS.has(word) && word.length <= 20);
}

/** Document frequencies of words, plus a sample of documents' words for pairs. */
export class WordCounter {
  readonly df = new Map<string, number>();
  readonly samples: string[][] = [];
  private documents = 0;

  /** Counts each word of `text` once; `weight` documents at once (a tool used by several servers). */
  addDocument(text: string, weight = 1): void {
    const words = [...new Set(tokens(text))];
    for (const word of words) this.df.set(word, (this.df.get(word) ?? 0) + weight);
    if (this.documents % 37 === 0 && words.length >= 2 && this.samples.length < 5000) this.samples.push(words);
    this.documents += 1;
  }
}

interface Bands {
  readonly broad: string[];
  readonly common: string[];
  readonly mid: string[];
  readonly rare: string[];
}

function bandsOf(counter: WordCounter, total: number): Bands {
  const sorted = [...counter.df].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const rareMax = Math.max(5, Math.floor(total * 0.0005));
  const within = (min: number, max: number): string[] => sorted.filter(([, df]) => df >= min && df <= max).map(([word]) => word);
  return {
    broad: within(Math.floor(total * 0.3) + 1, Number.MAX_SAFE_INTEGER),
    common: within(Math.ceil(total * 0.02), Math.floor(total * 0.3)),
    mid: within(rareMax + 1, Math.ceil(total * 0.02) - 1),
    rare: within(1, rareMax),
  };
}

type Maker = () => Query | null;

function take(rng: Rng, count: number, make: Maker, into: Map<string, Query>): void {
  for (let made = 0, attempts = 0; made < count && attempts < count * 20; attempts += 1) {
    const query = make();
    if (query === null || into.has(query.q)) continue;
    into.set(query.q, query);
    made += 1;
  }
}

function fromBand(rng: Rng, counter: WordCounter, band: readonly string[], kind: QueryKind): Maker {
  return () => {
    if (band.length === 0) return null;
    const word = rng.pick(band);
    return { q: word, kind, df: counter.df.get(word) ?? 0 };
  };
}

/** Two words of one sampled document, at least one of them not common. */
function pairs(rng: Rng, counter: WordCounter, common: ReadonlySet<string>): Maker {
  return () => {
    if (counter.samples.length === 0) return null;
    const words = rng.pick(counter.samples);
    const first = rng.pick(words);
    const second = rng.pick(words);
    if (first === second || (common.has(first) && common.has(second))) return null;
    return { q: `${first} ${second}`, kind: 'pair', df: Math.min(counter.df.get(first) ?? 0, counter.df.get(second) ?? 0) };
  };
}

/** The first three to five letters of a common word, as typed by someone still typing. */
function prefixes(rng: Rng, counter: WordCounter, common: readonly string[]): Maker {
  return () => {
    if (common.length === 0) return null;
    const word = rng.pick(common);
    if (word.length < 5) return null;
    return { q: word.slice(0, rng.int(3, Math.min(5, word.length - 1))), kind: 'prefix', df: counter.df.get(word) ?? 0 };
  };
}

function mix(rng: Rng, counter: WordCounter, total: number, shares: Readonly<Record<QueryKind, number>>, count: number): Query[] {
  const bands = bandsOf(counter, total);
  const common = new Set([...bands.broad, ...bands.common]);
  const makers: Record<QueryKind, Maker> = {
    broad: fromBand(rng, counter, bands.broad.length > 0 ? bands.broad : bands.common.slice(0, 5), 'broad'),
    common: fromBand(rng, counter, bands.common, 'common'),
    mid: fromBand(rng, counter, bands.mid, 'mid'),
    rare: fromBand(rng, counter, bands.rare, 'rare'),
    pair: pairs(rng, counter, common),
    prefix: prefixes(rng, counter, bands.common),
  };
  const out = new Map<string, Query>();
  for (const kind of KINDS) take(rng, Math.round(count * shares[kind]), makers[kind], out);
  // Interleave deterministically so a rotation meets every kind early.
  const all = [...out.values()];
  for (let i = all.length - 1; i > 0; i -= 1) {
    const j = rng.int(0, i);
    const [a, b] = [all[i], all[j]];
    if (a !== undefined && b !== undefined) [all[i], all[j]] = [b, a];
  }
  return all;
}

/** About 2000 server queries from the servers' titles and descriptions. */
export function pickServerQueries(rng: Rng, counter: WordCounter, servers: number): Query[] {
  return mix(rng, counter, servers, { broad: 0.02, common: 0.25, mid: 0.25, rare: 0.2, pair: 0.2, prefix: 0.08 }, 2000);
}

/** About 1000 tool queries from the tools' names and descriptions, weighted by how often each tool is used. */
export function pickToolQueries(rng: Rng, uses: ReadonlyMap<ToolTemplate, number>, tools: number): Query[] {
  const counter = new WordCounter();
  for (const [tool, count] of uses) counter.addDocument(`${tool.name.replace(/[_\-.]+|(?<=[a-z])(?=[A-Z])/g, ' ')} ${tool.description}`, count);
  return mix(rng, counter, tools, { broad: 0.02, common: 0.28, mid: 0.25, rare: 0.2, pair: 0.25, prefix: 0 }, 1000);
}
