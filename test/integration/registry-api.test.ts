/**
 * The MCP Registry API (`/v0.1`, DESIGN.md "Registry API"): the calls VS Code's MCP gallery and
 * GitHub Copilot make, replayed; every answer validated against our contract (the harness does
 * it for every request) and against the official registry's published schemas (vendored in
 * test/fixtures/registry-api); cursor walks, filters, bad input; and a second Sextant mirroring
 * the first with `sync`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { ingest } from '../../src/ingest/ingest-service.js';
import { sync } from '../../src/ingest/sync.js';
import { createRegistryApiService } from '../../src/registry-api/registry-api-service.js';
import { fixture, startHarness, type Harness } from '../support/harness.js';

type Entry = { server: { name: string; version: string; description: string } & Record<string, unknown>; _meta: Record<string, any> };
type List = { servers: Entry[]; metadata: { count: number; nextCursor?: string } };

const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const CATALOG = 'local.sextant/catalog';
const published = parse(readFileSync(new URL('../fixtures/registry-api/published-schemas.yaml', import.meta.url), 'utf8')) as { schemas: object };
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: 'published', schemas: published.schemas });
const publishedList = ajv.getSchema('published#/schemas/ServerList')!;
const publishedResponse = ajv.getSchema('published#/schemas/ServerResponse')!;

/** The body, after checking it against the published schema. */
function asPublished<T>(body: unknown, shape: 'list' | 'response'): T {
  const validate = shape === 'list' ? publishedList : publishedResponse;
  expect(validate(body), JSON.stringify(validate.errors?.slice(0, 3))).to.equal(true);
  return body as T;
}

/** Every entry of a full cursor walk, `limit` a page, as VS Code does it (the cursor appended unencoded). */
async function walk(h: Harness, query: string, limit: number): Promise<Entry[]> {
  const out: Entry[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page += 1) {
    const { status, body } = await h.request(`/v0.1/servers?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(status).to.equal(200);
    const list = asPublished<List>(body, 'list');
    expect(list.metadata.count).to.equal(list.servers.length);
    out.push(...list.servers);
    cursor = list.metadata.nextCursor;
    if (!cursor) return out;
    expect(cursor, 'URL-safe').to.match(/^[A-Za-z0-9_-]+$/);
  }
  throw new Error('the walk did not end');
}

const keyOf = (e: Entry): string => `${e.server.name}@${e.server.version}`;

describe('the MCP Registry API (/v0.1)', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ inputs: [fixture('official-small.json'), fixture('docker-small.json'), fixture('toolsdk-small.json')] });
  });
  after(async () => h?.close());

  it("answers VS Code's gallery calls: latest versions, 50 a page, search, then the server by its encoded name", async () => {
    const first = asPublished<List>((await h.request('/v0.1/servers?limit=50&version=latest')).body, 'list');
    expect(first.servers.length).to.be.within(1, 50);
    expect(first.servers.every((e) => e._meta[OFFICIAL].isLatest === true)).to.equal(true);
    const found = asPublished<List>((await h.request('/v0.1/servers?limit=50&version=latest&search=github')).body, 'list');
    expect(found.servers.map((e) => e.server.name)).to.include('io.github.github/github-mcp-server');
    expect(found.servers.every((e) => e.server.name.toLowerCase().includes('github'))).to.equal(true);
    const name = 'io.github.github/github-mcp-server';
    const { status, body } = await h.request(`/v0.1/servers/${encodeURIComponent(name)}/versions/latest`);
    expect(status).to.equal(200);
    const one = asPublished<Entry>(body, 'response');
    expect(one.server.name).to.equal(name);
    expect(one._meta[OFFICIAL]).to.include({ isLatest: true, status: 'active' });
    expect(one._meta[CATALOG]).to.include({ id: 'io.github.github~github-mcp-server' });
  });

  it("answers Copilot's calls (servers, versions/latest, versions/{version}) with CORS for any origin", async () => {
    const origin = { headers: { Origin: 'https://github.com' } };
    const list = await h.request('/v0.1/servers', origin);
    expect(list.headers.get('access-control-allow-origin')).to.equal('*');
    const entry = asPublished<List>(list.body, 'list').servers[0]!;
    const encoded = encodeURIComponent(entry.server.name);
    const latest = await h.request(`/v0.1/servers/${encoded}/versions/latest`, origin);
    expect(latest.headers.get('access-control-allow-origin')).to.equal('*');
    const exact = await h.request(`/v0.1/servers/${encoded}/versions/${encodeURIComponent(entry.server.version)}`, origin);
    expect(exact.status).to.equal(200);
    expect(asPublished<Entry>(exact.body, 'response').server.version).to.equal(entry.server.version);
    for (const path of ['/v0.1/servers?limit=50', `/v0.1/servers/${encoded}/versions/latest`, '/api/v1/servers/search?q=github', '/openapi.json']) {
      const preflight = await h.request(path, { method: 'OPTIONS', headers: { Origin: 'https://github.com', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' } });
      expect(preflight.status, path).to.equal(204);
      expect(preflight.body, path).to.equal(null);
      expect(preflight.headers.get('access-control-allow-origin')).to.equal('*');
      expect(preflight.headers.get('access-control-allow-methods')).to.equal('GET, OPTIONS');
      expect(preflight.headers.get('access-control-allow-headers')).to.equal('Authorization, Content-Type');
    }
    for (const path of ['/api/v1/servers/search?q=github', '/openapi.json', '/v0.1/servers?limit=0']) {
      expect((await h.request(path, origin)).headers.get('access-control-allow-origin'), path).to.equal('*');
    }
  });

  it('keeps the proxy and assessment POSTs closed to other origins', async () => {
    for (const path of ['/api/v1/assessments', '/api/v1/assessments/batch']) {
      const preflight = await fetch(`${h.baseUrl}${path}`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' } });
      expect(preflight.headers.get('access-control-allow-origin'), path).to.equal(null);
    }
    const post = await h.request('/api/v1/proxy/connect', { method: 'POST', headers: { Origin: 'https://evil.example', 'content-type': 'application/json' }, body: JSON.stringify({ serverId: 'x' }) });
    expect(post.headers.get('access-control-allow-origin')).to.equal(null);
  });

  it('serves every version as published, newest first, with exactly one latest per name', async () => {
    const all = await walk(h, '', 100);
    const names = [...new Set(all.map((e) => e.server.name))];
    for (const name of names) expect(all.filter((e) => e.server.name === name && e._meta[OFFICIAL].isLatest).length, name).to.equal(1);
    const multi = names.find((name) => all.filter((e) => e.server.name === name).length > 1);
    expect(multi, 'a server with several versions').to.be.a('string');
    const versions = asPublished<List>((await h.request(`/v0.1/servers/${encodeURIComponent(multi!)}/versions`)).body, 'list');
    const dates = versions.servers.map((e) => e._meta[OFFICIAL].publishedAt as string);
    expect(dates).to.deep.equal([...dates].sort().reverse());
    expect(new Set(versions.servers.map((e) => e.server.version)).size).to.equal(versions.servers.length);
    // Each version is its own document: the older ones are not the latest's with another number.
    const [newest, older] = versions.servers;
    expect(older!.server.version).to.not.equal(newest!.server.version);
  });

  it('lists every catalog server once as latest: Docker and toolsdk ones under local.sextant/ names', async () => {
    const latest = await walk(h, '&version=latest', 100);
    const count = (await h.request('/api/v1/servers/search?limit=1')).body.total as number;
    expect(latest.length).to.equal(count);
    const local = latest.filter((e) => e.server.name.startsWith('local.sextant/'));
    expect(local.length).to.be.greaterThan(0);
    for (const entry of local) {
      expect(entry.server.name).to.match(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
      expect([...entry.server.description].length).to.be.at.most(100);
      expect(entry._meta[CATALOG].sources.every((s: string) => s !== 'official' && s !== 'demo')).to.equal(true);
    }
    const ids = latest.map((e) => e._meta[CATALOG].id);
    expect(new Set(ids).size).to.equal(ids.length);
  });

  it('walks the whole list with any page size, never repeating or skipping an entry', async () => {
    const whole = (await walk(h, '', 100)).map(keyOf);
    for (const limit of [1, 7, 30]) expect((await walk(h, '', limit)).map(keyOf), `limit ${limit}`).to.deep.equal(whole);
    expect(new Set(whole).size).to.equal(whole.length);
  });

  it('filters by updated_since (after the time), version and search, as upstream', async () => {
    const all = await walk(h, '', 100);
    const times = all.map((e) => e._meta[OFFICIAL].updatedAt as string).sort();
    const middle = times[Math.floor(times.length / 2)]!;
    const since = await walk(h, `&updated_since=${encodeURIComponent(middle)}`, 100);
    expect(since.map(keyOf).sort()).to.deep.equal(all.filter((e) => e._meta[OFFICIAL].updatedAt > middle).map(keyOf).sort());
    expect(await walk(h, '&updated_since=2999-01-01T00:00:00Z', 100)).to.deep.equal([]);
    const exact = all.find((e) => !e._meta[OFFICIAL].isLatest)!;
    const byVersion = await walk(h, `&version=${encodeURIComponent(exact.server.version)}`, 100);
    expect(byVersion.every((e) => e.server.version === exact.server.version)).to.equal(true);
    expect(byVersion.map(keyOf)).to.include(keyOf(exact));
    const upper = await walk(h, '&search=GITHUB', 100);
    expect(upper.map(keyOf).sort()).to.deep.equal(all.filter((e) => e.server.name.toLowerCase().includes('github')).map(keyOf).sort());
  });

  it('answers bad input with problem+json and a stable code, never a 5xx', async () => {
    for (const [path, status, code] of [
      ['/v0.1/servers?limit=0', 400, 'validation_failed'],
      ['/v0.1/servers?limit=101', 400, 'validation_failed'],
      ['/v0.1/servers?limit=ten', 400, 'validation_failed'],
      ['/v0.1/servers?cursor=not-a-cursor', 400, 'validation_failed'],
      ['/v0.1/servers?cursor=%E2%9C%A8', 400, 'validation_failed'],
      ['/v0.1/servers?updated_since=yesterday', 400, 'validation_failed'],
      ['/v0.1/servers?include_deleted=maybe', 400, 'validation_failed'],
      [`/v0.1/servers/${encodeURIComponent('com.nobody/nothing')}/versions`, 404, 'not_found'],
      [`/v0.1/servers/${encodeURIComponent('com.nobody/nothing')}/versions/latest`, 404, 'not_found'],
      [`/v0.1/servers/${encodeURIComponent('io.github.github/github-mcp-server')}/versions/9.9.9%2Bbuild`, 404, 'not_found'],
    ] as const) {
      const { status: got, headers, body } = await h.request(path);
      expect({ path, status: got, code: body.code }).to.deep.equal({ path, status, code });
      expect(headers.get('content-type')).to.match(/^application\/problem\+json/);
    }
  });

  it('keeps a deleted version, shown with include_deleted and updated_since, as upstream', async () => {
    const meta = (version: string, status: string, isLatest: boolean, at: string) => ({
      server: { name: 'com.example/retired', description: `Retired example ${version}.`, version, remotes: [{ type: 'streamable-http', url: 'https://retired.example.com/mcp' }] },
      _meta: { [OFFICIAL]: { status, publishedAt: at, updatedAt: at, isLatest } },
    });
    const gone = { server: { name: 'com.example/gone', description: 'Only deleted.', version: '1.0.0' }, _meta: { [OFFICIAL]: { status: 'deleted', publishedAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-02T00:00:00Z', isLatest: true } } };
    const text = JSON.stringify({ servers: [meta('1.0.0', 'active', true, '2025-03-01T00:00:00Z'), meta('0.9.0', 'deleted', false, '2025-02-01T00:00:00Z'), gone] });
    await ingest(h.service.store, [{ file: 'retired.json', text }]);
    const name = encodeURIComponent('com.example/retired');
    const live = asPublished<List>((await h.request(`/v0.1/servers/${name}/versions`)).body, 'list');
    expect(live.servers.map((e) => e.server.version)).to.deep.equal(['1.0.0']);
    const withDeleted = asPublished<List>((await h.request(`/v0.1/servers/${name}/versions?include_deleted=true`)).body, 'list');
    expect(withDeleted.servers.map((e) => [e.server.version, e._meta[OFFICIAL].status])).to.deep.equal([['1.0.0', 'active'], ['0.9.0', 'deleted']]);
    const deleted = await h.request(`/v0.1/servers/${name}/versions/0.9.0`);
    expect(deleted.status).to.equal(404);
    expect(deleted.body.code).to.equal('not_found');
    expect((await h.request(`/v0.1/servers/${name}/versions/0.9.0?include_deleted=true`)).body.server.version).to.equal('0.9.0');
    const since = await walk(h, '&updated_since=2025-01-15T00:00:00Z&search=com.example/retired', 100);
    expect(since.map(keyOf), 'updated_since brings deleted entries too').to.deep.equal(['com.example/retired@0.9.0', 'com.example/retired@1.0.0']);
    expect((await walk(h, '&search=com.example/retired', 100)).map(keyOf)).to.deep.equal(['com.example/retired@1.0.0']);
    const noLiveVersion = await h.request(`/v0.1/servers/${encodeURIComponent('com.example/gone')}/versions?include_deleted=true`);
    expect(noLiveVersion.status, 'a server with no live version is not in the catalog').to.equal(404);
    expect(noLiveVersion.body.code).to.equal('not_found');
  });

  it('lists a search it cannot rank by name, and a cursor given so goes on by name once it can rank', async () => {
    const { store } = h.service;
    const at = await store.contentGeneration();
    const bySeq = new Map((await store.registryVersions.names()).map(({ name, seq }) => [name, seq]));
    const matching = [...bySeq.keys()].filter((name) => name.toLowerCase().includes('e')).sort();
    expect(matching.length, 'enough matches for three pages').to.be.greaterThan(6);
    // Ranked: the matches' servers in reverse name order (not the name order a list by name has).
    const reversed = [...new Set([...matching].reverse().map((name) => bySeq.get(name) as number))];
    let ranks = false;
    const registry = createRegistryApiService({ versions: store.registryVersions, catalog: store.catalog, monitor: store.monitor, rank: async () => (ranks ? reversed : null) });
    const pageOf = async (cursor?: string): Promise<List> => JSON.parse((await registry.listServers({ search: 'e', version: 'latest', limit: 3, ...(cursor ? { cursor } : {}) }, at)).text) as List;
    const first = await pageOf();
    expect(first.servers.map((e) => e.server.name), 'unranked: by name').to.deep.equal(matching.slice(0, 3));
    ranks = true;
    const names: string[] = first.servers.map((e) => e.server.name);
    for (let cursor = first.metadata.nextCursor; cursor; ) {
      const next = await pageOf(cursor);
      names.push(...next.servers.map((e) => e.server.name));
      cursor = next.metadata.nextCursor;
    }
    expect(names, 'the walk begun by name ends by name, each entry once').to.deep.equal(matching);
    expect((await pageOf()).servers.map((e) => e.server.name), 'a new walk is ranked').to.deep.equal([...matching].reverse().slice(0, 3));
  });

  it('changes nothing on a re-ingest that brings nothing new', async () => {
    const before = await walk(h, '', 100);
    await ingest(h.service.store, [fixture('official-small.json'), fixture('docker-small.json'), fixture('toolsdk-small.json')]);
    expect(await walk(h, '', 100)).to.deep.equal(before);
  });
});

const DATA = new URL('../../../shared/data/', import.meta.url);
const FILES = ['official-registry-v0.1-snapshot-2025-12.json', 'docker-mcp-catalog-servers.json', 'toolsdk-mcp-registry-servers.json'];
const available = FILES.every((file) => existsSync(new URL(file, DATA)));

describe(`the registry API over the real data${available ? '' : ' (skipped: ../shared/data not found next to the checkout)'}`, function () {
  this.timeout(300_000);
  let h: Harness;
  before(async function () {
    if (!available) this.skip();
    h = await startHarness({ demo: false });
    await ingest(h.service.store, FILES.map((file) => ({ file, text: readFileSync(new URL(file, DATA), 'utf8') })));
    // Searches are ranked once the in-memory index of this catalog is built (on PostgreSQL, by
    // name until then).
    await h.service.warmSearch();
  });
  after(async () => h?.close());

  it('walks every version of every server, 100 a page, each page valid under the published schema', async () => {
    const started = performance.now();
    const all = await walk(h, '', 100);
    const ms = Math.round(performance.now() - started);
    const servers = (await h.request('/api/v1/servers/search?limit=1')).body.total as number;
    const latest = all.filter((e) => e._meta[OFFICIAL].isLatest);
    expect(latest.length, 'every catalog server once as latest').to.equal(servers);
    expect(new Set(all.map(keyOf)).size).to.equal(all.length);
    const snapshot = JSON.parse(readFileSync(new URL(FILES[0]!, DATA), 'utf8')) as { servers: Array<{ server: { name: string; version: string }; _meta: Record<string, { status?: string }> }> };
    const upstream = snapshot.servers.filter((e) => e._meta[OFFICIAL]?.status !== 'deleted').map((e) => `${e.server.name}@${e.server.version}`);
    const served = new Set(all.map(keyOf));
    expect(upstream.filter((key) => !served.has(key)), 'every published version is served').to.deep.equal([]);
    const repaired = all.filter((e) => e._meta[CATALOG]?.repairs);
    console.log(`      (walked ${all.length} entries of ${servers} servers in ${ms} ms; ${repaired.length} published documents made to conform)`);
  });
  it('finds every entry whose name contains the search text, any case, once, in the same order whatever the page size', async () => {
    const all = await walk(h, '', 100);
    for (const text of ['GitHub', 'mcp', 'sql', 'local.sextant/', 'io.github.', 'zz-nothing-zz', '-']) {
      const expected = all.filter((e) => e.server.name.toLowerCase().includes(text.toLowerCase())).map(keyOf);
      const found = (await walk(h, `&search=${encodeURIComponent(text)}`, 100)).map(keyOf);
      expect([...found].sort(), text).to.deep.equal([...expected].sort());
      expect(new Set(found).size, `${text}: no entry twice`).to.equal(found.length);
      expect((await walk(h, `&search=${encodeURIComponent(text)}`, 37)).map(keyOf), `${text}, 37 a page`).to.deep.equal(found);
      const latest = all.filter((e) => e._meta[OFFICIAL].isLatest && e.server.name.toLowerCase().includes(text.toLowerCase())).map(keyOf);
      expect((await walk(h, `&version=latest&search=${encodeURIComponent(text)}`, 50)).map(keyOf).sort(), `${text}, latest`).to.deep.equal([...latest].sort());
    }
  });

  it("ranks search by relevance: GitHub's own server is the first entry for search=github, as VS Code's gallery asks", async () => {
    const page = (await h.request('/v0.1/servers?search=github&version=latest&limit=50')).body as { servers: Array<{ server: { name: string } }> };
    expect(page.servers[0]?.server.name).to.equal('io.github.github/github-mcp-server');
    // The rest of the ranked head are servers about GitHub, not every server published under io.github.
    const names = page.servers.slice(0, 5).map((e) => e.server.name);
    expect(names.filter((name) => /github/i.test(name.split('/')[1] ?? '')).length, names.join(', ')).to.be.at.least(3);
  });
});

describe('a Sextant mirroring another through the registry API', function () {
  this.timeout(120_000);
  let upstream: Harness;
  let mirror: Harness;
  before(async () => {
    upstream = await startHarness({ inputs: [fixture('official-small.json'), fixture('docker-small.json'), fixture('toolsdk-small.json')] });
    mirror = await startHarness({ demo: false, netAllowPrivate: ['127.0.0.1/32'] });
  });
  after(async () => {
    await mirror?.close();
    await upstream?.close();
  });

  it('ends with the same servers and versions after `sextant sync --upstream` at the first', async () => {
    const summary = await sync(mirror.service.store, mirror.service.net, { upstream: upstream.baseUrl, pageSize: 10 });
    expect(summary.pages).to.be.greaterThan(2);
    const theirs = (await walk(upstream, '', 100)).map((e) => ({ key: keyOf(e), latest: e._meta[OFFICIAL].isLatest }));
    const ours = (await walk(mirror, '', 100)).map((e) => ({ key: keyOf(e), latest: e._meta[OFFICIAL].isLatest }));
    expect(ours).to.deep.equal(theirs);
  });
});

describe('the registry API with a source that lists one version twice', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false });
  });
  after(async () => h?.close());

  it('ingests it and serves the version once, the first listed', async () => {
    const entry = (description: string, isLatest: boolean) => ({
      server: { name: 'com.example/twice', description, version: '0.3.1' },
      _meta: { [OFFICIAL]: { status: 'active', publishedAt: '2025-03-01T00:00:00Z', updatedAt: '2025-03-01T00:00:00Z', isLatest } },
    });
    await ingest(h.service.store, [{ file: 'twice.json', text: JSON.stringify({ servers: [entry('First listing.', true), entry('Second listing.', false)] }) }]);
    const list = asPublished<List>((await h.request(`/v0.1/servers/${encodeURIComponent('com.example/twice')}/versions`)).body, 'list');
    expect(list.servers.map((e) => [e.server.version, e.server.description])).to.deep.equal([['0.3.1', 'First listing.']]);
  });
});
