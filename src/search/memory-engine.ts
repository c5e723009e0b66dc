/**
 * The in-memory search engine, on SQLite and PostgreSQL alike. FTS5 (or PostgreSQL's ts_rank)
 * has to score every match before it can keep a page, which is slow for a common word in a large
 * catalog; this engine holds the same words and weights next to what the
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
import type { Page, SearchCoverage, SearchEngine, ServerQuery, ToolQuery } from './engine.js';
import { buildServers, buildTools, type BuildSource } from './memory-build.js';
import { indexesFromSnapshot, snapshotAsBuilt, snapshotFingerprint, snapshotOf } from './index-snapshot.js';
import { indexBytes, indexesOf, type MemoryIndexes, type ServerDocs, type ToolDocs } from './memory-index.js';
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
  const current = new CurrentIndexes(source, committed, events);
  return {
    name: 'memory',
    searchServers(query, generation) {
      const { terms, text } = query;
      if (query.sort !== 'relevance' || terms === null || text === null) return DECLINED;
      const indexes = current.at(generation);
      if (!indexes) return DECLINED;
      return serverPage(indexes, source.sql, query, terms, text);
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

/** A relevance search of servers with words, by the match steps, answered from `indexes`. */
function serverPage(indexes: MemoryIndexes, sql: SqlRunner, query: ServerQuery, terms: readonly string[], text: string): Promise<Page<ServerSummary> | null> {
  const { category, limit, offset } = query;
  return rowsOf(
    inSteps(terms, namePrefixOf(text), {
      byName: async (prefix) => found(terms, null, indexes.searchServers({ words: null, text: prefix, category, limit, offset })),
      byWords: async (words) => found(terms, words, indexes.searchServers({ words, text, category, limit, offset })),
      holds: async (prefixes) => indexes.serversHold(prefixes),
      vocabulary: async () => indexes.serverTerms,
    }),
    (page) => rowsOfPage<ServerRow, ServerSummary>(sql, page, SERVERS_BY_SEQ, toSummary),
  );
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

/**
 * The engine's indexes: those of one content generation, loaded from its snapshot or built from
 * the catalog again (in the background) when a search asks at another.
 */
class CurrentIndexes {
  private readonly tokenizer = new Unicode61();
  private ready: MemoryIndexes | null = null;
  private building: Promise<MemoryIndexes | null> | null = null;
  /** The running build's indexes once they answer (before their snapshot is saved), or null if it fails. */
  private answering: Promise<MemoryIndexes | null> = Promise.resolve(null);
  private closed = false;

  constructor(
    private readonly source: SearchSource,
    private readonly committed: CommittedGeneration,
    private readonly events: Partial<MemoryEngineEvents>,
  ) {}

  /** The indexes if they were built for `generation`; otherwise null, and a rebuild starts. */
  at(generation: string): MemoryIndexes | null {
    if (this.closed) return null;
    if (this.ready?.generation === generation) return this.ready;
    void this.start();
    return null;
  }

  coverage(generation: string): SearchCoverage {
    if (this.closed || this.ready?.generation !== generation) return 'sql';
    return this.ready.toolTerms === null ? 'servers' : 'memory';
  }

  async warm(): Promise<boolean> {
    return !this.closed && (await this.start()) !== null;
  }

  async serving(): Promise<boolean> {
    if (this.closed) return false;
    void this.start();
    return (await this.answering) !== null;
  }

  close(): void {
    this.closed = true;
    this.ready = null;
  }

  /** The build under way, or a new one. */
  private start(): Promise<MemoryIndexes | null> {
    if (!this.building) {
      let answer: (indexes: MemoryIndexes | null) => void = () => undefined;
      this.answering = new Promise((resolve) => (answer = resolve));
      this.building = this.build(answer)
        .catch((err: unknown) => {
          if (!this.closed) this.events.failed?.(err);
          return null;
        })
        .then((indexes) => {
          answer(indexes);
          return indexes;
        })
        .finally(() => (this.building = null));
    }
    return this.building;
  }

  /**
   * Loads the snapshot of the current generation, or builds until a build starts and ends at the
   * same generation, tells `onReady` as soon as server searches answer, then saves a snapshot of
   * the whole index.
   */
  private async build(onReady: (indexes: MemoryIndexes) => void): Promise<MemoryIndexes | null> {
    for (let attempt = 0; attempt < BUILD_ATTEMPTS && !this.closed; attempt += 1) {
      const before = await this.committed();
      if (this.ready?.generation === before && this.ready.toolTerms !== null) return this.ready;
      // A stale index is never used again: let it go before the new one takes the memory.
      this.ready = null;
      const started = performance.now();
      let serversMs: number | undefined;
      const fromSnapshot = await this.loadSnapshot(before);
      const indexes = fromSnapshot ?? (await this.fromCatalog(before, (serving) => {
        this.ready = serving;
        onReady(serving);
        serversMs = Math.round(performance.now() - started);
      }));
      if (!indexes) continue;
      const { servers, tools } = indexes;
      this.ready = indexesOf(before, servers, tools);
      onReady(this.ready);
      const keptMs = fromSnapshot ? undefined : await this.saveSnapshot(before, servers, tools);
      this.events.built?.({
        generation: before, servers: servers.text.size, tools: tools.text.size, milliseconds: Math.round(performance.now() - started),
        megabytes: Math.round((indexBytes(servers) + indexBytes(tools)) / 1e6), from: fromSnapshot ? 'snapshot' : 'catalog',
        ...(serversMs === undefined ? {} : { serversMs }), ...(keptMs === undefined ? {} : { keptMs }),
      });
      return this.ready;
    }
    return null;
  }

  /** The indexes of `generation` from its snapshot, if one is saved (another instance, or an earlier start, built them). */
  private async loadSnapshot(generation: string): Promise<BuiltIndexes | null> {
    try {
      const stored = await this.source.snapshots?.find(generation, snapshotFingerprint());
      if (!stored) return null;
      try {
        return await indexesFromSnapshot(stored, this.tokenizer);
      } finally {
        await stored.close();
      }
    } catch (err) {
      if (!this.closed) this.events.snapshotFailed?.(err, 'read');
      return null;
    }
  }

  /** Saves a snapshot of indexes just built, for the next start and for the other instances; how long it took (ms). */
  private async saveSnapshot(generation: string, servers: ServerDocs, tools: ToolDocs): Promise<number> {
    const started = performance.now();
    try {
      await this.source.snapshots?.save(generation, snapshotFingerprint(), snapshotOf(servers, tools, this.tokenizer));
    } catch (err) {
      if (!this.closed) this.events.snapshotFailed?.(err, 'keep');
    }
    return Math.round(performance.now() - started);
  }

  /**
   * The indexes of `generation` read from the catalog, servers first: once they are indexed
   * `onServers` is told, so server searches answer from memory while the tools are indexed and
   * tool searches answer from SQL. Null when the catalog moved on meanwhile (a write makes the build moot).
   */
  private async fromCatalog(generation: string, onServers: (indexes: MemoryIndexes) => void): Promise<BuiltIndexes | null> {
    const from: BuildSource = { sql: this.source.sql, classify: this.source.classify, tokenizer: this.tokenizer, live: () => !this.closed };
    const moved = async (): Promise<boolean> => this.closed || (await this.committed()) !== generation;
    const servers = await buildServers(from);
    if (await moved()) return null;
    onServers(indexesOf(generation, servers, null));
    const tools = await buildTools(from);
    return (await moved()) ? null : { servers, tools };
  }
}

/** The two indexes of one generation. */
interface BuiltIndexes {
  readonly servers: ServerDocs;
  readonly tools: ToolDocs;
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
 * Builds the indexes of the catalog `source` reads, at `generation`, and saves their snapshot
 * there. Ingest calls it inside its write's transaction (src/ingest/ingest-service.ts), so that
 * the instances following the write load the indexes once it commits, instead of each building
 * its own while SQL answers their searches.
 */
export async function saveIndexSnapshot(source: SearchSource, generation: string): Promise<void> {
  const { snapshots } = source;
  if (!snapshots) throw new Error('this search source keeps no index snapshots');
  const tokenizer = new Unicode61();
  const from: BuildSource = { sql: source.sql, classify: source.classify, tokenizer, live: () => true };
  await snapshots.save(generation, snapshotFingerprint(), snapshotAsBuilt(() => buildServers(from), () => buildTools(from), tokenizer));
}
