/**
 * The registry API's `search`: every name containing the text, any case, as the official
 * registry's ILIKE does, without a table scan per request. Each name is held once, in the list's
 * bytewise order, in one lower-case string, with the names each run of three characters occurs
 * in; a text is looked for only in the names of its rarest run (a shorter one scans the string),
 * from the page's cursor on, until a page's worth is found. The list itself stays in SQL.
 */

export interface NameIndex {
  /** How many names it holds. */
  readonly size: number;
  /**
   * Up to `count` names containing `text` (any case), in order, starting at `from`: names after
   * it, and `from` itself too when `inclusive` (versions of it may follow the cursor).
   */
  matching(text: string, from: { readonly name: string; readonly inclusive: boolean } | null, count: number): string[];
  /** Whether it holds this name. */
  has(name: string): boolean;
}

/** Separates the names in the searched text: no name has one, so no match spans two names. */
const SEPARATOR = '\n';

/**
 * Runs of three characters are counted into this many buckets, by a hash: two runs that share a
 * bucket only make more candidates, each checked against the whole text.
 */
const BUCKET_BITS = 18;

/** The bucket of the run of three characters of `text` at `at`. */
function bucketOf(text: string, at: number): number {
  const run = (text.charCodeAt(at) * 961 + text.charCodeAt(at + 1) * 31 + text.charCodeAt(at + 2)) | 0;
  return Math.imul(run, 0x9e3779b1) >>> (32 - BUCKET_BITS);
}

/**
 * For each bucket, the names (by position in `lower`, ascending) with a run in it: `names` holds
 * them bucket after bucket, bucket b's from `starts[b]` to `starts[b + 1]`.
 */
function postingsOf(lower: readonly string[]): { readonly starts: Int32Array; readonly names: Int32Array } {
  const buckets = 1 << BUCKET_BITS;
  const starts = new Int32Array(buckets + 1);
  const last = new Int32Array(buckets).fill(-1);
  /** Calls `each` once for every bucket a name has a run in. */
  const forBuckets = (each: (bucket: number, name: number) => void): void => {
    last.fill(-1);
    lower.forEach((name, i) => {
      for (let at = 0; at + 3 <= name.length; at++) {
        const bucket = bucketOf(name, at);
        if (last[bucket] === i) continue;
        last[bucket] = i;
        each(bucket, i);
      }
    });
  };
  forBuckets((bucket) => {
    starts[bucket + 1] = (starts[bucket + 1] as number) + 1;
  });
  for (let b = 0; b < buckets; b++) starts[b + 1] = (starts[b + 1] as number) + (starts[b] as number);
  const names = new Int32Array(starts[buckets] as number);
  const next = starts.slice(0, buckets);
  forBuckets((bucket, name) => {
    names[next[bucket] as number] = name;
    next[bucket] = (next[bucket] as number) + 1;
  });
  return { starts, names };
}

/** The names sorted, and what is searched: their lower-case forms, joined, with where each starts. */
interface Names {
  readonly names: readonly string[];
  readonly lower: readonly string[];
  readonly text: string;
  readonly starts: Int32Array;
  readonly postings: ReturnType<typeof postingsOf>;
}

/** The index of the first name not before `name` (after it, when not `inclusive`). */
function firstFrom(names: readonly string[], name: string, inclusive: boolean): number {
  let low = 0;
  let high = names.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const candidate = names[mid] as string;
    if (candidate < name || (!inclusive && candidate === name)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The name a position of the text falls in. */
function nameAt(starts: Int32Array, count: number, position: number): number {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if ((starts[mid] as number) <= position) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** Up to `count` names from the `first` holding `needle` (three characters or more): those of its rarest run's bucket, checked whole. */
function bucketMatches({ names, lower, postings }: Names, needle: string, first: number, count: number): string[] {
  let [start, end] = [0, Number.MAX_SAFE_INTEGER];
  for (let at = 0; at + 3 <= needle.length; at++) {
    const bucket = bucketOf(needle, at);
    const [bucketStart, bucketEnd] = [postings.starts[bucket] as number, postings.starts[bucket + 1] as number];
    if (bucketEnd - bucketStart < end - start) [start, end] = [bucketStart, bucketEnd];
  }
  let high = end;
  while (start < high) {
    const mid = (start + high) >>> 1;
    if ((postings.names[mid] as number) < first) start = mid + 1;
    else high = mid;
  }
  const found: string[] = [];
  for (let i = start; i < end && found.length < count; i++) {
    const name = postings.names[i] as number;
    if ((lower[name] as string).includes(needle)) found.push(names[name] as string);
  }
  return found;
}

/** Up to `count` names from the `first` holding `needle`, by a substring search of the joined text. */
function textMatches({ names, text, starts }: Names, needle: string, first: number, count: number): string[] {
  const found: string[] = [];
  let position = starts[first] as number;
  while (found.length < count) {
    const at = text.indexOf(needle, position);
    if (at < 0) break;
    const index = nameAt(starts, names.length, at);
    found.push(names[index] as string);
    position = starts[index + 1] as number;
  }
  return found;
}

export function buildNameIndex(given: Iterable<string>): NameIndex {
  const names = [...new Set(given)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const starts = new Int32Array(names.length + 1);
  let length = 0;
  names.forEach((name, i) => {
    starts[i] = length;
    length += name.length + SEPARATOR.length;
  });
  starts[names.length] = length;
  const lower = names.map((name) => name.toLowerCase());
  const held: Names = { names, lower, text: lower.join(SEPARATOR) + SEPARATOR, starts, postings: postingsOf(lower) };
  return {
    size: names.length,
    has: (name) => names[firstFrom(names, name, true)] === name,
    matching(search, from, count) {
      const needle = search.toLowerCase();
      if (needle === '' || needle.includes(SEPARATOR)) return [];
      const first = from ? firstFrom(names, from.name, from.inclusive) : 0;
      return needle.length >= 3 ? bucketMatches(held, needle, first, count) : textMatches(held, needle, first, count);
    },
  };
}
