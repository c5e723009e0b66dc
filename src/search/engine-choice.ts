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

/**
 * The first answer of `engines`, in order, at `generation` (null: none answered), told to
 * `observe`. At an unknown generation (null) only the engines that need none are asked: an engine
 * that says what it covers (the in-memory index) answers only at a known one.
 */
async function firstAnswer<Q, A>(engines: readonly SearchEngine[], kind: 'servers' | 'tools' | 'rank', query: Q, generation: string | null, search: (engine: SearchEngine, query: Q, generation: string) => Promise<A | null>, observe?: SearchObserver): Promise<A | null> {
  const started = performance.now();
  for (const engine of engines) {
    if (generation === null && engine.coverage !== undefined) continue;
    const answer = await search(engine, query, generation ?? '');
    if (answer) {
      observe?.(engine.name, kind, (performance.now() - started) / 1000);
      return answer;
    }
  }
  return null;
}

/** Searches through `engines`, of which the last (SQL) answers every search. */
export function searchThrough(engines: readonly SearchEngine[], observe?: SearchObserver): CatalogSearch {
  const last = engines[engines.length - 1];
  if (!last) throw new Error('search needs at least one engine');
  const ask = async <Q, A>(kind: 'servers' | 'tools', query: Q, generation: string | null, search: (engine: SearchEngine, query: Q, generation: string) => Promise<A | null>): Promise<A> => {
    const answer = await firstAnswer(engines, kind, query, generation, search, observe);
    if (answer === null) throw new Error(`the ${last.name} search engine gave no answer`);
    return answer;
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
 * a text without words), from the first of `engines` that answers; null when none does.
 */
export function rankedServers(engines: readonly SearchEngine[], limit: number, observe?: SearchObserver): (text: string, generation: string | null) => Promise<readonly number[] | null> {
  return async (text, generation) => {
    const parsed = parseQuery(text);
    if (parsed === null || parsed.terms === null) return [];
    const query = { terms: parsed.terms, text: parsed.text, category: null, trust: null, quality: null, sort: 'relevance' as const, limit, offset: 0 };
    return firstAnswer(engines, 'rank', query, generation, (engine, q, at) => engine.rankServers(q, at), observe);
  };
}
