/**
 * Snapshots of the in-memory engine's indexes (src/search/index-snapshot.ts, kept by
 * src/store/search-snapshots.ts), on the database under test: an engine that starts on a catalog
 * another engine has indexed loads the snapshot instead of building, answers every query of the
 * parity fixture exactly as an engine built from the catalog does, and never uses a snapshot of
 * another generation, of other code, or one that is not whole.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { ingest } from '../../src/ingest/ingest-service.js';
import { createMemoryEngine, type MemoryEngine, type MemoryEngineEvents } from '../../src/search/memory-engine.js';
import { createStore, type Store } from '../../src/store/index.js';
import { freshDatabase, TEST_DIALECT, type TestDatabase } from '../support/database.js';
import { every, mistyped, queriesOf, serverQuery, toolQuery, wordsOf } from '../support/search-parity.js';
import { TAXONOMY } from '../../src/catalog/taxonomy.js';
import { snapshotAsBuilt, snapshotFingerprint } from '../../src/search/index-snapshot.js';
import { buildServers, buildTools } from '../../src/search/memory-build.js';
import { Unicode61 } from '../../src/search/unicode61.js';

const FIXTURE = ['official.json', 'docker.json', 'toolsdk.json'].map((file) => ({
  file,
  text: readFileSync(new URL(`../fixtures/parity/${file}`, import.meta.url), 'utf8'),
}));

type Built = Parameters<MemoryEngineEvents['built']>[0];

/** An engine on `store` that records where its indexes came from and what went wrong with snapshots. */
function engineOn(store: Store, options: { snapshots?: boolean } = {}) {
  const built: Built[] = [];
  const snapshotFailures: string[] = [];
  const source = options.snapshots === false ? { ...store.searchSource, snapshots: undefined } : store.searchSource;
  const engine = createMemoryEngine(source, () => store.contentGeneration(true), {
    built: (stats) => built.push(stats),
    snapshotFailed: (err, doing) => snapshotFailures.push(`${doing}: ${err instanceof Error ? err.message : String(err)}`),
  });
  return { engine, built, snapshotFailures };
}

describe('search index snapshots', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let store: Store;
  const engines: MemoryEngine[] = [];
  const started = (store: Store, options: { snapshots?: boolean } = {}) => {
    const made = engineOn(store, options);
    engines.push(made.engine);
    return made;
  };
  const snapshotRows = async () => {
    const [row] = await store.searchSource.sql.all<{ headers: number | string; parts: number | string }>(
      'SELECT (SELECT count(*) FROM search_snapshots) AS headers, (SELECT count(*) FROM search_snapshot_parts) AS parts',
    );
    return { headers: Number(row?.headers), parts: Number(row?.parts) };
  };

  /** An engine that loads the kept snapshot (it must, not build), and one that builds from the catalog, both warm. */
  const loadedBesideBuilt = async () => {
    const next = started(store);
    const built = started(store, { snapshots: false });
    expect(await next.engine.warm()).to.equal(true);
    expect(await built.engine.warm()).to.equal(true);
    expect(next.built.map((b) => ({ from: b.from, servers: b.servers, tools: b.tools }))).to.deep.equal([
      { from: 'snapshot', servers: built.built[0]?.servers, tools: built.built[0]?.tools },
    ]);
    return { next: next.engine, built: built.engine };
  };

  before(async () => {
    database = await freshDatabase();
    store = createStore(database.url);
    await store.migrate();
    await ingest(store, FIXTURE);
  });
  after(async () => {
    for (const engine of engines) engine.close();
    await store?.close();
    await database?.drop();
  });

  it('keeps a snapshot when it builds from the catalog, and a second engine loads it instead of building', async () => {
    expect(await snapshotRows()).to.deep.equal({ headers: 0, parts: 0 });
    const first = started(store);
    expect(await first.engine.warm()).to.equal(true);
    expect(first.built.map((b) => b.from)).to.deep.equal(['catalog']);
    expect(first.snapshotFailures).to.deep.equal([]);
    const kept = await snapshotRows();
    expect(kept.headers).to.equal(1);
    expect(kept.parts, 'one row per section at least').to.be.at.least(20);

    const second = started(store);
    expect(await second.engine.warm()).to.equal(true);
    expect(second.built.map((b) => ({ from: b.from, servers: b.servers, tools: b.tools }))).to.deep.equal([
      { from: 'snapshot', servers: first.built[0]?.servers, tools: first.built[0]?.tools },
    ]);
    expect(second.snapshotFailures).to.deep.equal([]);
  });

  it('answers every query of the fixture as an engine built from the catalog does, page for page', async () => {
    const loaded = started(store);
    const built = started(store, { snapshots: false });
    expect(await loaded.engine.warm()).to.equal(true);
    expect(await built.engine.warm()).to.equal(true);
    expect(loaded.built[0]?.from).to.equal('snapshot');
    expect(built.built[0]?.from).to.equal('catalog');
    const words = wordsOf(FIXTURE.map((input) => input.text));
    const queries = queriesOf(words, ['github', 'café', 'München', '🚨 alert', ...mistyped(words)]);
    expect(queries.length).to.be.at.least(200);
    const at = await store.contentGeneration();
    const categories = TAXONOMY.map((c) => c.slug);
    const authentications = [null, 'none', 'api_key', 'oauth', 'unknown'] as const;
    let matched = 0;
    for (const [i, q] of queries.entries()) {
      const servers = [serverQuery(q), serverQuery(q, { offset: 20 }), ...(i % 3 === 0 ? [serverQuery(q, { category: categories[i % categories.length] ?? null })] : [])];
      for (const query of servers) {
        const [a, b] = await Promise.all([loaded.engine.searchServers(query, at), built.engine.searchServers(query, at)]);
        expect({ q, query, page: a }).to.deep.equal({ q, query, page: b });
        if ((b?.total ?? 0) > 0) matched += 1;
      }
      const tools = toolQuery(q, { authentication: authentications[i % authentications.length] ?? null });
      const [a, b] = await Promise.all([loaded.engine.searchTools(tools, at), built.engine.searchTools(tools, at)]);
      expect({ q, page: a }).to.deep.equal({ q, page: b });
    }
    expect(matched, 'most queries match something').to.be.greaterThan(queries.length * 0.8);
    for (const q of every(queries, 50)) expect(await loaded.engine.searchServers(serverQuery(q), at)).to.not.equal(null);
  });

  it(`reads a snapshot on a connection of its own and closes it once read${TEST_DIALECT === 'sqlite' ? '' : ' (skipped: SQLite only)'}`, async function () {
    if (TEST_DIALECT !== 'sqlite') this.skip();
    const loaded = started(store);
    expect(await loaded.engine.warm()).to.equal(true);
    expect(loaded.built.map((b) => b.from)).to.deep.equal(['snapshot']);
    // SQLite leaves WAL mode only when no other connection has the file open: a reader left
    // open would keep it in WAL (and a first ingest out of its rollback journal).
    const { sql } = store.searchSource;
    expect(await sql.all('PRAGMA journal_mode = DELETE')).to.deep.equal([{ journal_mode: 'delete' }]);
    expect(await sql.all('PRAGMA journal_mode = WAL')).to.deep.equal([{ journal_mode: 'wal' }]);
  });

  it('is kept by a write that changes the catalog, in its transaction: engines load it at the new generation, and the older one goes', async () => {
    const before = await store.contentGeneration(true);
    const [older] = await store.searchSource.sql.all<{ generation: string }>('SELECT generation FROM search_snapshots');
    expect(before.endsWith(`:${older?.generation}`)).to.equal(true);
    const summary = await ingest(store, [{ file: 'official-small.json', text: readFileSync(new URL('../fixtures/official-small.json', import.meta.url), 'utf8') }]);
    expect(summary.added + summary.updated).to.be.greaterThan(0);
    const now = await store.contentGeneration(true);
    expect(now).to.not.equal(before);
    const [header] = await store.searchSource.sql.all<{ generation: string }>('SELECT generation FROM search_snapshots');
    expect(await snapshotRows()).to.include({ headers: 1 });
    expect(now.endsWith(`:${header?.generation}`), `${now} is kept as ${header?.generation}`).to.equal(true);
    // Loaded, never built: the writer built it from what it had written, before its commit.
    const { next, built } = await loadedBesideBuilt();
    const at = await store.contentGeneration();
    const words = wordsOf(FIXTURE.map((input) => input.text));
    for (const q of every(queriesOf(words, ['github', ...mistyped(words)]), 40)) {
      expect({ q, page: await next.searchServers(serverQuery(q), at) }).to.deep.equal({ q, page: await built.searchServers(serverQuery(q), at) });
      expect({ q, page: await next.searchTools(toolQuery(q), at) }).to.deep.equal({ q, page: await built.searchTools(toolQuery(q), at) });
    }
    // A run that changes nothing keeps the generation, and so the snapshot.
    const again = await ingest(store, [{ file: 'official-small.json', text: readFileSync(new URL('../fixtures/official-small.json', import.meta.url), 'utf8') }]);
    expect(again).to.include({ added: 0, updated: 0 });
    expect(await store.contentGeneration(true)).to.equal(now);
    expect(await store.searchSource.sql.all('SELECT generation FROM search_snapshots')).to.deep.equal([header]);
  });

  it('writes the servers\' sections before it builds the tools\' index, so a write holds one index at a time; the snapshot so written loads', async () => {
    const source = store.searchSource;
    const tokenizer = new Unicode61();
    const from = { sql: source.sql, classify: source.classify, tokenizer, live: () => true };
    const written: string[] = [];
    let writtenBeforeTools: string[] | null = null;
    const snapshot = snapshotAsBuilt(
      () => buildServers(from),
      async () => {
        writtenBeforeTools = [...written];
        return buildTools(from);
      },
      tokenizer,
    );
    // The store asks for a section once it has written the one before.
    const recorded = async function* () {
      for await (const section of snapshot.sections) {
        yield section;
        written.push(section.name);
      }
    };
    await source.snapshots?.save(await store.contentGeneration(true), snapshotFingerprint(), { sections: recorded(), manifest: () => snapshot.manifest() });
    const serverSections = written.filter((name) => name.startsWith('servers.'));
    expect(serverSections).to.include.members(['servers.text.postings', 'servers.names.names', 'servers.idRank']);
    expect(writtenBeforeTools).to.deep.equal(serverSections);
    expect(written.filter((name) => name.startsWith('tools.'))).to.include('tools.text.postings');
    const manifest = JSON.parse(snapshot.manifest()) as { sections: Array<{ name: string }> };
    expect(manifest.sections.map((section) => section.name)).to.deep.equal(written);

    const { next, built } = await loadedBesideBuilt();
    const at = await store.contentGeneration();
    for (const q of ['github', 'file', 'search']) {
      expect({ q, page: await next.searchTools(toolQuery(q), at) }).to.deep.equal({ q, page: await built.searchTools(toolQuery(q), at) });
    }
  });

  it('builds from the catalog when the snapshot is not whole, and says why', async () => {
    const { sql } = store.searchSource;
    const [part] = await sql.all<{ section: string }>("SELECT section FROM search_snapshot_parts WHERE section = 'tools.text.postings' AND piece = 0");
    expect(part?.section).to.equal('tools.text.postings');
    await sql.all("DELETE FROM search_snapshot_parts WHERE section = 'tools.text.postings'");
    const engine = started(store);
    expect(await engine.engine.warm()).to.equal(true);
    expect(engine.built.map((b) => b.from)).to.deep.equal(['catalog']);
    expect(engine.snapshotFailures).to.have.length(1);
    expect(engine.snapshotFailures[0]).to.match(/^read: search index snapshot section tools\.text\.postings holds 0 of its \d+ bytes$/);
    // The build kept a whole snapshot in its place, and let the broken one go.
    expect(await snapshotRows()).to.include({ headers: 1 });
    const after = started(store);
    expect(await after.engine.warm()).to.equal(true);
    expect(after.built.map((b) => b.from)).to.deep.equal(['snapshot']);
  });

  it('does not use a snapshot made by other code or under another schema', async () => {
    const { sql } = store.searchSource;
    await sql.all("UPDATE search_snapshots SET fingerprint = 'another build:011-registry-versions'");
    const engine = started(store);
    expect(await engine.engine.warm()).to.equal(true);
    expect(engine.built.map((b) => b.from)).to.deep.equal(['catalog']);
    expect(engine.snapshotFailures).to.deep.equal([]);
    // Keeping its own let the other code's snapshot go.
    expect(await snapshotRows()).to.include({ headers: 1 });
  });

  it('answers while the snapshot of its indexes is still being kept', async () => {
    const { sql } = store.searchSource;
    await sql.all('DELETE FROM search_snapshot_parts');
    await sql.all('DELETE FROM search_snapshots');
    const { snapshots } = store.searchSource;
    if (!snapshots) throw new Error('the store keeps snapshots');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let saving: () => void = () => undefined;
    const savingStarted = new Promise<void>((resolve) => (saving = resolve));
    const slow = { ...snapshots, save: async (...args: Parameters<typeof snapshots.save>) => {
      saving();
      await held;
      return snapshots.save(...args);
    } };
    const engine = createMemoryEngine({ ...store.searchSource, snapshots: slow }, () => store.contentGeneration(true));
    engines.push(engine);
    expect(await engine.serving()).to.equal(true);
    await savingStarted;
    const at = await store.contentGeneration();
    const page = await engine.searchServers(serverQuery('github'), at);
    expect(page?.total, 'it answers meanwhile').to.be.greaterThan(0);
    const tools = await engine.searchTools(toolQuery('search'), at);
    expect(tools?.total, 'tool searches too').to.be.greaterThan(0);
    expect(await snapshotRows()).to.deep.equal({ headers: 0, parts: 0 });
    release();
    expect(await engine.warm()).to.equal(true);
    expect(await snapshotRows()).to.include({ headers: 1 });
  });

  it('answers server searches once the servers are indexed, and tool searches once the tools are too', async () => {
    const { sql } = store.searchSource;
    await sql.all('DELETE FROM search_snapshot_parts');
    await sql.all('DELETE FROM search_snapshots');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let toolsAsked = false;
    // The build reads the tools' words from tools_fts: held there, it has indexed the servers only.
    const holding = { ...sql, all: async <Row>(query: string, bindings?: Parameters<typeof sql.all>[1]): Promise<Row[]> => {
      if (/\bFROM tools_fts\b/.test(query)) {
        toolsAsked = true;
        await held;
      }
      return sql.all<Row>(query, bindings);
    } };
    const built: Built[] = [];
    const engine = createMemoryEngine({ ...store.searchSource, sql: holding }, () => store.contentGeneration(true), { built: (stats) => built.push(stats) });
    engines.push(engine);
    const at = await store.contentGeneration();
    expect(engine.coverage(at), 'before its build').to.equal('sql');
    expect(await engine.serving()).to.equal(true);
    expect(toolsAsked, 'the tools are being indexed').to.equal(true);
    expect(engine.coverage(at)).to.equal('servers');
    const servers = await engine.searchServers(serverQuery('github'), at);
    expect(servers?.total, 'server searches answer from memory meanwhile').to.be.greaterThan(0);
    expect(await engine.searchTools(toolQuery('search'), at), 'tool searches are left to SQL meanwhile').to.equal(null);
    expect(built, 'not built yet').to.deep.equal([]);
    release();
    expect(await engine.warm()).to.equal(true);
    const tools = await engine.searchTools(toolQuery('search'), at);
    expect(tools?.total, 'tool searches answer from memory once the tools are indexed').to.be.greaterThan(0);
    expect(engine.coverage(at)).to.equal('memory');
    expect(engine.coverage('another generation'), 'at another generation').to.equal('sql');
    expect(built.map((b) => b.from)).to.deep.equal(['catalog']);
    expect(built[0]?.serversMs).to.be.a('number');
    expect(await snapshotRows()).to.include({ headers: 1 });
  });
});
