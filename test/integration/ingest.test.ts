/** Ingest: idempotence, all-or-nothing failure, merges across sources, no secret stored or served. */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { attachEndpointTools, ingest } from '../../src/ingest/ingest-service.js';
import { catalogName, hashOf } from '../../src/ingest/materialize.js';
import { IngestError } from '../../src/ingest/upstream.js';
import type { IngestInput } from '../../src/ingest/detect.js';
import { openDatabase, rowsOf } from '../../src/store/db.js';
import type { CatalogWriter, ServerWrite, Store } from '../../src/store/index.js';
import { CANARIES } from '../support/canaries.js';
import { catalogIdentityOf } from '../support/catalog-contents.js';
import { TEST_DIALECT } from '../support/database.js';
import { fixture, startHarness, type Harness } from '../support/harness.js';

const FIXTURES = ['official-small.json', 'docker-small.json', 'toolsdk-small.json'];

/** Everything a client can see of the catalog, for before/after comparisons. */
async function snapshot(h: Harness): Promise<unknown> {
  const { body: page } = await h.request('/api/v1/servers/search?limit=100&sort=a-z');
  const servers = await Promise.all(page.items.map(async (s: { id: string }) => (await h.request(`/api/v1/servers/${encodeURIComponent(s.id)}`)).body));
  const tools = (await h.request('/api/v1/tools/search?limit=100')).body;
  const categories = (await h.request('/api/v1/categories')).body;
  return { total: page.total, servers, tools, categories };
}

/** An official-registry list entry for `server` (schema and registry metadata added). */
function officialRecord(server: Record<string, unknown>): unknown {
  return {
    server: { $schema: 'https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json', version: '1.0.0', ...server },
    _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: '2025-05-01T00:00:00Z', updatedAt: '2025-05-01T00:00:00Z', isLatest: true } },
  };
}

/** The store with its catalog writer altered by `alter` (a failure planted, a write watched or batched). */
function withWriter(store: Store, alter: (writer: CatalogWriter) => Partial<CatalogWriter>): Store {
  return { ...store, withCatalogWriter: (work) => store.withCatalogWriter((writer) => work({ ...writer, ...alter(writer) })) };
}

/** The store with one method of its catalog writer failing. */
function failingAt(store: Store, method: 'countTools' | 'refreshDuplicates'): Store {
  return withWriter(store, () => ({ [method]: async () => { throw new Error('disk on fire'); } }));
}

describe('ingest', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ demo: false });
  });
  afterEach(async () => h.close());

  it('reports a second run of the same files as all unchanged and changes nothing, not even the content generation', async () => {
    const { store } = h.service;
    const empty = await store.contentGeneration(true);
    const first = await ingest(store, FIXTURES.map(fixture));
    expect(first).to.include({ added: 6, updated: 0, unchanged: 0, servers: 6 });
    const written = await store.contentGeneration(true);
    expect(written).to.not.equal(empty);
    const before = await snapshot(h);
    const second = await ingest(store, FIXTURES.map(fixture));
    expect(second).to.include({ added: 0, updated: 0, unchanged: 6, servers: 6, records: first.records });
    expect(await snapshot(h)).to.deep.equal(before);
    // Every instance keeps its answers and its search index: the generation they follow (this
    // process's writes, and the committed one every process reads) stays.
    expect(await store.contentGeneration(true)).to.equal(written);
  });

  it('keeps each source record with the hash of its normalized record and upstream document, made where it was read', async () => {
    await ingest(h.service.store, FIXTURES.map(fixture));
    const db = openDatabase(h.database.url);
    try {
      const rows = rowsOf<{ record: string; normalized: string; record_hash: string }>(await db.raw('SELECT record, normalized, record_hash FROM sources'));
      expect(rows).to.have.length.greaterThan(5);
      // Re-ingest compares these: they must be hashOf([server, raw]) of what is stored.
      for (const row of rows) expect(row.record_hash).to.equal(hashOf([JSON.parse(row.normalized), JSON.parse(row.record)]));
    } finally {
      await db.destroy();
    }
  });

  it('writes the same catalog from files streamed off disk in batches of one record as from texts in one batch', async () => {
    const first = await ingest(h.service.store, FIXTURES.map((name) => ({ file: name, path: fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)) })), { batchSize: 1 });
    expect(first).to.include({ added: 6, updated: 0, unchanged: 0, servers: 6 });
    const before = await snapshot(h);
    const again = await ingest(h.service.store, FIXTURES.map(fixture));
    expect(again).to.include({ added: 0, updated: 0, unchanged: 6, servers: 6, records: first.records });
    expect(await snapshot(h)).to.deep.equal(before);
  });

  it('places a first load by the names and ids its earlier batches wrote, as one batch places it', async () => {
    // Two toolsdk names of one id (`twin-mcp`: the second by name gets `twin-mcp-2`), and a Docker
    // and a toolsdk record of one name that merge by it alone: in batches of one record, each is
    // placed by what the earlier batches wrote (src/ingest/first-load-filter.ts asks only about that).
    const toolsdk = (key: string, packageName: string, description: string): unknown => ({ type: 'mcp-server', name: key, packageName, description, _toolsdk: { key, category: 'other' }, tools: [] });
    const inputs: IngestInput[] = [
      { file: 'docker.json', text: JSON.stringify([{ name: 'solo', type: 'remote', about: { title: 'Solo', description: 'Solo from Docker' }, remote: { url: 'https://solo.example.com/mcp', transport_type: 'streamable-http' } }]) },
      { file: 'toolsdk.json', text: JSON.stringify([toolsdk('twin-a', 'twin-mcp', 'The first twin'), toolsdk('twin-b', 'Twin MCP', 'The second twin'), toolsdk('solo-t', 'mcp/solo', 'Solo from toolsdk')]) },
    ];
    const whole = await startHarness({ demo: false });
    try {
      // One time for both, which the records' rows carry.
      const now = (): Date => new Date('2026-11-26T12:00:00Z');
      const first = await ingest(h.service.store, inputs, { batchSize: 1, now });
      expect(first).to.include({ added: 3, servers: 3 });
      const inOne = await ingest(whole.service.store, inputs, { batchSize: 100, now });
      expect({ ...inOne, seconds: first.seconds }).to.deep.equal(first);
      const { body } = await h.request('/api/v1/servers/search?limit=10&sort=a-z');
      const servers = body.items.map((s: { id: string; name: string }) => [s.id, s.name]).sort();
      expect(servers).to.deep.equal([['solo', 'mcp/solo'], ['twin-mcp', 'Twin MCP'], ['twin-mcp-2', 'twin-mcp']]);
      expect((await h.request('/api/v1/servers/solo')).body.sources).to.have.length(2);
      expect(await snapshot(h)).to.deep.equal(await snapshot(whole));
    } finally {
      await whole.close();
    }
  });

  it('gives the second server of a taken name a numbered one, and it keeps it when its record changes', async () => {
    // toolsdk lists two packages of one name under two keys: two servers, one name each.
    const twins = (second: string): IngestInput => ({
      file: 'toolsdk.json',
      text: JSON.stringify(['The first twin', second].map((description, i) => ({ type: 'mcp-server', name: `Twin ${i}`, packageName: 'twin-mcp', description, _toolsdk: { key: `twin-${i}`, category: 'other' }, tools: [] }))),
    });
    const names = async (): Promise<string[][]> => (await h.request('/api/v1/servers/search?limit=10&sort=a-z')).body.items.map((s: { id: string; name: string }) => [s.id, s.name]).sort();
    expect(await ingest(h.service.store, [twins('The second twin')], { batchSize: 1 })).to.include({ added: 2, servers: 2 });
    expect(await names()).to.deep.equal([['twin-mcp', 'twin-mcp'], ['twin-mcp-2', 'twin-mcp-2']]);
    const changed = await ingest(h.service.store, [twins('The second twin, changed')]);
    expect(changed).to.include({ added: 0, updated: 1, unchanged: 1 });
    expect(await names()).to.deep.equal([['twin-mcp', 'twin-mcp'], ['twin-mcp-2', 'twin-mcp-2']]);
    expect((await h.request('/api/v1/servers/twin-mcp-2')).body.description).to.equal('The second twin, changed');
    // Tools the status monitor found join the server under the name it holds.
    const attached = await attachEndpointTools(h.service.store, 'twin-mcp-2', 'https://twin.example.com/mcp', [{ name: 'ping', title: null, description: 'Ping', inputSchema: { type: 'object' }, annotations: { title: null, readOnlyHint: null, destructiveHint: null, idempotentHint: null, openWorldHint: null } }], new Date().toISOString());
    expect(attached).to.equal(true);
    expect(await names()).to.deep.equal([['twin-mcp', 'twin-mcp'], ['twin-mcp-2', 'twin-mcp-2']]);
    // In one batch as in batches of one.
    const whole = await startHarness({ demo: false });
    try {
      expect(await ingest(whole.service.store, [twins('The second twin')])).to.include({ added: 2, servers: 2 });
      const { body } = await whole.request('/api/v1/servers/search?limit=10&sort=a-z');
      expect(body.items.map((s: { name: string }) => s.name).sort()).to.deep.equal(['twin-mcp', 'twin-mcp-2']);
    } finally {
      await whole.close();
    }
  });

  it('names a server after its primary record, keeping a numbered form of that name it holds', () => {
    expect(catalogName('acme/weather', undefined)).to.equal('acme/weather');
    expect(catalogName('acme/weather', 'acme/weather')).to.equal('acme/weather');
    expect(catalogName('acme/weather', 'acme/weather-2')).to.equal('acme/weather-2');
    expect(catalogName('acme/weather', 'acme/weather-12')).to.equal('acme/weather-12');
    // Another name, or a name that only begins like it, gives way to the primary record's.
    expect(catalogName('acme/weather', 'mcp/weather')).to.equal('acme/weather');
    expect(catalogName('acme/weather', 'acme/weather-pro')).to.equal('acme/weather');
    expect(catalogName('acme/weather', 'acme/weather-')).to.equal('acme/weather');
  });

  it('gives the same ids in any order and file split, and the ids a server had before still find it', async () => {
    await ingest(h.service.store, [fixture('toolsdk-small.json')]);
    const before = (await h.request('/api/v1/servers/search?limit=100')).body.items.find((s: { name: string }) => s.name === '@acme/weather-mcp');
    expect(before.id).to.equal('acme-weather-mcp');
    await ingest(h.service.store, [fixture('docker-small.json')]);
    await ingest(h.service.store, [fixture('official-small.json')]);
    const { body } = await h.request('/api/v1/servers/search?limit=100');
    const weather = body.items.filter((s: { name: string }) => s.name.includes('weather'));
    expect(weather).to.have.length(1);
    // The official name wins, as when the three files arrive together.
    expect(weather[0]).to.include({ id: 'io.github.acme~weather', name: 'io.github.acme/weather' });
    const old = await h.request('/api/v1/servers/acme-weather-mcp');
    expect(old.status).to.equal(200);
    expect(old.body).to.include({ id: 'io.github.acme~weather' });
    expect(old.body.sources.map((s: { source: string }) => s.source)).to.have.members(['official', 'docker', 'toolsdk']);
    // The page moves for good to its current id; the page of that id and of the name stay where they are.
    const page = await h.request('/servers/acme-weather-mcp', { redirect: 'manual' });
    expect(page.status).to.equal(301);
    expect(page.headers.get('location')).to.equal('/servers/io.github.acme~weather');
    expect((await h.request('/servers/io.github.acme~weather', { redirect: 'manual' })).status).to.equal(200);
    expect((await h.request('/servers/io.github.acme%2Fweather', { redirect: 'manual' })).status).to.equal(200);
    expect((await h.request('/servers/no-such-server', { redirect: 'manual' })).status).to.equal(404);
    const tool = await h.request('/api/v1/tools/acme-weather-mcp:get_forecast');
    expect(tool.status).to.equal(200);
    expect(tool.body).to.include({ id: 'io.github.acme~weather:get_forecast', serverId: 'io.github.acme~weather' });
    const compared = await h.request('/api/v1/servers/compare?ids=acme-weather-mcp,kanban-remote');
    expect(compared.body.servers.map((s: { id: string }) => s.id)).to.deep.equal(['io.github.acme~weather', 'kanban-remote']);
    const again = await ingest(h.service.store, FIXTURES.map(fixture));
    expect(again).to.include({ added: 0, updated: 0 });
    const together = await startHarness({ demo: false });
    try {
      await ingest(together.service.store, FIXTURES.map(fixture));
      expect(await catalogIdentityOf(h.service.store)).to.deep.equal(await catalogIdentityOf(together.service.store));
    } finally {
      await together.close();
    }
  });

  it('merges one server from three sources by repository and package, keeping each source', async () => {
    await ingest(h.service.store, FIXTURES.map(fixture));
    const { body } = await h.request('/api/v1/servers/io.github.acme~weather');
    expect(body.sources.map((s: { source: string; key: string }) => `${s.source}:${s.key}`)).to.deep.equal([
      'docker:weather', 'official:io.github.acme/weather', 'toolsdk:@acme/weather-mcp',
    ]);
    expect(body.title).to.equal('Acme Weather');
    expect(body.license).to.equal('MIT');
    expect(body.packages.map((p: { registryType: string }) => p.registryType)).to.deep.equal(['npm', 'oci']);
    expect(body.categories).to.include('maps-travel');
  });

  it('leaves the catalog exactly as before when a file is corrupt mid-way, naming the record', async () => {
    await ingest(h.service.store, [fixture('official-small.json')]);
    const before = await snapshot(h);
    let failure: unknown;
    try {
      await ingest(h.service.store, [fixture('docker-small.json'), fixture('corrupt-record.json'), fixture('toolsdk-small.json')]);
    } catch (err) {
      failure = err;
    }
    expect(failure).to.be.instanceOf(IngestError);
    expect((failure as IngestError).message).to.equal('corrupt-record.json: record #1 (?): name must be a namespaced string like "io.github.owner/server"');
    expect(await snapshot(h)).to.deep.equal(before);
  });

  it('leaves the catalog untouched when a file is not JSON', async () => {
    await ingest(h.service.store, [fixture('official-small.json')]);
    const before = await snapshot(h);
    const failure = await ingest(h.service.store, [fixture('docker-small.json'), fixture('truncated.json')]).catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(IngestError);
    expect((failure as IngestError).message).to.match(/^truncated\.json: record document: not valid JSON/);
    expect(await snapshot(h)).to.deep.equal(before);
  });

  it('rolls back a failure inside the write transaction too', async () => {
    await ingest(h.service.store, [fixture('official-small.json')]);
    const before = await snapshot(h);
    const failure = await ingest(failingAt(h.service.store, 'countTools'), FIXTURES.map(fixture)).catch((err: unknown) => err);
    expect((failure as Error).message).to.equal('disk on fire');
    expect(await snapshot(h)).to.deep.equal(before);
  });

  it('writes and rewrites a catalog larger than one write batch, and rolls back a failure while a batch is being written', async () => {
    // Batches of 150 servers here (2,000 in production): 450 make three. Edition 2 changes every
    // third server (in every batch), edition 3 all of them.
    const BATCH = 150;
    const SERVERS = 3 * BATCH;
    const document = (edition: number): IngestInput => {
      const changes = (i: number): boolean => edition > 1 && (edition === 3 || i % 3 === 0);
      const servers = Array.from({ length: SERVERS }, (_, i) => officialRecord({
        name: `com.example/batch-${i}`,
        description: `Batch server ${i}${changes(i) ? ` edition ${edition}` : ''}`,
        packages: [{ registryType: 'npm', identifier: `@example/batch-${i}`, version: '1.0.0', transport: { type: 'stdio' } }],
        _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tools: [
          { name: 'look_up', description: `Looks up ${i}${changes(i) ? ` edition${edition}` : ''}`, inputSchema: { type: 'object' } },
          ...(changes(i) ? [] : [{ name: 'write_down', description: `Writes ${i}`, inputSchema: { type: 'object' } }]),
        ] } },
      }));
      return { file: `batch-${edition}.json`, text: JSON.stringify({ servers }) };
    };
    const counts = async (): Promise<{ servers: number; tools: number; edition2: number; writeDown: number }> => ({
      servers: (await h.request('/api/v1/servers/search?limit=1')).body.total,
      tools: (await h.request('/api/v1/tools/search?limit=1')).body.total,
      edition2: (await h.request('/api/v1/tools/search?q=edition2&limit=1')).body.total,
      writeDown: (await h.request('/api/v1/tools/search?q=write_down&limit=1')).body.total,
    });
    const store = h.service.store;
    /** The store, its writer taking `take` (the entries as ingest gives them) in batches of BATCH. */
    const batched = (take: (entries: Iterable<ServerWrite>) => Iterable<ServerWrite> = (entries) => entries): Store =>
      withWriter(store, (writer) => ({ writeServers: (entries) => writer.writeServers(take(entries), BATCH) }));

    expect(await ingest(batched(), [document(1)])).to.include({ added: 450, updated: 0, servers: 450, tools: 900 });
    expect(await counts()).to.deep.equal({ servers: 450, tools: 900, edition2: 0, writeDown: 450 });
    const { body: first } = await h.request('/api/v1/servers/com.example~batch-447');
    expect(first.description).to.equal('Batch server 447');
    expect(first.tools.map((t: { name: string }) => t.name)).to.deep.equal(['look_up', 'write_down']);

    // A third of the servers change, in every batch; the other two thirds are left as they are.
    expect(await ingest(batched(), [document(2)])).to.include({ added: 0, updated: 150, unchanged: 300, servers: 450, tools: 750 });
    expect(await counts()).to.deep.equal({ servers: 450, tools: 750, edition2: 150, writeDown: 300 });
    const { body: second } = await h.request('/api/v1/servers/com.example~batch-447');
    expect(second.description).to.equal('Batch server 447 edition 2');
    expect(second.tools.map((t: { name: string }) => t.name)).to.deep.equal(['look_up']);
    expect((await h.request('/api/v1/servers/com.example~batch-448')).body.tools).to.have.length(2);

    // Taking the second batch fails while the first is being written: nothing of the run stays.
    const before = await snapshot(h);
    const beforeCounts = await counts();
    const failing = batched(function* (entries) {
      let taken = 0;
      for (const entry of entries) {
        taken += 1;
        if (taken > BATCH + 100) throw new Error('disk on fire');
        yield entry;
      }
    });
    // One ingest batch for the whole document, so that the writer takes its second batch of it.
    const failure = await ingest(failing, [document(3)], { batchSize: SERVERS }).catch((err: unknown) => err);
    expect((failure as Error).message).to.equal('disk on fire');
    expect(await snapshot(h)).to.deep.equal(before);
    expect(await counts()).to.deep.equal(beforeCounts);
  });

  it(`ends a first ingest, and one that fails, with every index of the schema (SQLite builds some after the rows)${TEST_DIALECT === 'sqlite' ? '' : ' (skipped: PostgreSQL keeps its indexes during ingest)'}`, async function () {
    if (TEST_DIALECT !== 'sqlite') this.skip();
    const db = openDatabase(h.database.url);
    const schema = async (): Promise<unknown> => rowsOf(await db.raw(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`));
    try {
      const before = await schema();
      const store = h.service.store;
      expect(((await ingest(failingAt(store, 'refreshDuplicates'), FIXTURES.map(fixture)).catch((err: unknown) => err)) as Error).message).to.equal('disk on fire');
      expect(await schema()).to.deep.equal(before);
      await ingest(store, FIXTURES.map(fixture));
      expect(await schema()).to.deep.equal(before);
    } finally {
      await db.destroy();
    }
  });

  describe(`the journal of a first ingest${TEST_DIALECT === 'sqlite' ? '' : ' (skipped: SQLite only)'}`, () => {
    /** Which of the files beside the database exist once a run has written its servers and sources. */
    function watched(store: Store, file: string): { store: Store; seen: Array<{ journal: boolean; wal: boolean }> } {
      const seen: Array<{ journal: boolean; wal: boolean }> = [];
      const watching = withWriter(store, (writer) => ({
        saveSources: async (...args) => {
          await writer.saveSources(...args);
          seen.push({ journal: existsSync(`${file}-journal`), wal: existsSync(`${file}-wal`) });
        },
      }));
      return { store: watching, seen };
    }
    /** Bytes 18 and 19 of an SQLite file say its journal: 1 for a rollback journal, 2 for WAL. */
    const headerMode = (file: string): 'wal' | 'rollback' => (readFileSync(file)[18] === 2 ? 'wal' : 'rollback');
    const fileOf = (url: string): string => url.replace(/^sqlite:/, '');

    beforeEach(function () {
      if (TEST_DIALECT !== 'sqlite') this.skip();
    });

    it('writes into an empty catalog with a rollback journal, then returns to WAL, also after a failure', async () => {
      const file = fileOf(h.database.url);
      const { store, seen } = watched(h.service.store, file);
      expect(((await ingest(failingAt(store, 'refreshDuplicates'), FIXTURES.map(fixture)).catch((err: unknown) => err)) as Error).message).to.equal('disk on fire');
      expect(seen).to.deep.equal([{ journal: true, wal: false }]);
      expect(headerMode(file)).to.equal('wal');
      expect((await h.request('/api/v1/servers/search')).body.total).to.equal(0);

      const first = await ingest(store, FIXTURES.map(fixture));
      expect(seen[1]).to.deep.equal({ journal: true, wal: false });
      expect(headerMode(file)).to.equal('wal');
      expect((await h.request('/api/v1/servers/search?limit=100')).body.total).to.equal(first.servers);

      // The catalog is not empty now: a later write stays in WAL mode.
      await ingest(store, [fixture('official-small.json'), fixture('toolsdk-small.json')]);
      expect(seen[2]).to.deep.equal({ journal: false, wal: true });
    });

    it('stays in WAL mode when another connection has the database open, with the same catalog', async () => {
      const file = fileOf(h.database.url);
      const other = openDatabase(h.database.url);
      try {
        await other.raw('SELECT count(*) FROM servers');
        const { store, seen } = watched(h.service.store, file);
        const summary = await ingest(store, FIXTURES.map(fixture));
        expect(seen).to.deep.equal([{ journal: false, wal: true }]);
        expect(headerMode(file)).to.equal('wal');
        expect(rowsOf<{ n: number }>(await other.raw('SELECT count(*) AS n FROM servers'))[0]?.n).to.equal(summary.servers);
      } finally {
        await other.destroy();
      }
    });
  });

  it('drops control characters from upstream text (PostgreSQL cannot store NUL), keeping tabs and newlines', async () => {
    const record = officialRecord({
      name: 'com.example/odd\u0000bytes', title: 'Odd\u0007 Bytes', description: 'line one\nline\u0000 two\tend',
      packages: [{ registryType: 'npm', identifier: '@example/odd\u0000', version: '1.0.0', transport: { type: 'stdio' } }],
      _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tools: [{ name: 'do\u0000it', description: 'does\u001b[0m it' }] } },
    });
    const summary = await ingest(h.service.store, [{ file: 'odd.json', text: JSON.stringify({ servers: [record] }) }]);
    expect(summary.added).to.equal(1);
    const { body } = await h.request('/api/v1/servers/search?q=odd');
    expect(body.items.map((s: { name: string; title: string; description: string }) => [s.name, s.title, s.description])).to.deep.equal([
      ['com.example/oddbytes', 'Odd Bytes', 'line one\nline two\tend'],
    ]);
    const tools = (await h.request('/api/v1/tools/search?q=doit')).body;
    expect(tools.items.map((t: { name: string; description: string }) => [t.name, t.description])).to.deep.equal([['doit', 'does[0m it']]);
  });

  it('fits records to the catalog alike on both databases: long text clipped, long tool names left out', async () => {
    const long = (n: number) => 'x'.repeat(n);
    const record = officialRecord({
      name: 'com.example/long-fields', title: long(400), description: long(5000), version: long(150),
      packages: [{ registryType: 'npm', identifier: '@example/long', version: long(150), runtimeHint: long(80), transport: { type: 'stdio' } }],
      _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tools: [
        { name: long(300), description: 'too long a name' },
        { name: 'fine', title: long(400), description: 'd' },
        { name: 'annotated', description: 'd', annotations: { title: long(400) } },
        { name: long(199), description: 'a long name, within the limit' },
      ] } },
    });
    expect((await ingest(h.service.store, [{ file: 'long.json', text: JSON.stringify({ servers: [record] }) }])).added).to.equal(1);
    const { body } = await h.request('/api/v1/servers/com.example~long-fields');
    expect([...body.title]).to.have.length(300);
    expect(body.title.endsWith('…')).to.equal(true);
    expect(body.description).to.have.length(5000);
    expect([body.version.length, body.packages[0].version.length, body.packages[0].runtimeHint.length]).to.deep.equal([100, 100, 50]);
    expect(body.tools.map((t: { name: string }) => t.name)).to.deep.equal(['fine', 'annotated', long(199)]);
    expect(body.tools.map((t: { title: string }) => [...t.title ?? ''].length)).to.deep.equal([300, 300, 0]);
    // A long server name and a long tool name together: the tool's id is cut to stay addressable (≤ 400).
    const wide = officialRecord({ name: `com.example/${'w'.repeat(280)}`, description: 'd', _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tools: [{ name: long(199), description: 'd' }] } } });
    await ingest(h.service.store, [{ file: 'wide.json', text: JSON.stringify({ servers: [wide] }) }]);
    const tools = (await h.request(`/api/v1/tools/search?q=${'w'.repeat(20)}`)).body.items;
    expect(tools).to.have.length(1);
    expect(tools[0].id.length).to.be.at.most(400);
    expect((await h.request(`/api/v1/tools/${encodeURIComponent(tools[0].id)}`)).body.name).to.equal(long(199));
  });

  it('refuses a record whose name is longer than an id can be, naming it, and changes nothing', async () => {
    const record = officialRecord({ name: `com.example/${'n'.repeat(300)}`, description: 'd', version: '1.0.0' });
    let error: unknown;
    try {
      await ingest(h.service.store, [{ file: 'long-name.json', text: JSON.stringify({ servers: [record] }) }]);
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(IngestError);
    expect((error as IngestError).message).to.match(/long-name\.json: record com\.example\/n+…: the name is longer than 300 characters/);
    expect((await h.request('/api/v1/servers/search')).body.total).to.equal(0);
  });

  it('never stores or serves a planted secret', async () => {
    await ingest(h.service.store, FIXTURES.map(fixture));
    const served = JSON.stringify(await snapshot(h)) + JSON.stringify((await h.request('/api/v1/tools/search?q=weather&limit=100')).body);
    const files = await h.database.storedText();
    for (const canary of CANARIES) {
      expect(served, canary).not.to.contain(canary);
      for (const stored of files) expect(stored.includes(canary), `stored ${canary}`).to.equal(false);
    }
    const { body } = await h.request('/api/v1/servers/io.github.acme~weather');
    expect(body.remotes[0].url).to.equal('https://mcp.acme-weather.com/mcp');
    const key = body.packages[0].environmentVariables.find((v: { name: string }) => v.name === 'WEATHER_API_KEY');
    expect(key).to.deep.equal({ name: 'WEATHER_API_KEY', description: 'API key for the forecast service', isRequired: true, isSecret: true });
    expect(body.authentication).to.equal('api_key');
  });
});
