/**
 * The choice of search engine, in one place: the engines in the order the composition root
 * gave them, each asked at the catalog's content generation until one answers. The in-memory
 * engine comes first where there is one and answers while it is current; the SQL engine last,
 * which always answers.
 */
import type { CatalogSearch, Page, SearchCoverage, SearchEngine } from './engine.js';

/**
 * `generation` is the catalog's content generation, null when it cannot be read: then only the
 * last engine (SQL, which needs no generation) is asked.
 */
export function searchThrough(engines: readonly SearchEngine[], generation: () => Promise<string | null>): CatalogSearch {
  const last = engines[engines.length - 1];
  if (!last) throw new Error('search needs at least one engine');
  const ask = async <Q, T>(query: Q, search: (engine: SearchEngine, query: Q, generation: string) => Promise<Page<T> | null>): Promise<Page<T>> => {
    const now = engines.length > 1 ? await generation() : null;
    for (const engine of engines) {
      if (now === null && engine !== last) continue;
      const page = await search(engine, query, now ?? '');
      if (page) return page;
    }
    throw new Error(`the ${last.name} search engine gave no answer`);
  };
  return {
    servers: (query) => ask(query, (engine, q, at) => engine.searchServers(q, at)),
    tools: (query) => ask(query, (engine, q, at) => engine.searchTools(q, at)),
    async coverage() {
      const now = await generation();
      const first = engines.find((engine) => engine.coverage !== undefined);
      return now === null || !first?.coverage ? 'sql' : first.coverage(now);
    },
  };
}
