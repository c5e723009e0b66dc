/**
 * The in-memory search engine, on SQLite and PostgreSQL alike. FTS5 (or PostgreSQL's ts_rank)
 * has to score every match before it can keep a page, which is slow for a common word in a large
 * catalog; this engine holds the same words and weights next to what the ranking rules read
 * (memory-index.ts), so a search touches only the postings of its words, then
 * reads the page's rows by seq. It reads the catalog through the same tables on both databases
 * (servers_fts and tools_fts have the same columns and rowids), and ranks by FTS5's bm25 on both.
 *
 * Its indexes are built for one catalog content generation and answer only at that generation,
 * and only relevance searches with words: otherwise it answers null (the SQL engine answers),
 * and a generation it was not built for starts a rebuild in the background (current-indexes.ts).
 * The FTS5 engine stays the reference: the parity suite checks both give the same pages.
 */
import type { ServerSummary, Tool } from '../types.js';
import { SUMMARY_COLUMNS, TOOL_COLUMNS, toSummary, toTool, type ServerRow, type ToolRow } from '../store/read-rows.js';
import { CurrentIndexes, type CommittedGeneration, type MemoryEngineEvents } from './current-indexes.js';
import type { Page, SearchCoverage, SearchEngine, ServerQuery, ToolQuery } from './engine.js';
import { inSteps } from './match-steps.js';
import type { MemoryIndexes } from './memory-index.js';
import type { IndexedPage } from './page-selection.js';
import { namePrefixOf } from './query.js';
import type { SearchSource, SqlRunner } from './search-source.js';
import type { WordMatch } from './typos.js';
import { matchedTermsOf } from './words.js';

export type { CommittedGeneration, MemoryEngineEvents } from './current-indexes.js';

/** The in-memory engine, and what only it offers. */
export interface MemoryEngine extends SearchEngine {
  /** Builds its indexes for the catalog as it is now and saves their snapshot; whether they are ready. */
  warm(): Promise<boolean>;
  /**
   * As `warm`, but resolves as soon as server searches answer from memory: before the tools are
   * indexed and the snapshot is saved (at start, before serving: those finish while it serves).
   */
  serving(): Promise<boolean>;
  /** `memory` once its indexes of `generation` are whole, `servers` while its tools are indexed, else `sql`. */
  coverage(generation: string): SearchCoverage;
  close(): void;
}

/** The answer when this engine cannot answer (the next engine does). */
const DECLINED: Promise<null> = Promise.resolve(null);

const SERVERS_BY_SEQ = `SELECT ${SUMMARY_COLUMNS} FROM servers s WHERE s.seq IN `;
const TOOLS_BY_SEQ = `SELECT ${['t.seq', ...TOOL_COLUMNS].join(', ')} FROM tools t JOIN servers s ON s.id = t.server_id WHERE t.seq IN `;

export function createMemoryEngine(source: SearchSource, committed: CommittedGeneration, events: Partial<MemoryEngineEvents> = {}): MemoryEngine {
  const current = new CurrentIndexes(source, committed, events);
  return {
    name: 'memory',
    scoring: 'bm25',
    searchServers(query, generation) {
      const matched = serverMatches(current, generation, query);
      return matched === null ? DECLINED : rowsOf(matched, (page) => rowsOfPage<ServerRow, ServerSummary>(source.sql, page, SERVERS_BY_SEQ, toSummary));
    },
    rankServers(query, generation) {
      const matched = serverMatches(current, generation, query);
      return matched === null ? DECLINED : matched.then((page) => page && page.seqs);
    },
    searchTools(query, generation) {
      const { terms, text } = query;
      if (query.sort !== 'relevance' || terms === null || text === null) return DECLINED;
      const indexes = current.at(generation);
      if (!indexes?.toolTerms) return DECLINED;
      return toolPage(indexes, indexes.toolTerms, source.sql, query, terms, text);
    },
    coverage: (generation) => current.coverage(generation),
    warm: () => current.warm(),
    serving: () => current.serving(),
    close: () => current.close(),
  };
}

/**
 * The indexed page of a relevance search of servers with words, by the match steps, from the
 * indexes of `generation`; null (without a search) where this engine declines: not a relevance
 * search with words, or no indexes of the generation. Only a search it could answer asks for
 * them (asking starts a build for a generation not built yet).
 */
function serverMatches(current: CurrentIndexes, generation: string, query: ServerQuery): Promise<FoundPage | null> | null {
  const { terms, text, category, quality, limit, offset } = query;
  const clean = query.trust === 'clean';
  if (query.sort !== 'relevance' || terms === null || text === null) return null;
  const indexes = current.at(generation);
  if (!indexes) return null;
  return inSteps(terms, namePrefixOf(text), {
    byName: async (prefix) => found(terms, null, indexes.searchServers({ words: null, text: prefix, category, clean, quality, limit, offset })),
    byWords: async (words) => found(terms, words, indexes.searchServers({ words, text, category, clean, quality, limit, offset })),
    holds: async (prefixes) => indexes.serversHold(prefixes),
    vocabulary: async () => indexes.serverTerms,
  });
}

/** A relevance search of tools with words, by the match steps, answered from `indexes` (whose tools are indexed: `toolTerms`). */
function toolPage(indexes: MemoryIndexes, toolTerms: readonly string[], sql: SqlRunner, query: ToolQuery, terms: readonly string[], text: string): Promise<Page<Tool> | null> {
  const { authentication, limit, offset } = query;
  return rowsOf(
    inSteps(terms, null, {
      byWords: async (words) => found(terms, words, indexes.searchTools({ words, text, authentication, limit, offset })),
      holds: async (prefixes) => indexes.toolsHold(prefixes),
      vocabulary: async () => toolTerms,
    }),
    (page) => rowsOfPage<ToolRow, Tool>(sql, page, TOOLS_BY_SEQ, toTool),
  );
}

/** An indexed page with the words it was searched by (a name-prefix search, without masks, matched them all). */
interface FoundPage extends IndexedPage {
  readonly words: readonly string[];
}

function found(terms: readonly string[], words: readonly WordMatch[] | null, page: IndexedPage | null): FoundPage | null {
  return page === null ? null : { ...page, words: words === null ? terms : words.map((w) => w.word) };
}

/** The rows of the page the match steps found; null where the index declined. */
async function rowsOf<T>(found: Promise<FoundPage | null>, rows: (page: FoundPage) => Promise<Page<T> | null>): Promise<Page<T> | null> {
  const page = await found;
  return page === null ? null : rows(page);
}

/** The rows of an indexed page, in its order, each with the words it holds; null if one has gone since (SQL answers then). */
async function rowsOfPage<Row extends { seq: number }, T>(sql: SqlRunner, page: FoundPage, select: string, map: (row: Row) => T): Promise<Page<T & { matchedTerms: string[] }> | null> {
  if (page.seqs.length === 0) return { items: [], total: page.total, terms: page.words };
  const rows = await sql.prepared<Row>(`${select}(${page.seqs.map(() => '?').join(', ')})`, page.seqs);
  const bySeq = new Map(rows.map((row) => [Number(row.seq), row]));
  const items: Array<T & { matchedTerms: string[] }> = [];
  for (const [k, seq] of page.seqs.entries()) {
    const row = bySeq.get(seq);
    if (!row) return null;
    items.push({ ...map(row), matchedTerms: matchedTermsOf(page.words, page.masks?.[k] ?? null) });
  }
  return { items, total: page.total, terms: page.words };
}

