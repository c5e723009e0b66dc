/**
 * One interface for every search engine (SQLite FTS5, PostgreSQL, in-memory). The read model
 * (src/read) asks its engines in the order the composition root chose, and the first that can
 * answer a query at the catalog's current content generation does. Every engine implements the
 * ranking rules stated once in ./ranking.ts.
 */
import type { Authentication, ServerSort, ServerSummary, Tool, ToolSort } from '../types.js';

/** A server search, parsed (./query.ts): words each matched as a prefix, the normalized text for name tiers. */
export interface ServerQuery {
  /** The query's words; null lists every server. */
  readonly terms: readonly string[] | null;
  /** The normalized query text; null without a query. */
  readonly text: string | null;
  readonly category: string | null;
  /** `clean`: only servers whose tools were scanned with no serious finding and have not changed since first seen. */
  readonly trust: 'clean' | null;
  /** Only servers without a quality flag (`unflagged`) or with one (`flagged`); null: all, the flagged ones after (ranking.ts). */
  readonly quality: QualityFilter | null;
  readonly sort: ServerSort;
  readonly limit: number;
  readonly offset: number;
}

/**
 * What `trust=clean` admits, as SQL over `servers s`: tools listed and scanned with no finding of
 * medium or high severity (a count that is null while no tools are listed), none changed since
 * first seen. Every engine reads it (the in-memory one when it builds its index).
 */
export const CLEAN_SERVER = 's.tool_findings = 0 AND s.tools_changed_at IS NULL';

/** The quality filter of a server search (the contract's `quality` parameter). */
export type QualityFilter = 'unflagged' | 'flagged';

/** What a quality filter admits, as SQL over `servers s` (the in-memory engine reads `flagged` when it builds its index). */
export const QUALITY_FILTER: Readonly<Record<QualityFilter, string>> = { unflagged: 's.flagged = 0', flagged: 's.flagged = 1' };

export interface ToolQuery {
  readonly terms: readonly string[] | null;
  readonly text: string | null;
  readonly authentication: Authentication | null;
  readonly sort: ToolSort;
  readonly limit: number;
  readonly offset: number;
}

/** One page of results and the number of all matches. */
export interface Page<T> {
  readonly items: T[];
  readonly total: number;
  /** In a search with words, the words it matched on (ranking.ts: MATCHING_STRATEGY); each item says which it holds. */
  readonly terms?: readonly string[];
}

export type EngineName = 'fts5' | 'postgres' | 'memory';

export interface SearchEngine {
  readonly name: EngineName;
  /**
   * How it orders by relevance: FTS5's bm25 (which the in-memory index computes exactly as FTS5
   * does, so the two agree on every order) or PostgreSQL's ts_rank.
   */
  readonly scoring: 'bm25' | 'ts_rank';
  /**
   * A page of servers, or null when this engine cannot answer this query at `generation` (the
   * in-memory engine: not built for it yet, or not a relevance search with words): the next
   * engine answers then. SQL engines always answer.
   */
  searchServers(query: ServerQuery, generation: string): Promise<Page<ServerSummary> | null>;
  searchTools(query: ToolQuery, generation: string): Promise<Page<Tool> | null>;
  /**
   * The seqs (rows of `servers`) of the page `searchServers` would give, in its order, without
   * reading the rows: for a caller that holds what it needs of each server. Null as there.
   */
  rankServers(query: ServerQuery, generation: string): Promise<readonly number[] | null>;
  /** Builds what the engine holds for the catalog as it is now (in-memory: its index); whether it is ready. */
  warm?(): Promise<boolean>;
  /** As `warm`, but resolves once the engine answers, before work that can follow it (the in-memory index's snapshot). */
  serving?(): Promise<boolean>;
  /** What it answers at `generation` (an engine without it answers every search it is asked). */
  coverage?(generation: string): SearchCoverage;
  close?(): void;
}

/**
 * What answers relevance searches: `memory`, an in-memory index of servers and tools; `servers`,
 * one of servers only (its tools are being indexed); `sql`, the database's own search.
 */
export type SearchCoverage = 'memory' | 'servers' | 'sql';

/**
 * Searches as the services ask them: a page, from the first engine that answers at `generation`
 * (src/search/engine-choice.ts), the content generation the read model read (null: unknown).
 */
export interface CatalogSearch {
  servers(query: ServerQuery, generation: string | null): Promise<Page<ServerSummary>>;
  tools(query: ToolQuery, generation: string | null): Promise<Page<Tool>>;
  /** What answers relevance searches at `generation` (`/readyz` says it). */
  coverage(generation: string | null): SearchCoverage;
}
