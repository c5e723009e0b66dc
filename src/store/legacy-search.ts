/**
 * TEMPORARY (issue 21), to be removed when the registry service searches through the read
 * model: searches on the store's catalog as they were before the engines moved to src/search
 * (the in-memory engine while it is current, else the SQL engine), so that callers of
 * `store.catalog.searchServers` keep working meanwhile. It is the one place the store imports
 * src/search; it goes with `Store.warmSearchIndex` and the options `searchIndex` and
 * `searchIndexEvents`.
 */
import { createSqlEngine } from '../search/index.js';
import type { Page, ServerQuery, ToolQuery } from '../search/engine.js';
import { createMemoryEngine, type MemoryEngine, type MemoryEngineEvents } from '../search/memory-engine.js';
import type { ServerSummary, Tool } from '../types.js';
import type { CatalogSearchSource } from './search-source.js';

export type { MemoryEngineEvents as LegacySearchEvents } from '../search/memory-engine.js';

/** The searches the store's catalog offered. */
export interface LegacySearch {
  searchServers(query: ServerQuery): Promise<Page<ServerSummary>>;
  searchTools(query: ToolQuery): Promise<Page<Tool>>;
}

export interface LegacySearchEngines {
  readonly search: LegacySearch;
  warm(): Promise<boolean>;
  close(): void;
}

export function createLegacySearch(source: CatalogSearchSource, memory: boolean, events: Partial<MemoryEngineEvents> = {}): LegacySearchEngines {
  const sql = createSqlEngine(source);
  const inMemory: MemoryEngine | null = memory && source.sql.dialect === 'sqlite' ? createMemoryEngine(source, events) : null;
  const relevance = (query: ServerQuery | ToolQuery): boolean => inMemory !== null && query.sort === 'relevance' && query.terms !== null && query.text !== null;
  return {
    search: {
      async searchServers(query) {
        if (relevance(query)) {
          const found = await inMemory?.searchServers(query, await source.contentGeneration());
          if (found) return found;
        }
        return sql.searchServers(query);
      },
      async searchTools(query) {
        if (relevance(query)) {
          const found = await inMemory?.searchTools(query, await source.contentGeneration());
          if (found) return found;
        }
        return sql.searchTools(query);
      },
    },
    warm: async () => (await inMemory?.warm()) ?? false,
    close: () => inMemory?.close(),
  };
}
