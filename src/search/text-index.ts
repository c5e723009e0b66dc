/**
 * An in-memory inverted index that matches and scores the way the SQLite catalog's FTS5 tables
 * do: the unicode61 tokenizer with `remove_diacritics 2`, every query word as a prefix, all words
 * required, and FTS5's bm25 with column weights (same formula, same order of operations), so a
 * search answered from memory ranks exactly as the SQL one would (ranking.ts).
 *
 * It is built from the FTS5 tables' own content (text-index-builder.ts) and replaced, never
 * updated. Postings are delta- and varint-encoded in one buffer (about 2.5 bytes a posting).
 */
import { BM25 } from './ranking.js';
import type { Unicode61 } from './unicode61.js';

const K1 = BM25.k1;
const B = BM25.b;

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
