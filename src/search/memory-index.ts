/**
 * The in-memory engine's indexes for one catalog generation, and their relevance searches: the
 * text index (words and bm25, text-index.ts) next to what the ranking rules read (name tiers,
 * source counts, name lengths, id order) and the filters (categories, authentication), so a
 * search touches only the postings of its words. Built by memory-docs.ts.
 */
import type { Authentication } from '../types.js';
import type { QualityFilter } from './engine.js';
import { byScore, pageOf, type IndexedPage, type Tiers } from './page-selection.js';
import { NAME_TIERS } from './ranking.js';
import type { TextIndex, TextMatches } from './text-index.js';
import type { WordMatch } from './typos.js';

export interface IndexedServerSearch {
  /** The words (typos.ts), or null for a name-prefix search (ranking.ts: MATCH_STEPS) of `text`. */
  readonly words: readonly WordMatch[] | null;
  readonly text: string;
  readonly category: string | null;
  /** Only servers with `clean` set (the `trust=clean` filter). */
  readonly clean: boolean;
  /** Only servers without (`unflagged`) or with (`flagged`) a quality flag; null: all. */
  readonly quality: QualityFilter | null;
  readonly limit: number;
  readonly offset: number;
}

export interface IndexedToolSearch {
  readonly words: readonly WordMatch[];
  readonly text: string;
  readonly authentication: Authentication | null;
  readonly limit: number;
  readonly offset: number;
}

export interface MemoryIndexes {
  readonly generation: string;
  /** The words each text index holds (typos are found among them: typos.ts); no tool words while the tools are not indexed yet. */
  readonly serverTerms: readonly string[];
  readonly toolTerms: readonly string[] | null;
  /** Null when the query needs SQLite's phrase handling (a word the tokenizer splits). */
  searchServers(search: IndexedServerSearch): IndexedPage | null;
  /** Whether an indexed server (tool) word starts with each prefix; null as `searchServers`. */
  serversHold(prefixes: readonly string[]): boolean[] | null;
  toolsHold(prefixes: readonly string[]): boolean[] | null;
  /** Null as `searchServers`, and while the tools are not indexed yet. */
  searchTools(search: IndexedToolSearch): IndexedPage | null;
}

/** Distinct names, sorted, each with the documents that bear it: docs[start[n]…start[n + 1]). */
export interface NameTable {
  readonly names: readonly string[];
  readonly start: Int32Array;
  readonly docs: Int32Array;
  /** Scratch for a query's name tiers, by position in its matches (1 + tier; 0 for none). */
  readonly tiers: Uint8Array;
}

export interface ServerDocs {
  readonly text: TextIndex;
  readonly idRank: Int32Array;
  readonly sourceCount: Int32Array;
  /** length(sort_name) as SQLite counts it: characters. */
  readonly nameLength: Int32Array;
  readonly categories: Uint32Array;
  readonly categoryBits: ReadonlyMap<string, number>;
  /** 1 where the server's tools were scanned with no serious finding and have not changed since first seen. */
  readonly clean: Uint8Array;
  /** 1 where the server has a quality flag (src/catalog/quality.ts). */
  readonly flagged: Uint8Array;
  /** Each server's match names. */
  readonly names: NameTable;
}

export interface ToolDocs {
  readonly text: TextIndex;
  readonly idRank: Int32Array;
  /** The tools' sort names. */
  readonly names: NameTable;
  readonly authentication: Uint8Array;
  readonly authenticationCodes: ReadonlyMap<string, number>;
}

/** The indexes of one generation; `tools` null while they are being built (the servers' are built first). */
export function indexesOf(generation: string, servers: ServerDocs, tools: ToolDocs | null): MemoryIndexes {
  return {
    generation,
    serverTerms: servers.text.terms,
    toolTerms: tools?.text.terms ?? null,
    serversHold: (prefixes) => holdAll(servers.text, prefixes),
    toolsHold: (prefixes) => (tools === null ? null : holdAll(tools.text, prefixes)),
    searchServers(search) {
      let inCategory = (_doc: number): boolean => true;
      if (search.category !== null) {
        const bit = servers.categoryBits.get(search.category);
        if (bit === undefined) return { seqs: [], total: 0 };
        inCategory = (doc) => ((servers.categories[doc] as number) & bit) !== 0;
      }
      const inQuality = search.quality === null ? inCategory : (doc: number) => servers.flagged[doc] === (search.quality === 'flagged' ? 1 : 0) && inCategory(doc);
      const accepts = search.clean ? (doc: number) => servers.clean[doc] === 1 && inQuality(doc) : inQuality;
      const matches = search.words === null ? namedMatches(servers.names, search.text, accepts) : servers.text.match(search.words, accepts);
      if (!matches) return null;
      // A flagged server is in no name tier (SERVER_RANKING_RULES).
      const tiers = nameTiers(servers.names, search.text, matches, servers.flagged);
      // SERVER_RANKING_RULES: exact name, then name prefix (each by more sources, then the
      // shorter display name), then the rest by byScore (every word held first, unflagged first,
      // bm25), then id.
      const named = (a: number, b: number): number => {
        const docA = matches.docs[a] as number;
        const docB = matches.docs[b] as number;
        return tiers.tier(a) - tiers.tier(b)
          || (servers.sourceCount[docB] as number) - (servers.sourceCount[docA] as number)
          || (servers.nameLength[docA] as number) - (servers.nameLength[docB] as number)
          || byScore(matches, servers.idRank, a, b, servers.flagged);
      };
      const page = pageOf(servers.text.rowids, matches, tiers, named, servers.idRank, search.offset, search.limit, servers.flagged);
      return search.words === null ? { seqs: page.seqs, total: page.total } : page;
    },
    searchTools(search) {
      if (tools === null) return null;
      let accepts = (_doc: number): boolean => true;
      if (search.authentication !== null) {
        const code = tools.authenticationCodes.get(search.authentication);
        if (code === undefined) return { seqs: [], total: 0 };
        accepts = (doc) => tools.authentication[doc] === code;
      }
      const matches = tools.text.match(search.words, accepts);
      if (!matches) return null;
      const tiers = nameTiers(tools.names, search.text, matches);
      // TOOL_RANKING_RULES: exact name, name prefix, bm25, id.
      const named = (a: number, b: number): number => tiers.tier(a) - tiers.tier(b) || byScore(matches, tools.idRank, a, b);
      return pageOf(tools.text.rowids, matches, tiers, named, tools.idRank, search.offset, search.limit);
    },
  };
}

/** For each prefix, whether an indexed word starts with it; null when one is not a single token. */
function holdAll(text: TextIndex, prefixes: readonly string[]): boolean[] | null {
  const answers: boolean[] = [];
  for (const prefix of prefixes) {
    const holds = text.holds(prefix);
    if (holds === null) return null;
    answers.push(holds);
  }
  return answers;
}

/** The bytes of an index's typed arrays (its text index's included). */
export function indexBytes(docs: ServerDocs | ToolDocs): number {
  let bytes = docs.text.bytes + docs.names.start.byteLength + docs.names.docs.byteLength + docs.names.tiers.byteLength;
  for (const value of Object.values(docs)) if (ArrayBuffer.isView(value)) bytes += value.byteLength;
  return bytes;
}

/**
 * The documents one of whose names starts with `text` (ranking.ts: MATCH_STEPS, "name prefix"),
 * as matches without a bm25 score (the name tiers and id order them).
 */
function namedMatches(table: NameTable, text: string, accepts: (doc: number) => boolean): TextMatches {
  const found = new Set<number>();
  for (let n = lowerBound(table.names, text); n < table.names.length && (table.names[n] as string).startsWith(text); n += 1) {
    for (let d = table.start[n] as number; d < (table.start[n + 1] as number); d += 1) {
      const doc = table.docs[d] as number;
      if (accepts(doc)) found.add(doc);
    }
  }
  const docs = Int32Array.from(found);
  const positions = new Map<number, number>();
  docs.forEach((doc, k) => positions.set(doc, k));
  return { docs, scores: new Float64Array(docs.length), masks: new Uint32Array(docs.length), full: 0, position: (doc) => positions.get(doc) ?? -1 };
}

/** The scratch marks of the two tiers (0 marks none). */
const EXACT_MARK = 1 + NAME_TIERS.exact;
const PREFIX_MARK = 1 + NAME_TIERS.prefix;

/**
 * The full matches with a name equal to `text` (NAME_TIERS.exact) or starting with it
 * (NAME_TIERS.prefix), by position in `matches`, but those `outside` marks: found from the few
 * names that start with the text, not by reading every match.
 */
function nameTiers(table: NameTable, text: string, matches: TextMatches, outside: Uint8Array | null = null): Tiers {
  const scratch = table.tiers;
  scratch.fill(0, 0, matches.docs.length);
  const positions: number[] = [];
  for (let n = lowerBound(table.names, text); n < table.names.length && (table.names[n] as string).startsWith(text); n += 1) {
    const marked = table.names[n] === text ? EXACT_MARK : PREFIX_MARK;
    for (let d = table.start[n] as number; d < (table.start[n + 1] as number); d += 1) {
      const doc = table.docs[d] as number;
      if (outside !== null && outside[doc] === 1) continue;
      const k = matches.position(doc);
      // Only a document holding every word is in a name tier (ranking.ts: MATCH_RULE).
      if (k < 0 || matches.masks[k] !== matches.full) continue;
      const was = scratch[k] as number;
      if (was === 0) positions.push(k);
      if (was === 0 || marked < was) scratch[k] = marked;
    }
  }
  return { positions, tier: (k) => (scratch[k] as number) - 1 };
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
