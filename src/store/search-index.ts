/**
 * Relevance search from memory on SQLite. FTS5 has to score every match with bm25 before it can
 * keep a page, which at 100k servers costs tens of milliseconds for a common word; these indexes
 * hold the same words and weights (text-index.ts) next to what the ranking reads (name tiers,
 * source counts, id order), so a search touches only the postings of its words.
 *
 * They are built from the database for one catalog generation and used only while the catalog
 * is still at that generation: after any write, searches go to SQLite again until a rebuild (in
 * the background, started by the first search that finds the indexes stale) is done. The SQL
 * path stays the reference: tests check both give the same pages.
 */
import type { Authentication } from '../types.js';
import { openDatabase, rowsOf, type Db } from './db.js';
import { FTS_TABLES, FTS_TOKENIZER, type FtsTable } from './fts.js';
import { TextIndex, TextIndexBuilder, Unicode61, type CharacterClass, type TextMatches } from './text-index.js';


/** Rows read per query while building (each chunk is indexed in one turn of the event loop). */
const CHUNK = 2_000;

/** A page of a relevance search, as rowids (`seq`) best first, and the number of matches. */
export interface IndexedPage {
  readonly seqs: number[];
  readonly total: number;
}

export interface IndexedServerSearch {
  readonly terms: readonly string[];
  readonly text: string;
  readonly category: string | null;
  readonly limit: number;
  readonly offset: number;
}

export interface IndexedToolSearch {
  readonly terms: readonly string[];
  readonly text: string;
  readonly authentication: Authentication | null;
  readonly limit: number;
  readonly offset: number;
}

export interface SearchIndexes {
  readonly generation: string;
  /** Null when the query needs SQLite's phrase handling (a word the tokenizer splits). */
  searchServers(search: IndexedServerSearch): IndexedPage | null;
  searchTools(search: IndexedToolSearch): IndexedPage | null;
}

export interface SearchIndexEvents {
  built(stats: { generation: string; servers: number; tools: number; milliseconds: number; megabytes: number }): void;
  failed(err: unknown): void;
}

export interface SearchIndex {
  /** The indexes if they match the catalog's current generation; otherwise null, and a rebuild starts. */
  current(): Promise<SearchIndexes | null>;
  /** Builds the indexes for the catalog as it is now (at start, before serving). */
  refresh(): Promise<SearchIndexes | null>;
  close(): void;
}

/** The catalog's generation; `fresh` reads it from the database rather than a recent read. */
export type GenerationOf = (fresh?: boolean) => Promise<string>;

export function createSearchIndex(db: Db, generationOf: GenerationOf, events: Partial<SearchIndexEvents> = {}): SearchIndex {
  const tokenizer = new Unicode61();
  let ready: SearchIndexes | null = null;
  let building: Promise<SearchIndexes | null> | null = null;
  let closed = false;

  /** Builds until a build starts and ends at the same generation (a write during a build makes it moot). */
  const build = async (): Promise<SearchIndexes | null> => {
    for (let attempt = 0; attempt < 3 && !closed; attempt += 1) {
      const before = await generationOf(true);
      if (ready?.generation === before) return ready;
      // A stale index is never used again: let it go before the new one takes the memory.
      ready = null;
      const started = performance.now();
      const source: Source = { db, tokenizer, live: () => !closed };
      const [servers, tools] = [await buildServers(source), await buildTools(source)];
      const after = await generationOf(true);
      if (after !== before || closed) continue;
      ready = indexesOf(after, servers, tools);
      const megabytes = Math.round((heldBytes(servers) + heldBytes(tools)) / 1e6);
      events.built?.({ generation: after, servers: servers.text.size, tools: tools.text.size, milliseconds: Math.round(performance.now() - started), megabytes });
      return ready;
    }
    return null;
  };

  const start = (): Promise<SearchIndexes | null> => {
    building ??= build()
      .catch((err: unknown) => {
        if (!closed) events.failed?.(err);
        return null;
      })
      .finally(() => (building = null));
    return building;
  };

  return {
    async current() {
      if (closed) return null;
      const generation = await generationOf();
      if (ready?.generation === generation) return ready;
      void start();
      return null;
    },
    refresh: () => (closed ? Promise.resolve(null) : start()),
    close() {
      closed = true;
      ready = null;
    },
  };
}

interface ServerDocs {
  readonly text: TextIndex;
  readonly idRank: Int32Array;
  readonly sourceCount: Int32Array;
  /** length(sort_name) as SQLite counts it: characters. */
  readonly nameLength: Int32Array;
  readonly categories: Uint32Array;
  readonly categoryBits: ReadonlyMap<string, number>;
  /** Each server's match names. */
  readonly names: NameTable;
}

/** Distinct names, sorted, each with the documents that bear it: docs[start[n]…start[n + 1]). */
interface NameTable {
  readonly names: readonly string[];
  readonly start: Int32Array;
  readonly docs: Int32Array;
  /** Scratch for a query's name tiers, by position in its matches (1 + tier; 0 for none). */
  readonly tiers: Uint8Array;
}

/** The matches in a name tier: positions in the matches, and each one's tier (valid until the next query). */
interface Tiers {
  readonly positions: readonly number[];
  tier(k: number): number;
}

interface ToolDocs {
  readonly text: TextIndex;
  readonly idRank: Int32Array;
  /** The tools' sort names. */
  readonly names: NameTable;
  readonly authentication: Uint8Array;
  readonly authenticationCodes: ReadonlyMap<string, number>;
}

function indexesOf(generation: string, servers: ServerDocs, tools: ToolDocs): SearchIndexes {
  return {
    generation,
    searchServers(search) {
      let keep = (_doc: number): boolean => true;
      if (search.category !== null) {
        const bit = servers.categoryBits.get(search.category);
        if (bit === undefined) return { seqs: [], total: 0 };
        keep = (doc) => ((servers.categories[doc] as number) & bit) !== 0;
      }
      const matches = servers.text.match(search.terms, keep);
      if (!matches) return null;
      const tiers = nameTiers(servers.names, search.text, matches);
      // The SQL order: exact name, then name prefix (each by more sources, then the shorter
      // display name), then bm25, then id.
      const named = (a: number, b: number): number => {
        const docA = matches.docs[a] as number;
        const docB = matches.docs[b] as number;
        return tiers.tier(a) - tiers.tier(b)
          || (servers.sourceCount[docB] as number) - (servers.sourceCount[docA] as number)
          || (servers.nameLength[docA] as number) - (servers.nameLength[docB] as number)
          || byScore(matches, servers.idRank, a, b);
      };
      return pageOf(servers.text, matches, tiers, named, servers.idRank, search.offset, search.limit);
    },
    searchTools(search) {
      let keep = (_doc: number): boolean => true;
      if (search.authentication !== null) {
        const code = tools.authenticationCodes.get(search.authentication);
        if (code === undefined) return { seqs: [], total: 0 };
        keep = (doc) => tools.authentication[doc] === code;
      }
      const matches = tools.text.match(search.terms, keep);
      if (!matches) return null;
      const tiers = nameTiers(tools.names, search.text, matches);
      const named = (a: number, b: number): number => tiers.tier(a) - tiers.tier(b) || byScore(matches, tools.idRank, a, b);
      return pageOf(tools.text, matches, tiers, named, tools.idRank, search.offset, search.limit);
    },
  };
}

/** The bytes of an index's typed arrays (its text index's included). */
function heldBytes(docs: ServerDocs | ToolDocs): number {
  let bytes = docs.text.bytes + docs.names.start.byteLength + docs.names.docs.byteLength + docs.names.tiers.byteLength;
  for (const value of Object.values(docs)) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  return bytes;
}

/** Higher bm25 first, then id. */
function byScore(matches: TextMatches, idRank: Int32Array, a: number, b: number): number {
  const scoreA = matches.scores[a] as number;
  const scoreB = matches.scores[b] as number;
  if (scoreA !== scoreB) return scoreA > scoreB ? -1 : 1;
  return (idRank[matches.docs[a] as number] as number) - (idRank[matches.docs[b] as number] as number);
}

/**
 * The matches with a name equal to `text` (tier 0) or starting with it (tier 1), by position in
 * `matches`: found from the few names that start with the text, not by reading every match.
 */
function nameTiers(table: NameTable, text: string, matches: TextMatches): Tiers {
  const scratch = table.tiers;
  scratch.fill(0, 0, matches.docs.length);
  const positions: number[] = [];
  for (let n = lowerBound(table.names, text); n < table.names.length && (table.names[n] as string).startsWith(text); n += 1) {
    const marked = table.names[n] === text ? 1 : 2;
    for (let d = table.start[n] as number; d < (table.start[n + 1] as number); d += 1) {
      const k = matches.position(table.docs[d] as number);
      if (k < 0) continue;
      const was = scratch[k] as number;
      if (was === 0) positions.push(k);
      if (was === 0 || marked < was) scratch[k] = marked;
    }
  }
  return { positions, tier: (k) => (scratch[k] as number) - 1 };
}

/**
 * The page at `offset`: matches in a name tier (0 or 1, few) sorted by `named`, then the rest by
 * bm25 and id, of which only as many as the page needs are kept, in one pass.
 */
function pageOf(text: TextIndex, matches: TextMatches, tiers: Tiers, named: (a: number, b: number) => number, idRank: Int32Array, offset: number, limit: number): IndexedPage {
  const wanted = offset + limit;
  const first = best([...tiers.positions], wanted, named);
  const rest = bestByScore(matches, tiers, idRank, Math.max(0, wanted - first.length));
  const page = [...first, ...rest].slice(offset, wanted);
  return { seqs: page.map((k) => text.rowids[matches.docs[k] as number] as number), total: matches.docs.length };
}

/** The first `count` of `items` in `order` (a bounded insertion when that is much less than all of them). */
function best(items: number[], count: number, order: (a: number, b: number) => number): number[] {
  if (items.length <= count * 4 || count > INSERTION_LIMIT) return items.sort(order).slice(0, count);
  const kept: number[] = [];
  for (const item of items) {
    if (kept.length === count && order(item, kept[count - 1] as number) >= 0) continue;
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (order(kept[mid] as number, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    kept.splice(lo, 0, item);
    if (kept.length > count) kept.pop();
  }
  return kept;
}

/** The `count` best matches outside the name tiers, by higher bm25 then lower id rank, best first. */
function bestByScore(matches: TextMatches, tiers: Tiers, idRank: Int32Array, count: number): number[] {
  if (count === 0) return [];
  const { docs, scores } = matches;
  const order = (a: number, b: number): number => byScore(matches, idRank, a, b);
  if (count > INSERTION_LIMIT) {
    const all: number[] = [];
    for (let k = 0; k < docs.length; k += 1) if (tiers.tier(k) < 0) all.push(k);
    return all.sort(order).slice(0, count);
  }
  const best: number[] = [];
  let worstScore = Number.NEGATIVE_INFINITY;
  let worstRank = -1;
  const named = tiers.positions.length > 0;
  for (let k = 0; k < docs.length; k += 1) {
    if (named && tiers.tier(k) >= 0) continue;
    const score = scores[k] as number;
    const rank = idRank[docs[k] as number] as number;
    if (best.length === count && (score < worstScore || (score === worstScore && rank > worstRank))) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const other = best[mid] as number;
      const otherScore = scores[other] as number;
      if (otherScore > score || (otherScore === score && (idRank[docs[other] as number] as number) < rank)) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, k);
    if (best.length > count) best.pop();
    if (best.length === count) {
      const worst = best[count - 1] as number;
      worstScore = scores[worst] as number;
      worstRank = idRank[docs[worst] as number] as number;
    }
  }
  return best;
}

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where a build reads from; `live()` turns false when the store closes, and the build stops. */
interface Source {
  readonly db: Db;
  readonly tokenizer: Unicode61;
  readonly live: () => boolean;
}

/** Every row of `sql` (which takes the last key as its one binding, and orders by it), CHUNK at a time. */
async function eachChunk<Row>({ db, live }: Source, sql: string, keyOf: (row: Row) => number | string, first: number | string, visit: (rows: Row[]) => void | Promise<void>): Promise<void> {
  for (let after = first; ;) {
    if (!live()) throw new Error('the store closed while the search index was built');
    const rows = rowsOf<Row>(await db.raw(`${sql} LIMIT ${CHUNK}`, [after]));
    if (rows.length === 0) return;
    await visit(rows);
    after = keyOf(rows[rows.length - 1] as Row);
    if (rows.length < CHUNK) return;
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

/** Each row's rank in id order (the final tie-break of every relevance order). */
async function idRanks(source: Source, table: 'servers' | 'tools', docs: Int32Array, size: number): Promise<Int32Array> {
  const ranks = new Int32Array(size).fill(-1);
  let rank = 0;
  await eachChunk<{ id: string; seq: number }>(source, `SELECT id, seq FROM ${table} WHERE id > ? ORDER BY id`, (row) => row.id, '', (rows) => {
    for (const row of rows) ranks[docOf(docs, row.seq, table)] = rank++;
  });
  if (rank !== size) throw new Error(`${table} changed while the search index was built`);
  return ranks;
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

/** The text index of an FTS5 table, from the table's own content, `CHUNK` rows at a time. */
async function textIndexOf(source: Source, table: FtsTable): Promise<TextIndex> {
  const { tokenizer } = source;
  const { columns, weights } = FTS_TABLES[table];
  const builder = new TextIndexBuilder(weights, tokenizer);
  type Row = Record<string, string | null> & { rowid: number };
  await eachChunk<Row>(source, `SELECT rowid, ${columns.join(', ')} FROM ${table} WHERE rowid > ? ORDER BY rowid`, (r) => r.rowid, 0, async (rows) => {
    const texts = rows.map((row) => columns.map((column) => row[column] ?? null));
    const unknown = tokenizer.unknown(texts.flat());
    if (unknown.length > 0) tokenizer.learn(await classify(unknown));
    rows.forEach((row, i) => builder.add(row.rowid, texts[i] ?? []));
  });
  return builder.finish();
}

/** Deeper pages than this are found by one full sort of the matches rather than by insertion. */
const INSERTION_LIMIT = 1_000;

/** Rows probed per statement when classifying characters (two rows, one binding each, per character). */
const PROBE_CHUNK = 400;

/**
 * How SQLite's unicode61 tokenizer (with the catalog's options) treats each character:
 * an in-memory FTS5 table holds ` c ` (does c start a token, and what does it fold to?) and
 * `aca` (does it continue one?), and fts5vocab lists the tokens it made.
 */
async function classify(chars: readonly string[]): Promise<Map<string, CharacterClass>> {
  const probe = openDatabase('sqlite::memory:');
  try {
    await probe.raw(`CREATE VIRTUAL TABLE probe USING fts5(text, tokenize = "${FTS_TOKENIZER}")`);
    await probe.raw(`CREATE VIRTUAL TABLE probe_tokens USING fts5vocab(probe, 'instance')`);
    for (let from = 0; from < chars.length; from += PROBE_CHUNK) {
      const rows = chars.slice(from, from + PROBE_CHUNK).flatMap((char, i) => [2 * (from + i) + 1, ` ${char} `, 2 * (from + i) + 2, `a${char}a`]);
      await probe.raw(`INSERT INTO probe(rowid, text) VALUES ${Array.from({ length: rows.length / 2 }, () => '(?, ?)').join(', ')}`, rows);
    }
    const tokens = new Map<number, string[]>();
    for (const row of rowsOf<{ doc: number; term: string }>(await probe.raw('SELECT doc, term FROM probe_tokens ORDER BY doc, "offset"'))) {
      tokens.set(row.doc, [...(tokens.get(row.doc) ?? []), row.term]);
    }
    const out = new Map<string, CharacterClass>();
    chars.forEach((char, i) => {
      const alone = tokens.get(2 * i + 1) ?? [];
      const within = tokens.get(2 * i + 2) ?? [];
      const starts = alone.length === 1;
      const continues = within.length === 1;
      out.set(char, { starts, continues, folded: starts ? (alone[0] as string) : continues ? (within[0] as string).slice(1, -1) : '' });
    });
    return out;
  } finally {
    await probe.destroy();
  }
}

async function buildServers(source: Source): Promise<ServerDocs> {
  const text = await textIndexOf(source, 'servers_fts');
  const docs = docsBySeq(text);
  const size = text.size;
  const sourceCount = new Int32Array(size);
  const nameLength = new Int32Array(size);
  const matchNames: string[][] = new Array<string[]>(size);
  let seen = 0;
  type Row = { seq: number; source_count: number; sort_name: string; match_names: string };
  await eachChunk<Row>(source, 'SELECT seq, source_count, sort_name, match_names FROM servers WHERE seq > ? ORDER BY seq', (r) => r.seq, 0, (rows) => {
    for (const row of rows) {
      const doc = docOf(docs, row.seq, 'servers');
      sourceCount[doc] = row.source_count;
      nameLength[doc] = [...row.sort_name].length;
      const names = row.match_names.split('\n').filter((name) => name !== '');
      matchNames[doc] = names;
      seen += 1;
    }
  });
  if (seen !== size) throw new Error('servers changed while the search index was built');
  const names = nameTableOf(size, (doc) => matchNames[doc] ?? []);
  const categories = new Uint32Array(size);
  const categoryBits = new Map<string, number>();
  const rows = rowsOf<{ seq: number; slug: string }>(await source.db.raw('SELECT s.seq, c.slug FROM server_categories c JOIN servers s ON s.id = c.server_id'));
  for (const row of rows) {
    let bit = categoryBits.get(row.slug);
    if (bit === undefined) {
      if (categoryBits.size >= 32) throw new Error('the search index holds at most 32 categories');
      bit = 2 ** categoryBits.size;
      categoryBits.set(row.slug, bit);
    }
    const doc = docOf(docs, row.seq, 'server_categories');
    categories[doc] = ((categories[doc] as number) | bit) >>> 0;
  }
  return { text, idRank: await idRanks(source, 'servers', docs, size), sourceCount, nameLength, categories, categoryBits, names };
}

async function buildTools(source: Source): Promise<ToolDocs> {
  const text = await textIndexOf(source, 'tools_fts');
  const docs = docsBySeq(text);
  const size = text.size;
  const nameOf = new Array<string>(size);
  const distinct = new Map<string, string>();
  const authentication = new Uint8Array(size);
  const authenticationCodes = new Map<string, number>();
  let seen = 0;
  await eachChunk<{ seq: number; sort_name: string; authentication: string }>(source, 'SELECT seq, sort_name, authentication FROM tools WHERE seq > ? ORDER BY seq', (r) => r.seq, 0, (rows) => {
    for (const row of rows) {
      const doc = docOf(docs, row.seq, 'tools');
      // One string per distinct name (many tools share one).
      let name = distinct.get(row.sort_name);
      if (name === undefined) distinct.set(row.sort_name, (name = row.sort_name));
      nameOf[doc] = name;
      let code = authenticationCodes.get(row.authentication);
      if (code === undefined) authenticationCodes.set(row.authentication, (code = authenticationCodes.size));
      authentication[doc] = code;
      seen += 1;
    }
  });
  if (seen !== size) throw new Error('tools changed while the search index was built');
  const names = nameTableOf(size, (doc) => [nameOf[doc] as string]);
  return { text, idRank: await idRanks(source, 'tools', docs, size), names, authentication, authenticationCodes };
}
