/**
 * The search engines side by side: queries taken from a catalog's own text, and the checks that
 * the in-memory engine answers them with the same pages and totals as FTS5 (the reference), plus
 * its behaviour around catalog changes. test/integration/search-parity.test.ts runs them on the
 * committed fixture, search-index.test.ts on the full real data.
 */
import { expect } from 'chai';
import { ingest } from '../../src/ingest/ingest-service.js';
import type { ServerQuery, ToolQuery } from '../../src/search/engine.js';
import type { MemoryEngine } from '../../src/search/memory-engine.js';
import { parseQuery } from '../../src/search/query.js';
import type { SqlEngine } from '../../src/search/sql-search.js';
import { TAXONOMY } from '../../src/catalog/taxonomy.js';
import type { Store } from '../../src/store/index.js';

/** Words of catalog documents (JSON text), by how many times they occur (a tokenizer of the test's own). */
export function wordsOf(documents: Iterable<string>): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const text of documents) {
    for (const match of text.matchAll(/"(?:description|title|name)":\s*"((?:[^"\\]|\\.)*)"/g)) {
      for (const word of (match[1] ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** Every `step`-th of `items`. */
export const every = <T>(items: readonly T[], step: number): T[] => items.filter((_, i) => i % step === 0);

/** Whether a query holds anything but ASCII. */
export const nonAscii = (q: string): boolean => /[^\x00-\x7f]/.test(q);

/**
 * Queries from a catalog's words: frequent and rare words, typed prefixes, pairs, words in other
 * scripts or with diacritics, and `extra` ones.
 */
export function queriesOf(words: Array<[string, number]>, extra: readonly string[]): string[] {
  const plain = words.filter(([word]) => /^[a-z0-9]+$/.test(word)).map(([word]) => word);
  const other = words.filter(([word]) => !/^[a-z0-9]+$/.test(word)).map(([word]) => word);
  const queries = new Set<string>([
    ...plain.slice(0, 40),
    ...every(plain.slice(40, 2000), 25),
    ...every(plain.slice(2000), 400),
    ...every(plain.slice(0, 400), 10).filter((w) => w.length >= 5).flatMap((w) => [w.slice(0, 2), w.slice(0, 3), w.slice(0, 4)]),
    ...every(plain.slice(0, 600), 12).map((w, i) => `${w} ${plain[(i * 7 + 3) % 300] ?? 'mcp'}`),
    ...every(other, Math.max(1, Math.floor(other.length / 60))),
    ...extra,
  ]);
  return [...queries];
}

/**
 * Mistyped forms of frequent words (ranking.ts: TYPOS): a letter dropped, two swapped, one
 * changed; from 9 letters two of those at once.
 */
export function mistyped(words: Array<[string, number]>): string[] {
  const plain = words.map(([word]) => word).filter((word) => /^[a-z]{5,}$/.test(word));
  return every(plain.slice(0, 600), 6).flatMap((w, i) => {
    const dropped = w.slice(0, 2) + w.slice(3);
    const swapped = w.slice(0, 2) + (w[3] ?? '') + (w[2] ?? '') + w.slice(4);
    const changed = w.slice(0, 3) + (w[3] === 'x' ? 'q' : 'x') + w.slice(4);
    const one = [dropped, swapped, changed][i % 3] as string;
    return w.length >= 9 ? [one, one.slice(0, -2) + (one.at(-1) ?? '') + (one.at(-2) ?? '')] : [one];
  });
}

/** Reverse-DNS namespaces of a catalog's names (`io.github.someone`), and a few whole names. */
export function namespacesOf(documents: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const text of documents) for (const match of text.matchAll(/"name":\s*"([a-z0-9-]+(?:\.[a-z0-9-]+)+\/[^"]+)"/gi)) names.add((match[1] ?? '').toLowerCase());
  const sorted = [...names].sort();
  const namespaces = [...new Set(sorted.map((name) => name.split('/')[0] as string))];
  return [...every(namespaces, Math.max(1, Math.floor(namespaces.length / 20))), ...every(sorted, Math.max(1, Math.floor(sorted.length / 8))), 'io.github', 'ai.smithery'];
}

/** A relevance search for `q` (as the registry service parses it), first page unless told. */
export function serverQuery(q: string, extra: Partial<ServerQuery> = {}): ServerQuery {
  const parsed = parseQuery(q);
  return { terms: parsed?.terms ?? null, text: parsed?.text ?? null, category: null, trust: null, quality: null, sort: 'relevance', limit: 20, offset: 0, ...extra };
}

export function toolQuery(q: string, extra: Partial<ToolQuery> = {}): ToolQuery {
  const parsed = parseQuery(q);
  return { terms: parsed?.terms ?? null, text: parsed?.text ?? null, authentication: null, sort: 'relevance', limit: 20, offset: 0, ...extra };
}

/** A catalog ingested into a store, its two SQLite engines, and the queries drawn from its text. */
export interface ParitySubject {
  readonly store: Store;
  readonly memory: MemoryEngine;
  readonly fts5: SqlEngine;
  readonly queries: readonly string[];
}

export interface ParityExpectations {
  /** Queries drawn at least. */
  readonly queries: number;
  /** Of them in other scripts or with diacritics, at least. */
  readonly nonAscii: number;
}

/**
 * The in-memory engine against FTS5 on `subject()` (set up by the caller's `before`): the same
 * pages and totals for every query, with categories, deeper and longer pages, tool searches with
 * authentication filters; null where it does not answer; and its life across catalog changes
 * (the last check adds a server to the catalog).
 */
export function memoryMatchesFts5(subject: () => ParitySubject, expected: ParityExpectations): void {
  /**
   * The page each engine gives at the catalog's current generation. The in-memory engine declines
   * (null) only a word holding a character no indexed text has, which FTS5 cannot match either.
   */
  const servers = async (query: ServerQuery) => {
    const { store, memory, fts5 } = subject();
    const [fromMemory, fromFts5] = await Promise.all([memory.searchServers(query, await store.contentGeneration()), fts5.searchServers(query)]);
    if (fromMemory === null) expect({ query, total: fromFts5.total }, 'the in-memory engine declined a query FTS5 matches').to.deep.equal({ query, total: 0 });
    return { fromMemory: fromMemory ?? fromFts5, fromFts5, declined: fromMemory === null };
  };
  const ids = (page: { items: Array<{ id: string }>; total: number }) => ({ total: page.total, ids: page.items.map((item) => item.id) });

  it(`takes at least ${expected.queries} queries from the catalog, ${expected.nonAscii} of them in other scripts or with diacritics`, () => {
    const { queries } = subject();
    expect(queries.length).to.be.at.least(expected.queries);
    expect(queries.filter(nonAscii).length).to.be.at.least(expected.nonAscii);
  });

  it('gives the same server pages and totals as FTS5, for every query', async () => {
    const { queries } = subject();
    let matched = 0;
    let matchedNonAscii = 0;
    let declined = 0;
    for (const q of queries) {
      const found = await servers(serverQuery(q));
      expect({ q, ...ids(found.fromMemory) }).to.deep.equal({ q, ...ids(found.fromFts5) });
      if (found.fromFts5.total > 0) matched += 1;
      if (found.fromFts5.total > 0 && nonAscii(q)) matchedNonAscii += 1;
      if (found.declined) declined += 1;
    }
    expect(matched, 'most queries match something').to.be.greaterThan(queries.length * 0.8);
    expect(declined, 'the in-memory engine answers nearly every query').to.be.lessThan(queries.length * 0.05);
    expect(matchedNonAscii, 'queries in other scripts or with diacritics match').to.be.at.least(expected.nonAscii / 2);
  });

  it('ranks the servers of its pages by seq alone, as FTS5 does, for every query', async () => {
    const { store, memory, fts5, queries } = subject();
    const idOf = new Map((await store.searchSource.sql.all<{ seq: number; id: string }>('SELECT seq, id FROM servers')).map((row) => [Number(row.seq), row.id]));
    const at = await store.contentGeneration();
    let ranked = 0;
    for (const q of every(queries, 2)) {
      const query = serverQuery(q, { limit: 100 });
      const [page, fromMemory, fromFts5] = await Promise.all([fts5.searchServers(query), memory.rankServers(query, at), fts5.rankServers(query)]);
      const pageIds = page.items.map((item) => item.id);
      expect({ q, ids: fromFts5.map((seq) => idOf.get(seq)) }).to.deep.equal({ q, ids: pageIds });
      if (fromMemory !== null) expect({ q, ids: fromMemory.map((seq) => idOf.get(seq)) }).to.deep.equal({ q, ids: pageIds });
      if (pageIds.length > 0) ranked += 1;
    }
    expect(ranked, 'most queries rank some servers').to.be.greaterThan(every(queries, 2).length * 0.8);
  });

  it('agrees with a category, with trust=clean, on later pages and with long pages', async () => {
    const categories = TAXONOMY.map((c) => c.slug);
    for (const [i, q] of every(subject().queries, 3).entries()) {
      const category = categories[i % categories.length] ?? null;
      for (const extra of [{ category }, { trust: 'clean' as const }, { trust: 'clean' as const, category }, { offset: 20 }, { offset: 100, limit: 50 }, { limit: 100 }]) {
        const { fromMemory, fromFts5 } = await servers(serverQuery(q, extra));
        expect({ q, extra, ...ids(fromMemory) }).to.deep.equal({ q, extra, ...ids(fromFts5) });
      }
    }
  });

  it('gives the same tool pages and totals, with and without an authentication filter', async () => {
    const { store, memory, fts5, queries } = subject();
    const authentications = [null, 'none', 'api_key', 'oauth', 'unknown'] as const;
    let matched = 0;
    for (const [i, q] of queries.entries()) {
      const query = toolQuery(q, { authentication: authentications[i % authentications.length] ?? null, offset: i % 4 === 0 ? 20 : 0 });
      const [fromMemory, fromFts5] = await Promise.all([memory.searchTools(query, await store.contentGeneration()), fts5.searchTools(query)]);
      if (fromMemory === null) expect({ q, total: fromFts5.total }, 'the in-memory engine declined a query FTS5 matches').to.deep.equal({ q, total: 0 });
      expect({ q, ...ids(fromMemory ?? fromFts5) }).to.deep.equal({ q, ...ids(fromFts5) });
      if (fromFts5.total > 0) matched += 1;
    }
    expect(matched, 'many tool searches match something').to.be.greaterThan(queries.length * 0.3);
  });

  it('answers null for other sorts and for searches without words (the SQL engine answers those)', async () => {
    const { store, memory, fts5 } = subject();
    const at = await store.contentGeneration();
    expect(await memory.searchServers(serverQuery('github', { sort: 'a-z' }), at)).to.equal(null);
    expect(await memory.searchServers(serverQuery(''), at)).to.equal(null);
    expect(await memory.searchTools(toolQuery('create', { sort: 'z-a' }), at)).to.equal(null);
    expect((await fts5.searchServers(serverQuery('github', { sort: 'a-z' }))).total).to.be.greaterThan(0);
  });

  it('answers null at a generation it was not built for', async () => {
    const { store, memory } = subject();
    expect(await memory.searchServers(serverQuery('github'), `${await store.contentGeneration()}-other`)).to.equal(null);
    expect(await memory.searchServers(serverQuery('github'), await store.contentGeneration()), 'a generation that never was leaves it as it is').to.not.equal(null);
  });

  it('stays current when the monitor records a check (the catalog content did not change)', async () => {
    const { store, memory } = subject();
    const [server] = (await memory.searchServers(serverQuery('github'), await store.contentGeneration()))?.items ?? [];
    expect(server, 'the in-memory engine finds a server').to.not.equal(undefined);
    const generation = await store.contentGeneration(true);
    await store.monitor.recordCheck({
      serverId: server?.id ?? '', url: 'https://example.invalid/mcp', checkedAt: new Date().toISOString(), state: 'down',
      httpStatus: null, latencyMs: null, protocolVersion: null, toolCount: null, error: 'test',
    }, 5);
    expect(await store.contentGeneration(true), 'a check is not content').to.equal(generation);
    const after = await memory.searchServers(serverQuery('github'), await store.contentGeneration());
    expect(after?.items[0]?.id).to.equal(server?.id);
  });

  it('answers null once the catalog changes, and answers for the new catalog once warm() rebuilt it', async () => {
    const { store, memory, fts5 } = subject();
    const before = await memory.searchServers(serverQuery('zzqxsearchindex'), await store.contentGeneration());
    expect(before?.total).to.equal(0);
    const record = { name: 'io.github.example/zzqxsearchindex', description: 'A server only this test adds.', version: '1.0.0' };
    await ingest(store, [{ file: 'added.json', text: JSON.stringify({ servers: [{ server: record }] }) }]);
    const changed = await store.contentGeneration();
    expect(await memory.searchServers(serverQuery('zzqxsearchindex'), changed), 'stale: the SQL engine answers').to.equal(null);
    expect((await fts5.searchServers(serverQuery('zzqxsearchindex'))).total).to.equal(1);
    expect(await memory.warm()).to.equal(true);
    const rebuilt = await memory.searchServers(serverQuery('zzqxsearchindex'), await store.contentGeneration());
    expect(rebuilt?.items.map((s) => s.name)).to.deep.equal([record.name]);
  });
}

/** Requests phrased as people and agents phrase them: sentences, tasks, other languages and scripts. */
export const SENTENCE_QUERIES: readonly string[] = [
  'read my google calendar',
  'create github issues from my terminal',
  'I want to book flights and hotels for a trip to Paris next month',
  'convert pdf to text',
  'how do I query a postgres database from my agent?',
  'scraping websites and taking screenshots of pages',
  'send a message to a slack channel when a deploy fails',
  'enviar correo electrónico',
  'wettervorhersage für berlin',
  '天气',
  '天气预报',
  'ファイルを検索する',
  'The agent needs to look up the current weather for a city, convert the temperature to celsius, and then post a short summary to the team chat so that everyone knows whether the outdoor event can go ahead; it should also save the forecast to a spreadsheet.',
];
