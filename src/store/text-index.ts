/**
 * An in-memory inverted index that matches and scores the way the SQLite catalog's FTS5 tables
 * do: the unicode61 tokenizer with `remove_diacritics 2`, every query word as a prefix, all words
 * required, and FTS5's bm25 with column weights (same formula, same order of operations), so a
 * search answered from memory ranks exactly as the SQL one would.
 *
 * It is built from the FTS5 tables' own content (search-index.ts) and replaced, never updated.
 * Postings are delta- and varint-encoded in one buffer (about 2.5 bytes a posting).
 */

/** bm25's constants, as FTS5 fixes them. */
const K1 = 1.2;
const B = 0.75;

/** While building, a weighted frequency at or above this is kept exactly apart. */
const FREQ_CAP = 255;

/** How unicode61 treats one non-ASCII character (learned from SQLite itself: search-index.ts). */
export interface CharacterClass {
  /** Starts a token (a letter, number or private-use character to SQLite's tables). */
  readonly starts: boolean;
  /** Continues a token (those, and the diacritics it folds away). */
  readonly continues: boolean;
  /** What it becomes in a token: lower case, without diacritics ('' for a diacritic). */
  readonly folded: string;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[a-z0-9]+/g;
const NON_ASCII = /[^\x00-\x7f]/gu;
/** Each ASCII character as a token character ('' for a separator): its lower case. */
const ASCII_FOLD: readonly string[] = Array.from({ length: 128 }, (_, code) => {
  const char = String.fromCharCode(code);
  return /[A-Za-z0-9]/.test(char) ? char.toLowerCase() : '';
});

/**
 * FTS5's unicode61 tokenizer (remove_diacritics 2): ASCII letters and digits by rule, every other
 * character by a table filled in from SQLite, so that token boundaries and folding are SQLite's
 * own (its Unicode tables differ from JavaScript's, e.g. for some emoji).
 */
export class Unicode61 {
  /** By code point. */
  private readonly table = new Map<number, CharacterClass>();

  /** The distinct non-ASCII characters of `texts` not classified yet. */
  unknown(texts: Iterable<string | null>): string[] {
    const out = new Set<string>();
    for (const text of texts) {
      if (!text || ASCII_ONLY.test(text)) continue;
      for (const [char] of text.matchAll(NON_ASCII)) if (!this.table.has(char.codePointAt(0) as number)) out.add(char);
    }
    return [...out];
  }

  learn(classes: ReadonlyMap<string, CharacterClass>): void {
    for (const [char, cls] of classes) this.table.set(char.codePointAt(0) as number, cls);
  }

  /** The tokens of `text` as FTS5 stores them; null if it holds a character not classified yet. */
  tokenize(text: string): string[] | null {
    if (ASCII_ONLY.test(text)) return text.toLowerCase().match(ASCII_WORD) ?? [];
    const out: string[] = [];
    let token = '';
    let within = false;
    for (let i = 0; i < text.length; ) {
      const code = text.codePointAt(i) as number;
      i += code > 0xffff ? 2 : 1;
      let starts: boolean;
      let continues: boolean;
      let folded: string;
      if (code < 128) {
        folded = ASCII_FOLD[code] as string;
        starts = continues = folded !== '';
      } else {
        const cls = this.table.get(code);
        if (!cls) return null;
        ({ starts, continues, folded } = cls);
      }
      if (within && continues) {
        token += folded;
        continue;
      }
      if (within) {
        out.push(token);
        within = false;
      }
      if (starts) {
        within = true;
        token = folded;
      }
    }
    if (within) out.push(token);
    return out;
  }
}

/** Log entries per slab: 64 MiB, above malloc's largest mmap threshold, so a freed slab goes back to the system. */
const SLAB = 1 << 24;

/** Bytes of `value` as an unsigned LEB128 varint. */
function varintLength(value: number): number {
  let bytes = 1;
  for (let rest = value >>> 7; rest > 0; rest >>>= 7) bytes += 1;
  return bytes;
}

function writeVarint(into: Uint8Array, at: number, value: number): number {
  let rest = value;
  while (rest >= 0x80) {
    into[at++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  into[at++] = rest;
  return at;
}

/**
 * Builds a TextIndex one document at a time, in the order of their rowids. Each document's
 * (term, weighted frequency) pairs go to an append-only log in large slabs; `finish` lays every
 * term's postings out once, delta- and varint-encoded, in one buffer. Nothing is grown and copied
 * per term, which would leave the heap fragmented after a build.
 */
export class TextIndexBuilder {
  private readonly terms = new Map<string, number>();
  /** Per doc, its pairs: `term * 256 + min(frequency, 255)`; frequencies from 255 up in `overflow`. */
  private slabs: Uint32Array[] = [];
  private logged = 0;
  private docStart = new Float64Array(1024);
  private readonly overflow = new Map<string, number>();
  private docLengths = new Uint32Array(1024);
  private rowids = new Float64Array(1024);
  private docs = 0;
  private tokens = 0;
  /** Per term: the last document it was seen in, and its weighted frequency there. */
  private lastDoc = new Int32Array(1024).fill(-1);
  private frequency = new Float64Array(1024);
  /** The current document's terms. */
  private readonly docTerms: number[] = [];

  constructor(
    private readonly weights: readonly number[],
    private readonly tokenizer: Unicode61,
  ) {}

  /** Adds the next document: its rowid and one text per weighted column. */
  add(rowid: number, columns: ReadonlyArray<string | null>): void {
    const doc = this.docs;
    if (doc + 1 >= this.rowids.length) {
      this.rowids = grow(this.rowids, doc * 2);
      this.docLengths = grow(this.docLengths, doc * 2);
      this.docStart = grow(this.docStart, doc * 2);
    }
    const docTerms = this.docTerms;
    docTerms.length = 0;
    let length = 0;
    for (let column = 0; column < columns.length; column += 1) {
      const text = columns[column];
      if (!text) continue;
      const weight = this.weights[column] ?? 1;
      const tokens = this.tokenizer.tokenize(text);
      if (tokens === null) throw new Error('a character of the text was not classified before it was indexed');
      for (const token of tokens) {
        let term = this.terms.get(token);
        if (term === undefined) {
          term = this.terms.size;
          if (term >= 0xffffff) throw new Error('the text index holds at most 16,777,215 distinct words');
          this.terms.set(token, term);
          if (term === this.lastDoc.length) {
            this.lastDoc = grow(this.lastDoc, term * 2);
            this.lastDoc.fill(-1, term);
            this.frequency = grow(this.frequency, term * 2);
          }
        }
        if (this.lastDoc[term] === doc) {
          this.frequency[term] = (this.frequency[term] as number) + weight;
        } else {
          this.lastDoc[term] = doc;
          this.frequency[term] = weight;
          docTerms.push(term);
        }
      }
      length += tokens.length;
    }
    this.docStart[doc] = this.logged;
    for (const term of docTerms) {
      const freq = this.frequency[term] as number;
      const slab = Math.floor(this.logged / SLAB);
      if (slab === this.slabs.length) this.slabs.push(new Uint32Array(SLAB));
      (this.slabs[slab] as Uint32Array)[this.logged % SLAB] = term * 256 + Math.min(freq, FREQ_CAP);
      if (freq >= FREQ_CAP) this.overflow.set(`${term}:${doc}`, freq);
      this.logged += 1;
    }
    this.docStart[doc + 1] = this.logged;
    this.rowids[doc] = rowid;
    this.docLengths[doc] = length;
    this.tokens += length;
    this.docs += 1;
  }

  get size(): number {
    return this.docs;
  }

  /** The finished index; the builder must not be used afterwards. */
  finish(): TextIndex {
    const vocabulary = [...this.terms.keys()];
    const order = vocabulary.map((_, i) => i).sort((a, b) => compare(vocabulary[a] as string, vocabulary[b] as string));
    const renumbered = new Int32Array(order.length);
    order.forEach((old, position) => (renumbered[old] = position));
    // Two passes over the log: the bytes of each term's postings, then the postings themselves.
    const bytesOf = new Float64Array(order.length);
    const previous = new Int32Array(order.length);
    const visit = (each: (term: number, doc: number, freq: number) => void): void => {
      previous.fill(-1);
      for (let doc = 0; doc < this.docs; doc += 1) {
        for (let i = this.docStart[doc] as number; i < (this.docStart[doc + 1] as number); i += 1) {
          const entry = (this.slabs[Math.floor(i / SLAB)] as Uint32Array)[i % SLAB] as number;
          const old = Math.floor(entry / 256);
          const capped = entry % 256;
          each(renumbered[old] as number, doc, capped === FREQ_CAP ? (this.overflow.get(`${old}:${doc}`) as number) : capped);
        }
      }
    };
    visit((term, doc, freq) => {
      bytesOf[term] = (bytesOf[term] as number) + varintLength(doc - (previous[term] as number)) + varintLength(freq);
      previous[term] = doc;
    });
    const start = new Float64Array(order.length + 1);
    for (let term = 0; term < order.length; term += 1) start[term + 1] = (start[term] as number) + (bytesOf[term] as number);
    const postings = new Uint8Array(start[order.length] as number);
    const cursor = start.slice(0, order.length);
    visit((term, doc, freq) => {
      let at = writeVarint(postings, cursor[term] as number, doc - (previous[term] as number));
      at = writeVarint(postings, at, freq);
      cursor[term] = at;
      previous[term] = doc;
    });
    this.slabs = [];
    return new TextIndex(
      this.tokenizer,
      order.map((old) => vocabulary[old] as string),
      postings,
      start,
      this.docLengths.slice(0, this.docs),
      Uint32Array.from(this.rowids.subarray(0, this.docs)),
      this.tokens,
    );
  }
}

/** What a query matched: documents holding every word, each with its bm25 sum (higher is better). */
export interface TextMatches {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
  /** Where `doc` is in `docs`, or -1. All of a match is valid only until the next one. */
  position(doc: number): number;
}

export class TextIndex {
  private readonly avgdl: number;
  // Scratch space for queries, reused (queries run one at a time on the event loop).
  private readonly score: Float64Array;
  /** Weighted frequencies are sums of small whole numbers: exact in a float. */
  private readonly freq: Float32Array;
  private readonly count: Uint8Array;
  private readonly stamp: Int32Array;
  private readonly touched: Int32Array;
  private serial = 0;
  /** The last match's documents and scores (views of these are returned: no allocation per query). */
  private readonly matched: Int32Array;
  private readonly matchedScores: Float64Array;

  constructor(
    private readonly tokenizer: Unicode61,
    /** Sorted by code unit. */
    private readonly vocabulary: readonly string[],
    /** Each term's postings, postings[start[t]…start[t + 1]): varints of (doc − previous doc, weighted frequency). */
    private readonly postings: Uint8Array,
    private readonly start: Float64Array,
    private readonly docLengths: Uint32Array,
    /** The FTS5 rowid of each document. */
    readonly rowids: Uint32Array,
    tokens: number,
  ) {
    const docs = rowids.length;
    this.avgdl = tokens / docs;
    this.score = new Float64Array(docs);
    this.freq = new Float32Array(docs);
    this.count = new Uint8Array(docs);
    this.stamp = new Int32Array(docs);
    this.touched = new Int32Array(docs);
    this.matched = new Int32Array(docs);
    this.matchedScores = new Float64Array(docs);
  }

  get size(): number {
    return this.rowids.length;
  }

  /** Bytes held: postings, per-document arrays and query scratch (typed arrays only). */
  get bytes(): number {
    const arrays = [this.postings, this.start, this.docLengths, this.rowids, this.score, this.freq, this.count, this.stamp, this.touched, this.matched, this.matchedScores];
    return arrays.reduce((sum, array) => sum + array.byteLength, 0);
  }

  /**
   * The documents matching every word as a prefix, with bm25's sum for each, as FTS5 computes
   * `bm25()` for `"w1"* "w2"*` (its value is minus this sum). Null when a word is not exactly one
   * token to the tokenizer (SQLite treats it as a phrase) or holds a character no indexed text
   * had: the caller then asks SQLite.
   */
  match(words: readonly string[], keep: (doc: number) => boolean): TextMatches | null {
    const terms: string[] = [];
    for (const word of words) {
      const tokens = this.tokenizer.tokenize(word);
      if (tokens?.length !== 1) return null;
      terms.push(tokens[0] as string);
    }
    if (terms.length === 0 || terms.length > 255) return null;
    const { score, freq, count, stamp, touched } = this;
    const docs = this.size;
    let alive = this.matched.subarray(0, 0);
    for (const [i, term] of terms.entries()) {
      this.serial += 1;
      const serial = this.serial;
      let hits = 0;
      for (let t = this.lowerBound(term); t < this.vocabulary.length && (this.vocabulary[t] as string).startsWith(term); t += 1) {
        const postings = this.postings;
        const end = this.start[t + 1] as number;
        let doc = -1;
        for (let p = this.start[t] as number; p < end; ) {
          let byte = postings[p++] as number;
          let delta = byte & 0x7f;
          for (let shift = 7; byte & 0x80; shift += 7) {
            byte = postings[p++] as number;
            delta |= (byte & 0x7f) << shift;
          }
          doc += delta;
          byte = postings[p++] as number;
          let f = byte & 0x7f;
          for (let shift = 7; byte & 0x80; shift += 7) {
            byte = postings[p++] as number;
            f |= (byte & 0x7f) << shift;
          }
          if (stamp[doc] !== serial) {
            stamp[doc] = serial;
            freq[doc] = 0;
            touched[hits] = doc;
            hits += 1;
          }
          freq[doc] = (freq[doc] as number) + f;
        }
      }
      let idf = Math.log((docs - hits + 0.5) / (hits + 0.5));
      if (idf <= 0.0) idf = 1e-6;
      if (i === 0) {
        alive = this.matched.subarray(0, hits);
        alive.set(touched.subarray(0, hits));
      }
      for (let h = 0; h < hits; h += 1) {
        const doc = touched[h] as number;
        if (count[doc] !== i) continue;
        const f = freq[doc] as number;
        const part = idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * (this.docLengths[doc] as number)) / this.avgdl)));
        score[doc] = i === 0 ? 0.0 + part : (score[doc] as number) + part;
        count[doc] = i + 1;
      }
    }
    // The survivors are packed into the front of `alive`.
    const needed = terms.length;
    let kept = 0;
    for (let a = 0; a < alive.length; a += 1) {
      const doc = alive[a] as number;
      if (count[doc] === needed && keep(doc)) alive[kept++] = doc;
      count[doc] = 0;
    }
    const docsOut = alive.subarray(0, kept);
    const scores = this.matchedScores.subarray(0, kept);
    this.serial += 1;
    const serial = this.serial;
    // Each survivor's position in `docsOut`, valid where `stamp` holds this match's serial, goes
    // in `touched`: the terms are done with it.
    const positions = touched;
    for (let k = 0; k < kept; k += 1) {
      const doc = docsOut[k] as number;
      scores[k] = score[doc] as number;
      positions[doc] = k;
      stamp[doc] = serial;
    }
    const position = (doc: number): number => (this.serial === serial && stamp[doc] === serial ? (positions[doc] as number) : -1);
    return { docs: docsOut, scores, position };
  }

  /** The first vocabulary position whose term is not below `term`. */
  private lowerBound(term: string): number {
    let lo = 0;
    let hi = this.vocabulary.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.vocabulary[mid] as string) < term) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function grow<T extends Int32Array | Uint32Array | Float64Array>(array: T, size: number): T {
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(4, size));
  bigger.set(array);
  return bigger;
}
