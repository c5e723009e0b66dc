/**
 * Assembles the in-memory engine's indexes (memory-index.ts) around a finished text index, from
 * the catalog's rows given one at a time in any order (memory-build.ts reads them from the
 * database; unit tests give them by hand). `finish` checks every document got its row.
 */
import type { NameTable, ServerDocs, ToolDocs } from './memory-index.js';
import type { TextIndex } from './text-index.js';

/** Categories a server index can filter by (one bit each). */
const MAX_CATEGORIES = 32;

/** What both builders share: each document by its seq, the id order, and the count of rows seen. */
abstract class DocsBuilder {
  protected readonly idRank: Int32Array;
  protected seen = 0;
  private readonly docs: Int32Array;
  private ranked = 0;

  constructor(
    protected readonly text: TextIndex,
    /** The table whose rows these are, for errors. */
    private readonly table: string,
  ) {
    this.docs = docsBySeq(text);
    this.idRank = new Int32Array(text.size).fill(-1);
  }

  /** The next row in id order (the final tie-break of every relevance order). */
  nextById(seq: number): void {
    this.idRank[this.docOf(seq)] = this.ranked++;
  }

  /** The document of the row `seq` of `table`; it throws for a row the text index does not hold. */
  protected docOf(seq: number, table = this.table): number {
    const doc = this.docs[seq] ?? -1;
    if (doc < 0) throw new Error(`${table} row ${seq} is not in the text index`);
    return doc;
  }

  /** Throws unless every document got its row and its place in id order. */
  protected checkComplete(): void {
    const size = this.text.size;
    if (this.seen !== size || this.ranked !== size) throw new Error(`${this.table} changed while the search index was built`);
  }
}

export class ServerDocsBuilder extends DocsBuilder {
  private readonly sourceCount: Int32Array;
  private readonly nameLength: Int32Array;
  private readonly matchNames: string[][];
  private readonly categories: Uint32Array;
  private readonly categoryBits = new Map<string, number>();
  private readonly clean: Uint8Array;
  private readonly flagged: Uint8Array;

  constructor(text: TextIndex) {
    super(text, 'servers');
    this.clean = new Uint8Array(text.size);
    this.flagged = new Uint8Array(text.size);
    const size = text.size;
    this.sourceCount = new Int32Array(size);
    this.nameLength = new Int32Array(size);
    this.matchNames = new Array<string[]>(size);
    this.categories = new Uint32Array(size);
  }

  /** A server's row: how many sources list it, its display name, its match names, whether `trust=clean` admits it, whether it has a quality flag. */
  server(seq: number, sourceCount: number, sortName: string, matchNames: string[], clean: boolean, flagged = false): void {
    const doc = this.docOf(seq);
    this.clean[doc] = clean ? 1 : 0;
    this.flagged[doc] = flagged ? 1 : 0;
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
    const doc = this.docOf(seq, 'server_categories');
    this.categories[doc] = ((this.categories[doc] as number) | bit) >>> 0;
  }

  finish(): ServerDocs {
    this.checkComplete();
    const names = nameTableOf(this.text.size, (doc) => this.matchNames[doc] ?? []);
    const { text, idRank, sourceCount, nameLength, categories, categoryBits, clean, flagged } = this;
    return { text, idRank, sourceCount, nameLength, categories, categoryBits, clean, flagged, names };
  }
}

export class ToolDocsBuilder extends DocsBuilder {
  private readonly nameOf: string[];
  /** One string per distinct name (many tools share one). */
  private readonly distinct = new Map<string, string>();
  private readonly authentication: Uint8Array;
  private readonly authenticationCodes = new Map<string, number>();

  constructor(text: TextIndex) {
    super(text, 'tools');
    this.nameOf = new Array<string>(text.size);
    this.authentication = new Uint8Array(text.size);
  }

  /** A tool's row: its sort name and its server's authentication. */
  tool(seq: number, sortName: string, authentication: string): void {
    const doc = this.docOf(seq);
    let name = this.distinct.get(sortName);
    if (name === undefined) this.distinct.set(sortName, (name = sortName));
    this.nameOf[doc] = name;
    let code = this.authenticationCodes.get(authentication);
    if (code === undefined) this.authenticationCodes.set(authentication, (code = this.authenticationCodes.size));
    this.authentication[doc] = code;
    this.seen += 1;
  }

  finish(): ToolDocs {
    this.checkComplete();
    const names = nameTableOf(this.text.size, (doc) => [this.nameOf[doc] as string]);
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
