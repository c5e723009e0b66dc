/**
 * The search parity suite, on the fixture committed in test/fixtures/parity (a sample of the real
 * upstream data made by scripts/make-parity-fixture.ts, with text in other scripts, with
 * diacritics and emoji): it runs in every `npm test`, on a fresh clone too.
 *
 * On SQLite the in-memory engine must give the same pages, in the same order, and the same totals
 * as FTS5 for a few hundred queries (search-parity.ts). Under `npm run test:pg` the PostgreSQL
 * engine is compared with FTS5 as well, on totals and on the name tiers that lead each page only:
 * full order parity is not possible there, since ts_rank is not bm25 (ranking.ts), and
 * PostgreSQL's `simple` configuration neither folds diacritics nor splits words as unicode61 does,
 * so only queries of ASCII words that no folded word of the fixture could match are compared.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { ingest } from '../../src/ingest/ingest-service.js';
import { createFts5Engine } from '../../src/search/fts5-engine.js';
import { createMemoryEngine } from '../../src/search/memory-engine.js';
import { createPostgresEngine } from '../../src/search/postgres-engine.js';
import { NAME_TIERS } from '../../src/search/ranking.js';
import { editDistance, editsAllowed } from '../../src/search/typos.js';
import type { SqlEngine } from '../../src/search/sql-search.js';
import { createStore, type Store } from '../../src/store/index.js';
import { freshDatabase, freshSqliteFile, TEST_DIALECT, type TestDatabase } from '../support/database.js';
import { memoryMatchesFts5, mistyped, namespacesOf, nonAscii, queriesOf, SENTENCE_QUERIES, serverQuery, toolQuery, wordsOf, type ParitySubject } from '../support/search-parity.js';

const FIXTURE = ['official.json', 'docker.json', 'toolsdk.json'].map((file) => ({
  file,
  text: readFileSync(new URL(`../fixtures/parity/${file}`, import.meta.url), 'utf8'),
}));

/** Queries beyond the fixture's own words: names other tests search for, diacritics, emoji in the text. */
const EXTRA_QUERIES = ['github', 'google maps', 'hugging face', 'postgres', 'brave search', 'notion', 'café', 'München', 'e2e', 'mcp server', '🚨 alert', 'weather ✨'];

/** A SQLite catalog of the fixture, with its two engines. */
async function sqliteSubject(database: TestDatabase): Promise<ParitySubject> {
  const store = createStore(database.url);
  await store.migrate();
  await ingest(store, FIXTURE);
  const memory = createMemoryEngine(store.searchSource, () => store.contentGeneration(true));
  expect(await memory.warm(), 'the in-memory engine is built').to.equal(true);
  const texts = FIXTURE.map((input) => input.text);
  const words = wordsOf(texts);
  return { store, memory, fts5: createFts5Engine(store.searchSource), queries: queriesOf(words, [...EXTRA_QUERIES, ...SENTENCE_QUERIES, ...mistyped(words), ...namespacesOf(texts)]) };
}

describe('search engines on the committed fixture', function () {
  this.timeout(120_000);

  describe('the in-memory engine against FTS5', () => {
    let database: TestDatabase;
    let subject: ParitySubject;

    before(async () => {
      database = freshSqliteFile();
      subject = await sqliteSubject(database);
    });
    after(async () => {
      subject?.memory.close();
      await subject?.store.close();
      await database?.drop();
    });

    it('ingests a few hundred servers and their tools, some listed by several sources', async () => {
      const { sql } = subject.store.searchSource;
      const [counts] = await sql.all<{ servers: number; tools: number; merged: number }>(
        'SELECT (SELECT count(*) FROM servers) AS servers, (SELECT count(*) FROM tools) AS tools, (SELECT count(*) FROM servers WHERE source_count > 1) AS merged',
      );
      expect(counts?.servers).to.be.within(300, 1000);
      expect(counts?.tools).to.be.greaterThan(500);
      expect(counts?.merged).to.be.greaterThan(10);
    });

    memoryMatchesFts5(() => subject, { queries: 200, nonAscii: 20 });

    it('finds mistyped words through their typos, on both engines alike', async () => {
      const words = wordsOf(FIXTURE.map((input) => input.text));
      const at = await subject.store.contentGeneration();
      let found = 0;
      const typos = mistyped(words);
      for (const q of typos) {
        const [fromMemory, fromFts5] = await Promise.all([subject.memory.searchServers(serverQuery(q), at), subject.fts5.searchServers(serverQuery(q))]);
        expect({ q, ids: fromMemory?.items.map((s) => s.id), total: fromMemory?.total }).to.deep.equal({ q, ids: fromFts5.items.map((s) => s.id), total: fromFts5.total });
        if (fromFts5.total > 0) found += 1;
      }
      expect(typos.length).to.be.greaterThan(40);
      expect(found, 'most mistyped words find the servers of the word they stand for').to.be.greaterThan(typos.length * 0.8);
    });

    it('finds a namespace by the names under it, not by its words', async () => {
      const at = await subject.store.contentGeneration();
      const namespaces = namespacesOf(FIXTURE.map((input) => input.text));
      for (const q of namespaces) {
        const [fromMemory, fromFts5] = await Promise.all([subject.memory.searchServers(serverQuery(q), at), subject.fts5.searchServers(serverQuery(q))]);
        expect({ q, ids: fromMemory?.items.map((s) => s.id), total: fromMemory?.total }).to.deep.equal({ q, ids: fromFts5.items.map((s) => s.id), total: fromFts5.total });
        expect(fromFts5.total, q).to.be.greaterThan(0);
      }
      // `io.github` names hundreds of servers; `github` as a word matches only those whose text says it.
      const namespace = await subject.fts5.searchServers(serverQuery('io.github', { limit: 100 }));
      expect(namespace.items.every((s) => s.name.toLowerCase().startsWith('io.github'))).to.equal(true);
      const word = await subject.fts5.searchServers(serverQuery('github', { limit: 100 }));
      expect(word.total).to.be.lessThan(namespace.total);
    });
  });

  describe(`the PostgreSQL engine against FTS5${TEST_DIALECT === 'postgres' ? '' : ' (skipped: the suite runs on SQLite; npm run test:pg compares)'}`, () => {
    let pgDatabase: TestDatabase;
    let pgStore: Store;
    let postgres: SqlEngine;
    let sqliteDatabase: TestDatabase;
    let sqlite: ParitySubject;
    let comparable: string[];

    before(async function () {
      if (TEST_DIALECT !== 'postgres') this.skip();
      sqliteDatabase = freshSqliteFile();
      sqlite = await sqliteSubject(sqliteDatabase);
      pgDatabase = await freshDatabase();
      pgStore = createStore(pgDatabase.url);
      await pgStore.migrate();
      await ingest(pgStore, FIXTURE);
      postgres = createPostgresEngine(pgStore.searchSource);
      comparable = await comparableQueries(sqlite);
    });
    after(async () => {
      sqlite?.memory.close();
      await sqlite?.store.close();
      await sqliteDatabase?.drop();
      await pgStore?.close();
      await pgDatabase?.drop();
    });

    it('compares most queries of plain words', () => {
      expect(comparable.length).to.be.greaterThan(sqlite.queries.filter((q) => !nonAscii(q)).length * 0.6);
    });

    it('gives the same server totals, and the same servers in the name tiers that lead each page', async () => {
      const keys = await serverKeys(sqlite.store);
      let led = 0;
      for (const q of comparable) {
        for (const extra of [{}, { limit: 50 }]) {
          const query = serverQuery(q, extra);
          const [fromPostgres, fromFts5] = await Promise.all([postgres.searchServers(query), sqlite.fts5.searchServers(query)]);
          expect({ q, total: fromPostgres.total }).to.deep.equal({ q, total: fromFts5.total });
          const tierOf = (server: { id: string }): string | null => serverTier(keys, server.id, query.text ?? '');
          const tiers = nameTiers(fromFts5.items, tierOf);
          expect({ q, tiers: nameTiers(fromPostgres.items, tierOf) }).to.deep.equal({ q, tiers });
          if (tiers.length > 0) led += 1;
        }
      }
      expect(led, 'pages led by a name tier').to.be.greaterThan(20);
    });

    it('gives the same tool totals, with and without an authentication filter, and the same tools in the name tiers', async () => {
      const authentications = [null, 'none', 'api_key', 'oauth', 'unknown'] as const;
      let led = 0;
      for (const [i, q] of comparable.entries()) {
        const query = toolQuery(q, { authentication: authentications[i % authentications.length] ?? null, limit: 50 });
        const [fromPostgres, fromFts5] = await Promise.all([postgres.searchTools(query), sqlite.fts5.searchTools(query)]);
        expect({ q, total: fromPostgres.total }).to.deep.equal({ q, total: fromFts5.total });
        const tierOf = (tool: { name: string }): string | null => toolTier(tool.name, query.text ?? '');
        const tiers = nameTiers(fromFts5.items, tierOf);
        expect({ q, tiers: nameTiers(fromPostgres.items, tierOf) }).to.deep.equal({ q, tiers });
        if (tiers.length > 0) led += 1;
      }
      expect(led, 'pages led by a name tier').to.be.greaterThan(5);
    });
  });
});

/** What orders a server within the name tiers: its match names, source count and display name length. */
interface ServerKey {
  readonly matchNames: string;
  readonly sourceCount: number;
  readonly nameLength: number;
}

async function serverKeys(store: Store): Promise<Map<string, ServerKey>> {
  const rows = await store.searchSource.sql.all<{ id: string; match_names: string; source_count: number; sort_name: string }>('SELECT id, match_names, source_count, sort_name FROM servers');
  return new Map(rows.map((row) => [row.id, { matchNames: row.match_names, sourceCount: row.source_count, nameLength: [...row.sort_name].length }]));
}

/** The server's place in the name tiers for `text` (its tier, then more sources, then the shorter name), or null outside them. */
function serverTier(keys: Map<string, ServerKey>, id: string, text: string): string | null {
  const key = keys.get(id);
  if (!key) return null;
  const tier = key.matchNames.includes(`\n${text}\n`) ? NAME_TIERS.exact : key.matchNames.includes(`\n${text}`) ? NAME_TIERS.prefix : NAME_TIERS.none;
  return tier === NAME_TIERS.none ? null : `${tier}/${-key.sourceCount}/${key.nameLength}`;
}

function toolTier(name: string, text: string): string | null {
  const sortName = name.toLowerCase();
  return sortName === text ? `${NAME_TIERS.exact}` : sortName.startsWith(text) ? `${NAME_TIERS.prefix}` : null;
}

/**
 * The items a page leads with that are in a name tier, as groups of equal place (in page order,
 * each group's ids sorted: within a group the databases' own ranks decide, and those differ).
 * A group the page cuts short is left out, as the page may cut it elsewhere on the other engine.
 */
function nameTiers<T extends { id: string }>(items: readonly T[], tierOf: (item: T) => string | null): Array<{ place: string; ids: string[] }> {
  const groups: Array<{ place: string; ids: string[] }> = [];
  let index = 0;
  for (; index < items.length; index += 1) {
    const item = items[index] as T;
    const place = tierOf(item);
    if (place === null) break;
    const last = groups[groups.length - 1];
    if (last?.place === place) last.ids.push(item.id);
    else groups.push({ place, ids: [item.id] });
  }
  if (index === items.length && groups.length > 0) groups.pop();
  return groups.map((group) => ({ place: group.place, ids: group.ids.sort() }));
}

/**
 * The queries both databases match alike: only ASCII words (PostgreSQL's `simple` configuration
 * keeps diacritics and other scripts as they are), none of which is a prefix of a word of the
 * fixture that folds to ASCII only through unicode61 (`café` is `cafe` to FTS5 alone) or within
 * two edits of one, and that FTS5 matches (a query matching nothing compares trivially).
 */
async function comparableQueries(subject: ParitySubject): Promise<string[]> {
  const folded = wordsOf(FIXTURE.map((input) => input.text))
    .map(([word]) => word)
    .filter(nonAscii)
    .map((word) => word.normalize('NFD').replace(/\p{M}/gu, ''));
  const out: string[] = [];
  for (const q of subject.queries) {
    const terms = serverQuery(q).terms;
    if (nonAscii(q) || terms === null) continue;
    // A typo may stand for a folded word too (typos.ts): a term within its allowed edits of one is left out.
    if (terms.some((term) => folded.some((word) => word.includes(term) || (editsAllowed(term) > 0 && editDistance(term, word, editsAllowed(term)) <= editsAllowed(term))))) continue;
    if ((await subject.fts5.searchServers(serverQuery(q))).total === 0) continue;
    out.push(q);
  }
  return out;
}
