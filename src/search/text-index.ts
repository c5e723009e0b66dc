/**
 * An in-memory inverted index that matches and scores the way the SQLite catalog's FTS5 tables
 * do: the unicode61 tokenizer with `remove_diacritics 2`, every query word as a prefix, any word
 * matching (ranking.ts: MATCHING_STRATEGY), and FTS5's bm25 with column weights (same formula,
 * same order of operations), so a search answered from memory ranks exactly as the SQL one would.
 *
 * It is built from the FTS5 tables' own content (text-index-builder.ts) and replaced, never
 * updated. Postings are delta- and varint-encoded in one buffer.
 */
import { BM25, TYPED_WEIGHT } from './ranking.js';
import { alternativesOf, type Alternative, type WordMatch } from './typos.js';
import type { Unicode61 } from './unicode61.js';

const K1 = BM25.k1;
const B = BM25.b;

/**
 * What a query matched: documents holding at least one word, each with its bm25 sum (higher is
 * better) and which words it holds.
 */
export interface TextMatches {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
  /** Bit i: the document holds word i. */
  readonly masks: Uint32Array;
  /** The mask of a document holding every word. */
  readonly full: number;
  /** Where `doc` is in `docs`, or -1. All of a match is valid only until the next one. */
  position(doc: number): number;
}

/** A text index's own data (its query scratch is made anew). */
/** A query word's phrases as tokens: those bm25 sums (its stem or itself, synonyms, typos), and the word as typed where it has a stem. */
interface PhraseGroup {
  readonly phrases: readonly Alternative[];
  readonly typed: string | null;
}

export interface TextIndexParts {
  readonly vocabulary: readonly string[];
  readonly postings: Uint8Array;
  readonly start: Float64Array;
  readonly docLengths: Uint32Array;
  readonly rowids: Uint32Array;
  readonly tokens: number;
}

export class TextIndex {
  private readonly avgdl: number;
  // Scratch space for queries, reused (queries run one at a time on the event loop).
  private readonly score: Float64Array;
  /** Weighted frequencies are sums of small whole numbers: exact in a float. */
  private readonly freq: Float32Array;
  /** Per document, the words it holds in the current match (valid where `matchSerial` holds its serial). */
  private readonly mask: Uint32Array;
  /** Per document, the serial of the match its `score` and `mask` belong to. */
  private readonly matchSerial: Int32Array;
  /** Per document, the serial of the phrase scan its `freq` belongs to, or of the match its position in `touched` belongs to. */
  private readonly scanSerial: Int32Array;
  private readonly touched: Int32Array;
  private serial = 0;
  /**
   * The last match's documents and scores (views of these are returned: no allocation per query).
   * While a match is scored they hold the words as typed (ranking.ts: TYPED_WEIGHT): by document,
   * the bm25 of those a document holds in `matchedScores`, valid where `typedMark` is set; the
   * documents holding any, in `matchedMasks[0…typedCount)`.
   */
  private readonly matched: Int32Array;
  private readonly matchedScores: Float64Array;
  private readonly matchedMasks: Uint32Array;
  /** 1 where a document holds a word as typed in the match being scored; all 0 between matches. */
  private readonly typedMark: Uint8Array;
  private typedCount = 0;

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
    /** Tokens in all documents (bm25's average document length is this over their count). */
    private readonly tokens: number,
  ) {
    const docs = rowids.length;
    this.avgdl = tokens / docs;
    this.score = new Float64Array(docs);
    this.freq = new Float32Array(docs);
    this.mask = new Uint32Array(docs);
    this.matchSerial = new Int32Array(docs);
    this.scanSerial = new Int32Array(docs);
    this.touched = new Int32Array(docs);
    this.matched = new Int32Array(docs);
    this.matchedScores = new Float64Array(docs);
    this.matchedMasks = new Uint32Array(docs);
    this.typedMark = new Uint8Array(docs);
  }

  get size(): number {
    return this.rowids.length;
  }

  /** Bytes held: postings, per-document arrays and query scratch (typed arrays only). */
  get bytes(): number {
    const arrays = [this.postings, this.start, this.docLengths, this.rowids, this.score, this.freq, this.mask, this.matchSerial, this.scanSerial, this.touched, this.matched, this.matchedScores, this.matchedMasks, this.typedMark];
    return arrays.reduce((sum, array) => sum + array.byteLength, 0);
  }

  /** What the index is made of, for a snapshot (index-snapshot.ts): `TextIndex.of` makes it again. */
  parts(): TextIndexParts {
    const { vocabulary, postings, start, docLengths, rowids, tokens } = this;
    return { vocabulary, postings, start, docLengths, rowids, tokens };
  }

  static of(tokenizer: Unicode61, parts: TextIndexParts): TextIndex {
    return new TextIndex(tokenizer, parts.vocabulary, parts.postings, parts.start, parts.docLengths, parts.rowids, parts.tokens);
  }

  /** The indexed words, sorted by code unit (what typos are found among: typos.ts). */
  get terms(): readonly string[] {
    return this.vocabulary;
  }

  /** Whether an indexed word starts with `prefix` (folded as the text was); null when it is not one token. */
  holds(prefix: string): boolean | null {
    const tokens = this.tokenizer.tokenize(prefix);
    if (tokens?.length !== 1) return null;
    const term = tokens[0] as string;
    return (this.vocabulary[this.lowerBound(term)] ?? '').startsWith(term);
  }

  /**
   * The documents holding at least one word, with their relevance, as the SQL engines compute it
   * from FTS5's `bm25()`: that of the expression `("s1"* OR "y1"*) OR ("w2"* OR "t1" OR "t2")`
   * (each word by its stem, or itself, as a prefix, its synonyms as prefixes, its typos: typos.ts;
   * each a phrase of its own, summed in that order), plus TYPED_WEIGHT times that of the stemmed
   * words as typed, `"w1"*` (ranking.ts). Only documents `accepts` takes are returned. Null when a
   * word is not exactly one token to the tokenizer (SQLite treats it as a phrase): the caller then
   * asks SQLite.
   */
  match(words: readonly WordMatch[], accepts: (doc: number) => boolean): TextMatches | null {
    const groups = this.phrasesOf(words);
    if (groups === null || groups.length > 32) return null;
    const found = this.scoreGroups(groups);
    return this.collect(found, accepts, 2 ** groups.length - 1);
  }

  /** Each word's phrases as tokens (typos.ts: alternativesOf), and its form as typed where it has a stem; null when one is not exactly one token. */
  private phrasesOf(words: readonly WordMatch[]): PhraseGroup[] | null {
    const groups: PhraseGroup[] = [];
    const tokenOf = (term: string): string | null => {
      const tokens = this.tokenizer.tokenize(term);
      return tokens?.length === 1 ? (tokens[0] as string) : null;
    };
    for (const word of words) {
      const phrases: Alternative[] = [];
      for (const { term, prefix } of alternativesOf(word)) {
        const token = tokenOf(term);
        if (token === null) return null;
        phrases.push({ term: token, prefix });
      }
      const typed = word.stem === null ? null : tokenOf(word.word);
      // The typed form's words lie inside its stem's (as the stem is a prefix of the word): else SQLite answers.
      if (word.stem !== null && (typed === null || !typed.startsWith(phrases[0]?.term ?? '\u0000'))) return null;
      groups.push({ phrases, typed });
    }
    return groups;
  }

  /**
   * Sums every phrase's bm25 part into `score`, and TYPED_WEIGHT of the typed forms' parts,
   * and its word's bit into `mask`; the matched documents, in `matched[0…found)`.
   */
  private scoreGroups(groups: readonly PhraseGroup[]): number {
    this.serial += 1;
    const query = this.serial;
    let found = 0;
    for (const [i, { phrases, typed }] of groups.entries()) {
      const bit = 2 ** i;
      const [stem, ...others] = phrases;
      if (typed !== null && stem) {
        // The stem's words hold the typed word's (a range inside its range): one pass over them
        // gives the typed phrase first, then, going on, the stem's.
        this.serial += 1;
        const [first, last] = this.rangeOf(typed, true);
        const [outerFirst, outerLast] = this.rangeOf(stem.term, true);
        let hits = this.scan(first, last, this.serial, 0);
        this.addTypedHits(hits);
        hits = this.scan(outerFirst, first, this.serial, hits);
        found = this.addHits(bit, this.scan(last, outerLast, this.serial, hits), query, found);
        for (const phrase of others) found = this.addHits(bit, this.phraseHits(phrase.term, phrase.prefix), query, found);
        continue;
      }
      for (const phrase of phrases) found = this.addHits(bit, this.phraseHits(phrase.term, phrase.prefix), query, found);
    }
    // Each document's typed forms (all of them matched by their stems), added once to what its
    // phrases gave, as the SQL engines add them.
    const { score: sums, matchedScores: typedSums, matchedMasks: typedDocs, typedMark } = this;
    for (let t = 0; t < this.typedCount; t += 1) {
      const doc = typedDocs[t] as number;
      sums[doc] = (sums[doc] as number) + TYPED_WEIGHT * (typedSums[doc] as number);
      typedMark[doc] = 0;
    }
    this.typedCount = 0;
    return found;
  }

  /**
   * Adds a phrase's part of bm25 to its `hits` documents (in `touched`, their frequencies in
   * `freq`) and `bit` to their masks, under match `query`; the count of matched documents after.
   */
  private addHits(bit: number, hits: number, query: number, found: number): number {
    const { score: sums, mask, matchSerial, touched, matched } = this;
    const idf = this.idfOf(hits);
    for (let h = 0; h < hits; h += 1) {
      const doc = touched[h] as number;
      const f = this.freq[doc] as number;
      const part = idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * (this.docLengths[doc] as number)) / this.avgdl)));
      if (matchSerial[doc] !== query) {
        matchSerial[doc] = query;
        sums[doc] = 0.0 + part;
        mask[doc] = bit;
        matched[found++] = doc;
      } else {
        sums[doc] = (sums[doc] as number) + part;
        mask[doc] = ((mask[doc] as number) | bit) >>> 0;
      }
    }
    return found;
  }

  /**
   * Adds a word's part of bm25 as typed to its `hits` documents' typed sums (ranking.ts:
   * TYPED_WEIGHT); it matches nothing by itself (its stem's phrase matches those documents).
   */
  private addTypedHits(hits: number): void {
    const { matchedScores: typedSums, matchedMasks: typedDocs, typedMark, touched } = this;
    const idf = this.idfOf(hits);
    let count = this.typedCount;
    for (let h = 0; h < hits; h += 1) {
      const doc = touched[h] as number;
      const f = this.freq[doc] as number;
      const part = idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * (this.docLengths[doc] as number)) / this.avgdl)));
      if (typedMark[doc] === 0) {
        typedMark[doc] = 1;
        typedSums[doc] = 0.0 + part;
        typedDocs[count++] = doc;
      } else {
        typedSums[doc] = (typedSums[doc] as number) + part;
      }
    }
    this.typedCount = count;
  }

  /** bm25's idf of a phrase `hits` documents hold, floored as FTS5 floors it. */
  private idfOf(hits: number): number {
    const docs = this.size;
    const idf = Math.log((docs - hits + 0.5) / (hits + 0.5));
    return idf <= 0.0 ? 1e-6 : idf;
  }

  /** The accepted ones of the `found` matched documents, packed at the front of `matched`, with their scores, masks and positions. */
  private collect(found: number, accepts: (doc: number) => boolean, full: number): TextMatches {
    const { score: sums, mask, touched, matched, scanSerial } = this;
    let accepted = 0;
    for (let a = 0; a < found; a += 1) {
      const doc = matched[a] as number;
      if (accepts(doc)) matched[accepted++] = doc;
    }
    const docsOut = matched.subarray(0, accepted);
    const scores = this.matchedScores.subarray(0, accepted);
    const masks = this.matchedMasks.subarray(0, accepted);
    this.serial += 1;
    const serial = this.serial;
    // Each one's position in `docsOut`, valid where `scanSerial` holds this match's serial, goes
    // in `touched`: the phrases are done with it.
    const positions = touched;
    for (let k = 0; k < accepted; k += 1) {
      const doc = docsOut[k] as number;
      scores[k] = sums[doc] as number;
      masks[k] = mask[doc] as number;
      positions[doc] = k;
      scanSerial[doc] = serial;
    }
    const position = (doc: number): number => (this.serial === serial && scanSerial[doc] === serial ? (positions[doc] as number) : -1);
    return { docs: docsOut, scores, masks, full, position };
  }

  /** The vocabulary positions [first, last) of the words `term` matches: those it starts (`prefix`), or itself. */
  private rangeOf(term: string, prefix: boolean): [number, number] {
    const first = this.lowerBound(term);
    let last = first;
    if (!prefix) return [first, this.vocabulary[first] === term ? first + 1 : first];
    while (last < this.vocabulary.length && (this.vocabulary[last] as string).startsWith(term)) last += 1;
    return [first, last];
  }

  /**
   * The documents holding a phrase (`term`, or with `prefix` every word it starts): their count,
   * the documents in `touched[0…count)`, each one's weighted frequency in `freq`.
   */
  private phraseHits(term: string, prefix: boolean): number {
    this.serial += 1;
    const [first, last] = this.rangeOf(term, prefix);
    return this.scan(first, last, this.serial, 0);
  }

  /**
   * Adds the postings of the words at vocabulary positions [first, last) to a phrase's hits (the
   * phrase `serial`, `hits` documents so far): a phrase's words may be read in several ranges.
   */
  private scan(first: number, last: number, serial: number, hits: number): number {
    const { freq, scanSerial, touched, postings } = this;
    for (let t = first; t < last; t += 1) {
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
        if (scanSerial[doc] !== serial) {
          scanSerial[doc] = serial;
          freq[doc] = 0;
          touched[hits] = doc;
          hits += 1;
        }
        freq[doc] = (freq[doc] as number) + f;
      }
    }
    return hits;
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
