/**
 * The choice of search engine, in one place: the engines in the order the composition root
 * gave them, each asked at the content generation the read model read until one answers. The
 * in-memory engine comes first where there is one and answers while it is current; the SQL
 * engine last, which always answers.
 */
import type { CatalogSearch, Page, SearchEngine } from './engine.js';

/** Searches through `engines`; at an unknown generation (null) only the last (SQL, which needs none) is asked. */
export function searchThrough(engines: readonly SearchEngine[]): CatalogSearch {
  const last = engines[engines.length - 1];
  if (!last) throw new Error('search needs at least one engine');
  const ask = async <Q, T>(query: Q, generation: string | null, search: (engine: SearchEngine, query: Q, generation: string) => Promise<Page<T> | null>): Promise<Page<T>> => {
    for (const engine of engines) {
      if (generation === null && engine !== last) continue;
      const page = await search(engine, query, generation ?? '');
      if (page) return page;
    }
    throw new Error(`the ${last.name} search engine gave no answer`);
  };
  return {
    servers: (query, generation) => ask(query, generation, (engine, q, at) => engine.searchServers(q, at)),
    tools: (query, generation) => ask(query, generation, (engine, q, at) => engine.searchTools(q, at)),
    coverage(generation) {
      const first = engines.find((engine) => engine.coverage !== undefined);
      return generation === null || !first?.coverage ? 'sql' : first.coverage(generation);
    },
  };
}
