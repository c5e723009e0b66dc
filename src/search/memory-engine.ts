/**
 * The in-memory search engine, on SQLite and PostgreSQL alike. FTS5 (or PostgreSQL's ts_rank)
 * has to score every match before it can keep a page, which at 100k servers costs tens of
 * milliseconds for a common word; this engine holds the same words and weights next to what the
 * ranking rules read (memory-index.ts), so a search touches only the postings of its words, then
 * reads the page's rows by seq. It reads the catalog through the same tables on both databases
 * (servers_fts and tools_fts have the same columns and rowids), and ranks by FTS5's bm25 on both.
 *
 * Its indexes are built for one catalog content generation and answer only at that generation,
 * and only relevance searches with words: otherwise it answers null (the SQL engine answers),
 * and a generation it was not built for starts a rebuild in the background. A build indexes the
 * servers first: server searches answer from memory while the tools are indexed. The FTS5 engine stays
 * the reference: the parity suite checks both give the same pages.
 */
import type { ServerSummary, Tool } from '../types.js';
import { SUMMARY_COLUMNS, TOOL_COLUMNS, toSummary, toTool, type ServerRow, type ToolRow } from '../store/read-rows.js';
import type { Page, SearchCoverage, SearchEngine } from './engine.js';
import { buildServers, buildTools, type BuildSource } from './memory-build.js';
import { indexesFromSnapshot, snapshotAsBuilt, snapshotFingerprint, snapshotOf } from './index-snapshot.js';
import { heldBytes, indexesOf, type MemoryIndexes, type ServerDocs, type ToolDocs } from './memory-index.js';
import { inSteps } from './match-steps.js';
import type { IndexedPage } from './page-selection.js';
import { namePrefixOf } from './query.js';
import { matchedTermsOf } from './words.js';
import type { WordMatch } from './typos.js';
import type { SearchSource, SqlRunner } from './search-source.js';
import { Unicode61 } from './unicode61.js';

export interface MemoryEngineEvents {
  /** Indexes ready for a generation: built from the catalog, or loaded from a snapshot of them. */
  built(stats: { generation: string; servers: number; tools: number; milliseconds: number; megabytes: number; from: 'catalog' | 'snapshot'; serversMs?: number; keptMs?: number }): void;
  failed(err: unknown): void;
  /** A snapshot could not be read (the indexes are built instead) or kept (the next start builds). */
  snapshotFailed(err: unknown, doing: 'read' | 'keep'): void;
}

/** The in-memory engine, and what only it offers. */
export interface MemoryEngine extends SearchEngine {
  /** Builds its indexes for the catalog as it is now and keeps their snapshot; whether they are ready. */
  warm(): Promise<boolean>;
  /**
   * As `warm`, but resolves as soon as server searches answer from memory: before the tools are
   * indexed and the snapshot is kept (at start, before serving: those finish while it serves).
   */
  serving(): Promise<boolean>;
  /** `memory` once its indexes of `generation` are whole, `servers` while its tools are indexed, else `sql`. */
  coverage(generation: string): SearchCoverage;
  close(): void;
}

/** Builds attempted in a row before giving up, when the catalog keeps changing under them. */
const BUILD_ATTEMPTS = 3;

/** The answer when this engine cannot answer (the next engine does). */
const DECLINED: Promise<null> = Promise.resolve(null);

const SERVERS_BY_SEQ = `SELECT ${SUMMARY_COLUMNS} FROM servers s WHERE s.seq IN `;
const TOOLS_BY_SEQ = `SELECT ${['t.seq', ...TOOL_COLUMNS].join(', ')} FROM tools t JOIN servers s ON s.id = t.server_id WHERE t.seq IN `;

/**
 * The catalog's content generation as committed, read fresh: only to know that a build read one
 * catalog from start to end. The generation a search is answered at comes from the read model.
 */
export type CommittedGeneration = () => Promise<string>;

export function createMemoryEngine(source: SearchSource, committed: CommittedGeneration, events: Partial<MemoryEngineEvents> = {}): MemoryEngine {
  const tokenizer = new Unicode61();
  let ready: MemoryIndexes | null = null;
  let building: Promise<MemoryIndexes | null> | null = null;
  let closed = false;

  const { snapshots } = source;
  /** The indexes of `generation` from its snapshot, if one is kept (another instance, or an earlier start, built them). */
  const loaded = async (generation: string): Promise<{ servers: ServerDocs; tools: ToolDocs } | null> => {
    try {
      const stored = await snapshots?.find(generation, snapshotFingerprint());
      if (!stored) return null;
      try {
        return await indexesFromSnapshot(stored, tokenizer);
      } finally {
        await stored.close();
      }
    } catch (err) {
      if (!closed) events.snapshotFailed?.(err, 'read');
      return null;
    }
  };
  /** Keeps a snapshot of indexes just built, for the next start and for the other instances; how long it took (ms). */
  const keep = async (generation: string, servers: ServerDocs, tools: ToolDocs): Promise<number> => {
    const started = performance.now();
    try {
      await snapshots?.save(generation, snapshotFingerprint(), snapshotOf(servers, tools, tokenizer));
    } catch (err) {
      if (!closed) events.snapshotFailed?.(err, 'keep');
    }
    return Math.round(performance.now() - started);
  };

  /**
   * The indexes of `generation` read from the catalog, servers first: once they are indexed
   * `onServers` is told, so server searches answer from memory while the tools (about 60% of a
   * build at 100k servers) are indexed and tool searches answer from SQL. Null when the catalog
   * moved on meanwhile (a write during a build makes it moot).
   */
  const fromCatalog = async (generation: string, onServers: (indexes: MemoryIndexes) => void): Promise<{ servers: ServerDocs; tools: ToolDocs } | null> => {
    const from: BuildSource = { sql: source.sql, classify: source.classify, tokenizer, live: () => !closed };
    const moved = async (): Promise<boolean> => closed || (await committed()) !== generation;
    const servers = await buildServers(from);
    if (await moved()) return null;
    onServers(indexesOf(generation, servers, null));
    const tools = await buildTools(from);
    return (await moved()) ? null : { servers, tools };
  };

  /**
   * Loads the snapshot of the current generation, or builds until a build starts and ends at the
   * same generation, tells `onReady` as soon as server searches answer, then keeps a snapshot of
   * the whole index.
   */
  const build = async (onReady: (indexes: MemoryIndexes) => void): Promise<MemoryIndexes | null> => {
    for (let attempt = 0; attempt < BUILD_ATTEMPTS && !closed; attempt += 1) {
      const before = await committed();
      if (ready?.generation === before && ready.toolTerms !== null) return ready;
      // A stale index is never used again: let it go before the new one takes the memory.
      ready = null;
      const started = performance.now();
      let serversMs: number | undefined;
      const kept = await loaded(before);
      const indexes = kept ?? (await fromCatalog(before, (serving) => {
        ready = serving;
        onReady(serving);
        serversMs = Math.round(performance.now() - started);
      }));
      if (!indexes) continue;
      const { servers, tools } = indexes;
      ready = indexesOf(before, servers, tools);
      onReady(ready);
      const keptMs = kept ? undefined : await keep(before, servers, tools);
      const megabytes = Math.round((heldBytes(servers) + heldBytes(tools)) / 1e6);
      events.built?.({
        generation: before, servers: servers.text.size, tools: tools.text.size, milliseconds: Math.round(performance.now() - started), megabytes,
        from: kept ? 'snapshot' : 'catalog', ...(serversMs === undefined ? {} : { serversMs }), ...(keptMs === undefined ? {} : { keptMs }),
      });
      return ready;
    }
    return null;
  };

  /** The running build's indexes once they answer (before their snapshot is kept), or null if it fails. */
  let answering: Promise<MemoryIndexes | null> = Promise.resolve(null);
  const start = (): Promise<MemoryIndexes | null> => {
    if (!building) {
      let answer: (indexes: MemoryIndexes | null) => void = () => undefined;
      answering = new Promise((resolve) => (answer = resolve));
      building = build(answer)
        .catch((err: unknown) => {
          if (!closed) events.failed?.(err);
          return null;
        })
        .then((indexes) => {
          answer(indexes);
          return indexes;
        })
        .finally(() => (building = null));
    }
    return building;
  };

  /** The indexes if they were built for `generation`; otherwise null, and a rebuild starts. */
  const at = (generation: string): MemoryIndexes | null => {
    if (closed) return null;
    if (ready?.generation === generation) return ready;
    void start();
    return null;
  };

  return {
    name: 'memory',
    searchServers(query, generation) {
      const { terms, text } = query;
      if (query.sort !== 'relevance' || terms === null || text === null) return DECLINED;
      const indexes = at(generation);
      if (!indexes) return DECLINED;
      const { category, limit, offset } = query;
      return rowsOf(
        inSteps(terms, namePrefixOf(text), {
          byName: async (prefix) => found(terms, null, indexes.searchServers({ words: null, text: prefix, category, limit, offset })),
          byWords: async (words) => found(terms, words, indexes.searchServers({ words, text, category, limit, offset })),
          holds: async (prefixes) => indexes.serversHold(prefixes),
          vocabulary: async () => indexes.serverTerms,
        }),
        (page) => rowsOfPage<ServerRow, ServerSummary>(source.sql, page, SERVERS_BY_SEQ, toSummary),
      );
    },
    searchTools(query, generation) {
      const { terms, text } = query;
      if (query.sort !== 'relevance' || terms === null || text === null) return DECLINED;
      const indexes = at(generation);
      const toolTerms = indexes?.toolTerms;
      if (!indexes || !toolTerms) return DECLINED;
      const { authentication, limit, offset } = query;
      return rowsOf(
        inSteps(terms, null, {
          byWords: async (words) => found(terms, words, indexes.searchTools({ words, text, authentication, limit, offset })),
          holds: async (prefixes) => indexes.toolsHold(prefixes),
          vocabulary: async () => toolTerms,
        }),
        (page) => rowsOfPage<ToolRow, Tool>(source.sql, page, TOOLS_BY_SEQ, toTool),
      );
    },
    coverage(generation) {
      if (closed || ready?.generation !== generation) return 'sql';
      return ready.toolTerms === null ? 'servers' : 'memory';
    },
    warm: async () => !closed && (await start()) !== null,
    async serving() {
      if (closed) return false;
      void start();
      return (await answering) !== null;
    },
    close() {
      closed = true;
      ready = null;
    },
  };
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

/**
 * Builds the indexes of the catalog `source` reads, at `generation`, and keeps their snapshot
 * there. Ingest calls it inside its write's transaction (src/ingest/ingest-service.ts), so that
 * the instances following the write load the indexes once it commits, in about a second, instead
 * of each building its own while SQL answers their searches.
 */
export async function saveIndexSnapshot(source: SearchSource, generation: string): Promise<void> {
  const { snapshots } = source;
  if (!snapshots) throw new Error('this search source keeps no index snapshots');
  const tokenizer = new Unicode61();
  const from: BuildSource = { sql: source.sql, classify: source.classify, tokenizer, live: () => true };
  await snapshots.save(generation, snapshotFingerprint(), snapshotAsBuilt(() => buildServers(from), () => buildTools(from), tokenizer));
}
