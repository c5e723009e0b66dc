/**
 * The choice of search engine, in one place: the engines in the order the composition root
 * gave them, each asked at the content generation the read model read until one answers. The
 * in-memory engine comes first where there is one and answers while it is current; the SQL
 * engine last, which always answers.
 */
import type { CatalogSearch, SearchEngine } from './engine.js';
import { parseQuery } from './query.js';

/** Told of each search answered: the engine that answered, what was searched, and the seconds it took in all. */
export type SearchObserver = (engine: string, kind: 'servers' | 'tools' | 'rank', seconds: number) => void;

/** Searches through `engines`; at an unknown generation (null) only the last (SQL, which needs none) is asked. */
export function searchThrough(engines: readonly SearchEngine[], observe?: SearchObserver): CatalogSearch {
  const last = engines[engines.length - 1];
  if (!last) throw new Error('search needs at least one engine');
  const ask = async <Q, A>(kind: 'servers' | 'tools', query: Q, generation: string | null, search: (engine: SearchEngine, query: Q, generation: string) => Promise<A | null>): Promise<A> => {
    const started = performance.now();
    for (const engine of engines) {
      if (generation === null && engine !== last) continue;
      const page = await search(engine, query, generation ?? '');
      if (page) {
        observe?.(engine.name, kind, (performance.now() - started) / 1000);
        return page;
      }
    }
    throw new Error(`the ${last.name} search engine gave no answer`);
  };
  return {
    servers: (query, generation) => ask('servers', query, generation, (engine, q, at) => engine.searchServers(q, at)),
    tools: (query, generation) => ask('tools', query, generation, (engine, q, at) => engine.searchTools(q, at)),
    coverage(generation) {
      const first = engines.find((engine) => engine.coverage !== undefined);
      return generation === null || !first?.coverage ? 'sql' : first.coverage(generation);
    },
  };
}

/**
 * The seqs of the `limit` servers a relevance search for a text ranks first, best first (none for
 * a text without words), from the first of `engines` that answers at the content generation;
 * null when none does. At an unknown generation (null) only SQL engines are asked.
 */
export function rankedServers(engines: readonly SearchEngine[], limit: number, observe?: SearchObserver): (text: string, generation: string | null) => Promise<readonly number[] | null> {
  return async (text, generation) => {
    const parsed = parseQuery(text);
    if (parsed === null || parsed.terms === null) return [];
    const query = { terms: parsed.terms, text: parsed.text, category: null, trust: null, quality: null, sort: 'relevance' as const, limit, offset: 0 };
    const started = performance.now();
    for (const engine of engines) {
      // An engine that says what it covers (the in-memory index) answers only at a known generation.
      if (generation === null && engine.coverage !== undefined) continue;
      const seqs = await engine.rankServers(query, generation ?? '');
      if (seqs) {
        observe?.(engine.name, 'rank', (performance.now() - started) / 1000);
        return seqs;
      }
    }
    return null;
  };
}
