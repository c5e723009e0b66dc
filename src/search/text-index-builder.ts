/**
 * Builds the in-memory engine's text index (text-index.ts) one document at a time, from the
 * FTS5 tables' own content (memory-build.ts).
 */
import { TextIndex } from './text-index.js';
import type { Unicode61 } from './unicode61.js';

/** While building, a weighted frequency at or above this is kept exactly apart. */
const FREQ_CAP = 255;

/** Log entries per slab: 32 MiB, malloc's largest mmap threshold, so a freed slab goes back to the system (a smaller last slab wastes less while the postings are laid out). */
const SLAB = 1 << 23;

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

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function grow<T extends Int32Array | Uint32Array | Float64Array>(array: T, size: number): T {
  const bigger = new (array.constructor as new (n: number) => T)(Math.max(4, size));
  bigger.set(array);
  return bigger;
}
