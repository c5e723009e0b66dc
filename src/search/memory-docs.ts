/**
 * Assembles the in-memory engine's indexes (memory-index.ts) around a finished text index, from
 * the catalog's rows given one at a time in any order (memory-build.ts reads them from the
 * database; unit tests give them by hand). `finish` checks every document got its row.
 */
import type { NameTable, ServerDocs, ToolDocs } from './memory-index.js';
import type { TextIndex } from './text-index.js';

/** Categories a server index can filter by (one bit each). */
const MAX_CATEGORIES = 32;

export class ServerDocsBuilder {
  private readonly docs: Int32Array;
  private readonly sourceCount: Int32Array;
  private readonly nameLength: Int32Array;
  private readonly matchNames: string[][];
  private readonly categories: Uint32Array;
  private readonly categoryBits = new Map<string, number>();
  private readonly idRank: Int32Array;
  private seen = 0;
  private ranked = 0;

  constructor(private readonly text: TextIndex) {
    const size = text.size;
    this.docs = docsBySeq(text);
    this.sourceCount = new Int32Array(size);
    this.nameLength = new Int32Array(size);
    this.matchNames = new Array<string[]>(size);
    this.categories = new Uint32Array(size);
    this.idRank = new Int32Array(size).fill(-1);
  }

  /** A server's row: how many sources list it, its display name, its match names. */
  server(seq: number, sourceCount: number, sortName: string, matchNames: string[]): void {
    const doc = docOf(this.docs, seq, 'servers');
    this.sourceCount[doc] = sourceCount;
    this.nameLength[doc] = [...sortName].length;
    this.matchNames[doc] = matchNames;
    this.seen += 1;
  }

  /** One of a server's categories. */
  category(seq: number, slug: string): void {
    let bit = this.categoryBits.get(slug);
    if (bit === undefined) {
      if (this.categoryBits.size >= MAX_CATEGORIES) throw new Error(`the search index holds at most ${MAX_CATEGORIES} categories`);
      bit = 2 ** this.categoryBits.size;
      this.categoryBits.set(slug, bit);
    }
    const doc = docOf(this.docs, seq, 'server_categories');
    this.categories[doc] = ((this.categories[doc] as number) | bit) >>> 0;
  }

  /** The next server in id order (the final tie-break of every relevance order). */
  nextById(seq: number): void {
    this.idRank[docOf(this.docs, seq, 'servers')] = this.ranked++;
  }

  finish(): ServerDocs {
    const size = this.text.size;
    if (this.seen !== size || this.ranked !== size) throw new Error('servers changed while the search index was built');
    const names = nameTableOf(size, (doc) => this.matchNames[doc] ?? []);
    const { text, idRank, sourceCount, nameLength, categories, categoryBits } = this;
    return { text, idRank, sourceCount, nameLength, categories, categoryBits, names };
  }
}

export class ToolDocsBuilder {
  private readonly docs: Int32Array;
  private readonly nameOf: string[];
  /** One string per distinct name (many tools share one). */
  private readonly distinct = new Map<string, string>();
  private readonly authentication: Uint8Array;
  private readonly authenticationCodes = new Map<string, number>();
  private readonly idRank: Int32Array;
  private seen = 0;
  private ranked = 0;

  constructor(private readonly text: TextIndex) {
    const size = text.size;
    this.docs = docsBySeq(text);
    this.nameOf = new Array<string>(size);
    this.authentication = new Uint8Array(size);
    this.idRank = new Int32Array(size).fill(-1);
  }

  /** A tool's row: its sort name and its server's authentication. */
  tool(seq: number, sortName: string, authentication: string): void {
    const doc = docOf(this.docs, seq, 'tools');
    let name = this.distinct.get(sortName);
    if (name === undefined) this.distinct.set(sortName, (name = sortName));
    this.nameOf[doc] = name;
    let code = this.authenticationCodes.get(authentication);
    if (code === undefined) this.authenticationCodes.set(authentication, (code = this.authenticationCodes.size));
    this.authentication[doc] = code;
    this.seen += 1;
  }

  /** The next tool in id order. */
  nextById(seq: number): void {
    this.idRank[docOf(this.docs, seq, 'tools')] = this.ranked++;
  }

  finish(): ToolDocs {
    const size = this.text.size;
    if (this.seen !== size || this.ranked !== size) throw new Error('tools changed while the search index was built');
    const names = nameTableOf(size, (doc) => [this.nameOf[doc] as string]);
    const { text, idRank, authentication, authenticationCodes } = this;
    return { text, idRank, names, authentication, authenticationCodes };
  }
}

/** Document numbers by rowid (-1 for none), for joining other tables' rows onto the text index. */
function docsBySeq(text: TextIndex): Int32Array {
  const out = new Int32Array((text.rowids[text.size - 1] ?? 0) + 1).fill(-1);
  text.rowids.forEach((rowid, doc) => (out[rowid] = doc));
  return out;
}

function docOf(docs: Int32Array, seq: number, table: string): number {
  const doc = docs[seq] ?? -1;
  if (doc < 0) throw new Error(`${table} row ${seq} is not in the text index`);
  return doc;
}

/** The name table of `size` documents, each bearing the names `namesOf(doc)` gives. */
function nameTableOf(size: number, namesOf: (doc: number) => readonly string[]): NameTable {
  const counts = new Map<string, number>();
  for (let doc = 0; doc < size; doc += 1) for (const name of namesOf(doc)) counts.set(name, (counts.get(name) ?? 0) + 1);
  const names = [...counts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const start = new Int32Array(names.length + 1);
  const next = new Map<string, number>();
  names.forEach((name, n) => {
    next.set(name, start[n] as number);
    start[n + 1] = (start[n] as number) + (counts.get(name) as number);
  });
  const docs = new Int32Array(start[names.length] as number);
  for (let doc = 0; doc < size; doc += 1) {
    for (const name of namesOf(doc)) {
      const at = next.get(name) as number;
      docs[at] = doc;
      next.set(name, at + 1);
    }
  }
  return { names, start, docs, tiers: new Uint8Array(size) };
}
