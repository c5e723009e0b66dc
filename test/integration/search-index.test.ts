/**
 * The in-memory search index (SQLite) against SQL, on the real upstream data: for hundreds of
 * queries taken from the data (frequent and rare words, typed prefixes, pairs, words in other
 * scripts and with diacritics, with a category, deeper pages) the index must give the same page
 * and total as FTS5, and say it answered. Also: a write makes the index stale at once (SQL
 * answers), and a rebuild brings it back.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ingest } from '../../src/ingest/ingest-service.js';
import { createStore, type Store, type ServerSearch, type ToolSearch } from '../../src/store/index.js';
import { parseQuery } from '../../src/registry/registry-service.js';
import { TAXONOMY } from '../../src/catalog/taxonomy.js';
import { freshSqliteFile, type TestDatabase } from '../support/database.js';

const DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const FILES = ['official-registry-v0.1-snapshot-2025-12.json', 'docker-mcp-catalog-servers.json', 'toolsdk-mcp-registry-servers.json'];
const available = FILES.every((file) => existsSync(`${DATA}${file}`));

/** Words of the data files, by how many times they occur (a tokenizer of the test's own). */
function wordsOfData(): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const file of FILES) {
    const text = readFileSync(`${DATA}${file}`, 'utf8');
    for (const match of text.matchAll(/"(?:description|title|name)":\s*"((?:[^"\\]|\\.)*)"/g)) {
      for (const word of (match[1] ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** Every `step`-th of `items`. */
const every = <T>(items: readonly T[], step: number): T[] => items.filter((_, i) => i % step === 0);

function queriesOf(words: Array<[string, number]>): string[] {
  const plain = words.filter(([word]) => /^[a-z0-9]+$/.test(word)).map(([word]) => word);
  const other = words.filter(([word]) => !/^[a-z0-9]+$/.test(word)).map(([word]) => word);
  const queries = new Set<string>([
    ...plain.slice(0, 40),
    ...every(plain.slice(40, 2000), 25),
    ...every(plain.slice(2000), 400),
    ...every(plain.slice(0, 400), 10).filter((w) => w.length >= 5).flatMap((w) => [w.slice(0, 2), w.slice(0, 3), w.slice(0, 4)]),
    ...every(plain.slice(0, 600), 12).map((w, i) => `${w} ${plain[(i * 7 + 3) % 300] ?? 'mcp'}`),
    ...every(other, Math.max(1, Math.floor(other.length / 60))),
    'github', 'google maps', 'hugging face', 'postgres', 'brave search', 'notion', 'café', 'München', 'e2e', 'mcp server',
  ]);
  return [...queries];
}

describe(`in-memory search index against SQL${available ? '' : ' (skipped: ../shared/data not found next to the checkout)'}`, function () {
  this.timeout(240_000);
  let database: TestDatabase;
  let indexed: Store;
  let sql: Store;
  let queries: string[];

  before(async function () {
    if (!available) this.skip();
    database = freshSqliteFile();
    indexed = createStore(database.url);
    sql = createStore(database.url, { searchIndex: false });
    await indexed.migrate();
    await ingest(indexed, FILES.map((file) => ({ file, text: readFileSync(`${DATA}${file}`, 'utf8') })));
    expect(await indexed.warmSearchIndex(), 'the index is built').to.equal(true);
    queries = queriesOf(wordsOfData());
  });
  after(async () => {
    await indexed?.close();
    await sql?.close();
    await database?.drop();
  });

  const serverSearch = (q: string, extra: Partial<ServerSearch> = {}): ServerSearch => {
    const parsed = parseQuery(q);
    return { terms: parsed?.terms ?? null, text: parsed?.text ?? null, category: null, sort: 'relevance', limit: 20, offset: 0, ...extra };
  };
  const toolSearch = (q: string, extra: Partial<ToolSearch> = {}): ToolSearch => {
    const parsed = parseQuery(q);
    return { terms: parsed?.terms ?? null, text: parsed?.text ?? null, authentication: null, sort: 'relevance', limit: 20, offset: 0, ...extra };
  };

  it('takes a few hundred queries from the data, some in other scripts or with diacritics', () => {
    expect(queries.length).to.be.greaterThan(250);
    expect(queries.filter((q) => /[^\x00-\x7f]/.test(q)).length).to.be.greaterThan(20);
  });

  it('gives the same server pages and totals as FTS5, for every query', async () => {
    let matched = 0;
    for (const q of queries) {
      const search = serverSearch(q);
      const [fromIndex, fromSql] = await Promise.all([indexed.catalog.searchServers(search), sql.catalog.searchServers(search)]);
      expect(fromSql.answeredBy, q).to.equal('sql');
      expect(fromIndex.answeredBy, q).to.equal('index');
      expect({ q, total: fromIndex.total, ids: fromIndex.items.map((s) => s.id) }).to.deep.equal({ q, total: fromSql.total, ids: fromSql.items.map((s) => s.id) });
      if (fromSql.total > 0) matched += 1;
    }
    expect(matched, 'most queries match something').to.be.greaterThan(queries.length * 0.8);
  });

  it('agrees with a category, on later pages and with long pages', async () => {
    const categories = TAXONOMY.map((c) => c.slug);
    for (const [i, q] of every(queries, 3).entries()) {
      for (const extra of [{ category: categories[i % categories.length] ?? null }, { offset: 20 }, { offset: 100, limit: 50 }, { limit: 100 }]) {
        const search = serverSearch(q, extra);
        const [fromIndex, fromSql] = await Promise.all([indexed.catalog.searchServers(search), sql.catalog.searchServers(search)]);
        expect({ q, extra, total: fromIndex.total, ids: fromIndex.items.map((s) => s.id) }).to.deep.equal({ q, extra, total: fromSql.total, ids: fromSql.items.map((s) => s.id) });
      }
    }
  });

  it('gives the same tool pages and totals, with and without an authentication filter', async () => {
    const authentications = [null, 'none', 'api_key', 'oauth', 'unknown'] as const;
    for (const [i, q] of queries.entries()) {
      const search = toolSearch(q, { authentication: authentications[i % authentications.length] ?? null, offset: i % 4 === 0 ? 20 : 0 });
      const [fromIndex, fromSql] = await Promise.all([indexed.catalog.searchTools(search), sql.catalog.searchTools(search)]);
      expect(fromIndex.answeredBy, q).to.equal('index');
      expect({ q, total: fromIndex.total, ids: fromIndex.items.map((t) => t.id) }).to.deep.equal({ q, total: fromSql.total, ids: fromSql.items.map((t) => t.id) });
    }
  });

  it('leaves other sorts and searches without words to SQL', async () => {
    const sorted = await indexed.catalog.searchServers(serverSearch('github', { sort: 'a-z' }));
    const listed = await indexed.catalog.searchServers(serverSearch(''));
    expect([sorted.answeredBy, listed.answeredBy]).to.deep.equal(['sql', 'sql']);
    expect(sorted.total).to.be.greaterThan(0);
  });

  it('stays in use when the monitor records a check (the catalog content did not change)', async () => {
    const [server] = (await indexed.catalog.searchServers(serverSearch('github'))).items;
    const generation = await indexed.generation(true);
    await indexed.monitor.recordCheck({
      serverId: server?.id ?? '', url: 'https://example.invalid/mcp', checkedAt: new Date().toISOString(), state: 'down',
      httpStatus: null, latencyMs: null, protocolVersion: null, toolCount: null, error: 'test',
    }, 5);
    expect(await indexed.generation(true), 'cached reads of status do see the check').to.not.equal(generation);
    const after = await indexed.catalog.searchServers(serverSearch('github'));
    expect([after.answeredBy, after.items[0]?.id]).to.deep.equal(['index', server?.id]);
  });

  it('is not used once the catalog changes, and is rebuilt for the new catalog', async () => {
    const before = await indexed.catalog.searchServers(serverSearch('zzqxsearchindex'));
    expect([before.answeredBy, before.total]).to.deep.equal(['index', 0]);
    const record = { name: 'io.github.example/zzqxsearchindex', description: 'A server only this test adds.', version: '1.0.0' };
    await ingest(indexed, [{ file: 'added.json', text: JSON.stringify({ servers: [{ server: record }] }) }]);
    const after = await indexed.catalog.searchServers(serverSearch('zzqxsearchindex'));
    expect([after.answeredBy, after.total], 'SQL answers while the index is stale').to.deep.equal(['sql', 1]);
    expect(await indexed.warmSearchIndex()).to.equal(true);
    const rebuilt = await indexed.catalog.searchServers(serverSearch('zzqxsearchindex'));
    expect([rebuilt.answeredBy, rebuilt.items.map((s) => s.name)]).to.deep.equal(['index', [record.name]]);
  });
});
