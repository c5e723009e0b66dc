/**
 * Publishing to this registry (`POST /v0.1/publish`, the two status PATCHes) on the real service
 * and database: the whole life of a server (publish, list, deprecate, delete, include_deleted),
 * who may write (no token, other scopes, namespace escapes, revoked and expired tokens), that a
 * token never shows, that a version never changes, which version is the latest, that bad input
 * changes nothing, that a published server outlives ingest and sync of the public sources, and
 * that every answer is the contract's (the harness checks it) and the published API's.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { pino } from 'pino';
import { parse } from 'yaml';
import { parsePolicy } from '../../src/catalog/catalog-policy.js';
import { curateCatalog } from '../../src/ingest/curation.js';
import { ingest } from '../../src/ingest/ingest-service.js';
import { republishAll } from '../../src/publish/publish-service.js';
import { sync } from '../../src/ingest/sync.js';
import { CANARIES } from '../support/canaries.js';
import { fixture, startHarness, type Harness } from '../support/harness.js';

const OFFICIAL = 'io.modelcontextprotocol.registry/official';
const FIXTURES = ['official-small.json', 'docker-small.json', 'toolsdk-small.json'];
const published = parse(readFileSync(new URL('../fixtures/registry-api/published-schemas.yaml', import.meta.url), 'utf8')) as { schemas: object };
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: 'published', schemas: published.schemas });

/** The body, after checking it against the published API's schema of that name. */
function asPublished(body: any, schema: 'ServerResponse' | 'ServerList'): any {
  const validate = ajv.getSchema(`published#/schemas/${schema}`)!;
  expect(validate(body), JSON.stringify(validate.errors?.slice(0, 3))).to.equal(true);
  return body;
}

/** A server.json in namespace `io.acme`, with a remote. */
function serverJson(name: string, version: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name, version,
    description: 'Internal weather forecasts for Acme staff',
    title: 'Acme Weather',
    repository: { url: 'https://git.acme.example/platform/weather-mcp', source: 'gitlab' },
    remotes: [{ type: 'streamable-http', url: `https://mcp.acme.example/${name.split('/')[1]}/mcp`, headers: [{ name: 'X-Acme-Key', isSecret: true, isRequired: true, description: 'Your Acme key' }] }],
    ...extra,
  };
}

describe('publishing to the registry (POST /v0.1/publish, status PATCHes)', function () {
  this.timeout(120_000);
  let h: Harness;
  let token: string;
  const lines: string[] = [];
  const json = (auth: string | null, body: unknown, method = 'POST'): RequestInit => ({
    method,
    headers: { 'content-type': 'application/json', ...(auth === null ? {} : { authorization: `Bearer ${auth}` }) },
    body: JSON.stringify(body),
  });
  const publish = (body: unknown, auth: string | null = token) => h.request('/v0.1/publish', json(auth, body));
  const setStatus = (name: string, version: string | null, body: unknown, auth: string | null = token) =>
    h.request(`/v0.1/servers/${encodeURIComponent(name)}${version === null ? '' : `/versions/${encodeURIComponent(version)}`}/status`, json(auth, body, 'PATCH'));
  const versions = async (name: string, includeDeleted = false) => {
    const { status, body } = await h.request(`/v0.1/servers/${encodeURIComponent(name)}/versions${includeDeleted ? '?include_deleted=true' : ''}`);
    return status === 200 ? (asPublished(body, 'ServerList').servers as any[]) : [];
  };
  const mcpServer = async (id: string) => {
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_server', arguments: { id } } };
    return (await h.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(call) })).body.result;
  };
  /** What a reader can see of a name: its /v0.1 versions (deleted ones too) and its catalog entry. */
  const seen = async (name: string) => ({
    versions: await versions(name, true),
    server: (await h.request(`/api/v1/servers/${encodeURIComponent(name)}`)).status,
    audit: (await h.service.audit.entries(1000)).length,
  });

  before(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    h = await startHarness({ inputs: FIXTURES.map(fixture), logger, registryRateLimit: 10_000, netAllowPrivate: ['127.0.0.1/32'] });
    token = (await h.service.access.create('acme-ci', ['publish:io.acme/*'], null)).token;
  });
  after(async () => h?.close());

  it('publishes, lists, deprecates and deletes a server; include_deleted still lists it', async () => {
    const name = 'io.acme/weather';
    const first = await publish(serverJson(name, '1.0.0'));
    expect(first.status).to.equal(200);
    expect(asPublished(first.body, 'ServerResponse')._meta[OFFICIAL]).to.include({ status: 'active', isLatest: true });
    expect(first.headers.get('ratelimit-policy')).to.match(/"registry"/);
    expect(first.headers.get('access-control-allow-origin')).to.equal(null);

    const listed = asPublished((await h.request('/v0.1/servers?search=acme&version=latest')).body, 'ServerList');
    expect(listed.servers.map((e: any) => e.server.name)).to.include(name);
    const entry = (await h.request(`/api/v1/servers/${encodeURIComponent(name)}`)).body;
    expect(entry.sources.map((s: any) => s.source)).to.include('publisher');
    const search = (await h.request('/api/v1/servers/search?q=acme+weather')).body;
    expect(search.items.map((s: any) => s.name)).to.include(name);
    expect((await h.request('/servers/io.acme~weather')).status, 'its page').to.equal(200);
    expect((await mcpServer('io.acme~weather')).isError, 'MCP get_server').to.equal(false);

    const deprecated = await setStatus(name, '1.0.0', { status: 'deprecated', statusMessage: 'Use 2.x' });
    expect(deprecated.status).to.equal(200);
    expect(asPublished(deprecated.body, 'ServerResponse')._meta[OFFICIAL]).to.include({ status: 'deprecated', statusMessage: 'Use 2.x' });
    expect((await setStatus(name, '1.0.0', { status: 'deprecated', statusMessage: 'Use 2.x' })).body).to.include({ code: 'no_change', status: 400 });

    const deleted = await setStatus(name, null, { status: 'deleted' });
    expect(deleted.status).to.equal(200);
    expect(deleted.body.updatedCount).to.equal(1);
    expect(deleted.body.servers[0]._meta[OFFICIAL]).to.include({ status: 'deleted', isLatest: false });
    expect((await h.request(`/v0.1/servers/${encodeURIComponent(name)}/versions`)).status).to.equal(404);
    expect((await h.request(`/api/v1/servers/${encodeURIComponent(name)}`)).status).to.equal(404);
    expect((await h.request('/api/v1/servers/search?q=acme+weather')).body.items.map((s: any) => s.name)).to.not.include(name);
    expect((await h.request('/servers/io.acme~weather')).status, 'its page').to.equal(404);
    expect((await mcpServer('io.acme~weather')).isError, 'MCP get_server').to.equal(true);
    const all = asPublished((await h.request('/v0.1/servers?include_deleted=true&search=io.acme/weather')).body, 'ServerList');
    expect(all.servers.map((e: any) => [e.server.name, e.server.version, e._meta[OFFICIAL].status])).to.deep.equal([[name, '1.0.0', 'deleted']]);
    expect((await versions(name, true)).map((e) => e._meta[OFFICIAL].status)).to.deep.equal(['deleted']);

    // Published again, it comes back under the same name, its deleted version still listed.
    expect((await publish(serverJson(name, '2.0.0'))).status).to.equal(200);
    expect((await versions(name, true)).map((e) => `${e.server.version} ${e._meta[OFFICIAL].status} ${e._meta[OFFICIAL].isLatest}`)).to.deep.equal(['2.0.0 active true', '1.0.0 deleted false']);
    expect((await h.request(`/api/v1/servers/${encodeURIComponent(name)}`)).status).to.equal(200);
    const audit = (await h.service.audit.entries(100)).filter((e) => e.target.startsWith(`${name}@`)).map((e) => `${e.actor} ${e.action} ${e.target}`);
    expect(audit).to.have.members(['acme-ci publish io.acme/weather@1.0.0', 'acme-ci status io.acme/weather@1.0.0', 'acme-ci status io.acme/weather@1.0.0', 'acme-ci publish io.acme/weather@2.0.0']);
  });

  it('changes a deleted version of a name no longer in the catalog, seen at once in include_deleted', async () => {
    const name = 'io.acme/retired';
    await publish(serverJson(name, '1.0.0'));
    await setStatus(name, null, { status: 'deleted', statusMessage: 'Retired' });
    const message = async () => (await versions(name, true)).map((e) => e._meta[OFFICIAL].statusMessage);
    expect(await message()).to.deep.equal(['Retired']);
    const changed = await setStatus(name, '1.0.0', { status: 'deleted', statusMessage: 'Retired: use io.acme/weather' });
    expect(changed.status).to.equal(200);
    expect(await message()).to.deep.equal(['Retired: use io.acme/weather']);
    expect((await h.request(`/api/v1/servers/${encodeURIComponent(name)}`)).status).to.equal(404);
  });

  it('refuses every write without a token (401, WWW-Authenticate: Bearer), changing nothing', async () => {
    const name = 'io.acme/untokened';
    const before = await seen(name);
    for (const answer of [await publish(serverJson(name, '1.0.0'), null), await setStatus(name, '1.0.0', { status: 'deleted' }, null), await setStatus(name, null, { status: 'deleted' }, null)]) {
      expect(answer.status).to.equal(401);
      expect(answer.body.code).to.equal('unauthorized');
      expect(answer.headers.get('www-authenticate')).to.equal('Bearer');
    }
    expect(await seen(name)).to.deep.equal(before);
  });

  it("refuses names outside the token's scopes, escapes included, changing nothing", async () => {
    await publish(serverJson('io.acme/escape-target', '1.0.0'));
    const outside = ['com.other/x', 'IO.ACME/x', 'Io.acme/x', '\u0456\u043e.acme/x', 'io.acme../x', 'io.acme./x', 'io.acme.evil/x', 'evil.io.acme/x', 'io/acme/x'];
    for (const name of outside) {
      const before = await seen(name);
      const answer = await publish(serverJson(name, '1.0.0'));
      // A name the published pattern refuses is a 400 naming it; any other is a 403.
      expect(answer.status, name).to.be.oneOf([400, 403]);
      expect(answer.body.code, name).to.be.oneOf(['invalid_server_json', 'forbidden_scope']);
      if (answer.status === 400) expect(answer.body.errors.map((e: any) => e.location), name).to.include('body.name');
      expect((await setStatus(name, '1.0.0', { status: 'deleted' })).status, name).to.be.oneOf([403, 404]);
      expect(await seen(name), name).to.deep.equal(before);
    }
    const narrow = (await h.service.access.create('acme-one', ['publish:io.acme/weather'], null)).token;
    const before = await seen('io.acme/escape-target');
    const refused = await setStatus('io.acme/escape-target', null, { status: 'deleted' }, narrow);
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('forbidden_scope');
    expect(await seen('io.acme/escape-target')).to.deep.equal(before);
  });

  it('refuses revoked and expired tokens', async () => {
    const revoked = (await h.service.access.create('acme-old', ['publish:io.acme/*'], null)).token;
    expect((await publish(serverJson('io.acme/revoked', '1.0.0'), revoked)).status).to.equal(200);
    await h.service.access.revoke('acme-old');
    const expired = (await h.service.access.create('acme-expired', ['publish:io.acme/*'], '2020-01-01T00:00:00.000Z')).token;
    for (const [label, answer] of [['revoked', await publish(serverJson('io.acme/revoked', '1.1.0'), revoked)], ['expired', await publish(serverJson('io.acme/expired', '1.0.0'), expired)], ['status, revoked', await setStatus('io.acme/revoked', '1.0.0', { status: 'deleted' }, revoked)]] as const) {
      expect(answer.status, label).to.equal(401);
      expect(answer.body.code, label).to.equal('unauthorized');
    }
    expect((await versions('io.acme/revoked')).map((e) => e.server.version)).to.deep.equal(['1.0.0']);
    expect(await versions('io.acme/expired')).to.deep.equal([]);
  });

  it('never shows a token: not in answers, not in the log', async () => {
    // The secret follows `sxt_<16 hex>_`; it may itself hold `_`.
    const answers = [
      await publish(serverJson('io.acme/quiet', '1.0.0')),
      await publish(serverJson('io.acme/quiet', '1.0.0')),
      await publish({ name: 'io.acme/quiet' }),
      await setStatus('io.acme/quiet', '9.9.9', { status: 'deleted' }),
      await publish(serverJson('com.other/quiet', '1.0.0')),
    ];
    const shown = answers.map((a) => JSON.stringify(a.body) + JSON.stringify([...a.headers])).join('\n');
    expect(shown).to.not.include(token);
    expect(shown).to.not.include(token.slice(21));
    const log = lines.join('\n');
    expect(log).to.include('/v0.1/publish');
    expect(log).to.not.include(token);
    expect(log).to.not.include(token.slice(21));
  });

  it('stores and serves a published server.json without its credentials', async () => {
    const name = 'io.acme/leaky';
    const leaky = serverJson(name, '1.0.0', {
      remotes: [{ type: 'streamable-http', url: 'https://canary-user:hunter2-canary-password@mcp.acme.example/leaky?token=canary-query-token-value', headers: [{ name: 'Authorization', value: 'Bearer ghp_CANARYcanaryCANARYcanary123456', isSecret: true }] }],
      packages: [{ registryType: 'npm', identifier: '@acme/leaky', version: '1.0.0', transport: { type: 'stdio' }, environmentVariables: [{ name: 'ACME_API_KEY', default: 'sk-canaryCANARYcanary1234567890' }] }],
    });
    expect((await publish(leaky)).status).to.equal(200);
    const served = JSON.stringify([await versions(name), (await h.request(`/api/v1/servers/${encodeURIComponent(name)}`)).body, (await h.request(`/api/v1/servers/${encodeURIComponent(name)}/install`)).body]);
    const stored = (await h.database.storedText()).join('\n');
    for (const canary of CANARIES) {
      expect(served, canary).to.not.include(canary);
      expect(stored, canary).to.not.include(canary);
    }
    expect(served).to.include('mcp.acme.example/leaky');
  });

  it('keeps a version as published: the same version again is a 409 that changes nothing', async () => {
    expect((await publish(serverJson('io.acme/fixed', '1.0.0'))).status).to.equal(200);
    const before = await seen('io.acme/fixed');
    const again = await publish(serverJson('io.acme/fixed', '1.0.0', { description: 'Something else entirely' }));
    expect(again.status).to.equal(409);
    expect(again.body.code).to.equal('version_exists');
    expect(await seen('io.acme/fixed')).to.deep.equal(before);
    expect((await versions('io.acme/fixed'))[0].server.description).to.equal('Internal weather forecasts for Acme staff');
  });

  it('moves isLatest by the official rule, never onto a deleted version', async () => {
    const name = 'io.acme/latest';
    const latest = async () => (await versions(name)).filter((e) => e._meta[OFFICIAL].isLatest).map((e) => e.server.version);
    await publish(serverJson(name, '1.0.0'));
    await publish(serverJson(name, '1.2.0'));
    expect(await latest()).to.deep.equal(['1.2.0']);
    await publish(serverJson(name, '1.1.0'));
    expect(await latest(), 'a lower version published later').to.deep.equal(['1.2.0']);
    await setStatus(name, '1.2.0', { status: 'deleted' });
    expect(await latest()).to.deep.equal(['1.1.0']);
    expect((await h.request(`/v0.1/servers/${encodeURIComponent(name)}/versions/latest`)).body.server.version).to.equal('1.1.0');
    await setStatus(name, '1.2.0', { status: 'active' });
    expect(await latest()).to.deep.equal(['1.2.0']);
    expect((await h.request(`/api/v1/servers/${encodeURIComponent(name)}`)).body.version).to.equal('1.2.0');
  });

  it('takes versions published at once, each once, with one latest', async () => {
    const name = 'io.acme/busy';
    const answers = await Promise.all(['1.0.0', '1.0.1', '1.0.2', '1.0.3'].map((version) => publish(serverJson(name, version))));
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200]);
    const listed = await versions(name);
    expect(listed.map((e) => e.server.version).sort()).to.deep.equal(['1.0.0', '1.0.1', '1.0.2', '1.0.3']);
    expect(listed.filter((e) => e._meta[OFFICIAL].isLatest).map((e) => e.server.version)).to.deep.equal(['1.0.3']);
  });

  it('names the field of a server.json that breaks the published schema, and changes nothing', async () => {
    const name = 'io.acme/invalid';
    const before = await seen(name);
    const cases: Array<[Record<string, unknown>, string]> = [
      [serverJson(name, '1.0.0', { description: 'x'.repeat(101) }), 'body.description'],
      [{ name, description: 'No version' }, 'body.version'],
      [serverJson(name, '^1.2.3'), 'body.version'],
      [serverJson(name, '1.x'), 'body.version'],
      [serverJson(name, '1.0.0', { remotes: [{ type: 'streamable-http', url: 'ftp://x' }] }), 'body.remotes.0.url'],
      [serverJson(name, '1.0.0', { packages: [{ registryType: 'npm', identifier: '@acme/x', version: 'latest', transport: { type: 'stdio' } }] }), 'body.packages.0.version'],
      [serverJson(name, '1.0.0', { websiteUrl: 'not a url' }), 'body.websiteUrl'],
    ];
    for (const [body, field] of cases) {
      const answer = await publish(body);
      expect(answer.status, field).to.equal(400);
      expect(answer.body.code, field).to.equal('invalid_server_json');
      expect(answer.body.errors.map((e: any) => e.location), field).to.include(field);
    }
    const local = (await h.service.access.create('local-names', ['publish:local.sextant/*'], null)).token;
    const taken = await publish(serverJson('local.sextant/kanban-remote', '0.0.0'), local);
    expect(taken.status, "Sextant's own namespace").to.equal(400);
    expect(taken.body.errors.map((e: any) => e.location)).to.include('body.name');
    const badStatus = await setStatus('io.acme/weather', '2.0.0', { status: 'gone' });
    expect(badStatus.status).to.equal(400);
    expect(badStatus.body.errors.map((e: any) => e.location)).to.include('body.status');
    expect((await h.request('/v0.1/publish', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{"name":' })).body.code).to.equal('malformed_json');
    const form = await h.request('/v0.1/publish', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}` }, body: JSON.stringify(serverJson(name, '1.0.0')) });
    expect(form.status, "curl -d's default type").to.equal(415);
    expect(form.body.code).to.equal('unsupported_media_type');
    const huge = await publish(serverJson(name, '1.0.0', { _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { blob: 'x'.repeat(300 * 1024) } } }));
    expect(huge.status).to.equal(413);
    expect(await seen(name)).to.deep.equal(before);
  });

  it('answers 404 for a version or name never published here, and for a catalog server published elsewhere', async () => {
    expect((await setStatus('io.acme/weather', '9.9.9', { status: 'deleted' })).body).to.include({ status: 404, code: 'not_found' });
    expect((await setStatus('io.acme/never', null, { status: 'deleted' })).body).to.include({ status: 404, code: 'not_found' });
    const official = (await h.service.access.create('github-acme', ['publish:io.github.acme/*'], null)).token;
    expect((await h.request('/v0.1/servers/io.github.acme%2Fweather/versions')).status, 'in the catalog from the official fixture').to.equal(200);
    expect((await setStatus('io.github.acme/weather', null, { status: 'deleted' }, official)).body).to.include({ status: 404, code: 'not_found' });
    expect((await h.request('/v0.1/servers/io.github.acme%2Fweather/versions')).status).to.equal(200);
  });

  it('keeps preflights of the writes from granting other origins', async () => {
    for (const path of ['/v0.1/publish', `/v0.1/servers/${encodeURIComponent('io.acme/weather')}/status`, `/v0.1/servers/${encodeURIComponent('io.acme/weather')}/versions/2.0.0/status`]) {
      const preflight = await fetch(`${h.baseUrl}${path}`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': path.endsWith('publish') ? 'POST' : 'PATCH', 'Access-Control-Request-Headers': 'authorization, content-type' } });
      expect(preflight.headers.get('access-control-allow-origin'), path).to.equal(null);
    }
  });

  it('wins a server a public source also lists, and gives it back when every version is deleted', async () => {
    const name = 'dev.shared/alpha';
    const owner = (await h.service.access.create('shared-dev', ['publish:dev.shared/*'], null)).token;
    const official = async () => (await versions(name, true)).map((e) => `${e.server.version} ${e._meta[OFFICIAL].status}`);
    expect(await official()).to.deep.equal(['2.0.0 active']);
    expect((await publish(serverJson(name, '3.0.0', { description: 'Alpha, as its owner describes it' }), owner)).status).to.equal(200);
    const merged = (await h.request('/api/v1/servers/dev.shared~alpha')).body;
    expect(merged.sources.map((x: any) => x.source)).to.have.members(['publisher', 'official']);
    expect(merged.description).to.equal('Alpha, as its owner describes it');
    expect(await official(), "the publisher's versions are the name's").to.deep.equal(['3.0.0 active']);
    expect((await setStatus(name, null, { status: 'deleted' }, owner)).status).to.equal(200);
    const left = (await h.request('/api/v1/servers/dev.shared~alpha')).body;
    expect(left.sources.map((x: any) => x.source)).to.deep.equal(['official']);
    expect(left.description).to.equal('First server on a shared host.');
    expect(await official()).to.have.members(['2.0.0 active', '3.0.0 deleted']);
    expect((await versions(name)).map((e) => e.server.version)).to.deep.equal(['2.0.0']);
  });

  it('survives ingest of the public files and a sync, as a source of its own', async () => {
    const name = 'io.acme/survivor';
    await publish(serverJson(name, '1.0.0'));
    await publish(serverJson(name, '1.1.0'));
    const before = await versions(name);
    await ingest(h.service.store, FIXTURES.map(fixture));
    const upstream = await startHarness({ inputs: [fixture('official-small.json')] });
    try {
      await sync(h.service.store, h.service.net, { upstream: upstream.baseUrl, pageSize: 10 });
    } finally {
      await upstream.close();
    }
    expect(await versions(name)).to.deep.equal(before);
    const entry = (await h.request(`/api/v1/servers/${encodeURIComponent(name)}`)).body;
    expect(entry.sources.map((s: any) => s.source)).to.deep.equal(['publisher']);
    expect((await h.request('/api/v1/servers/search?q=acme+survivor')).body.items.map((s: any) => s.name)).to.include(name);
  });
});

describe('publishing under a catalog policy (CATALOG_POLICY)', function () {
  this.timeout(120_000);
  let h: Harness;
  let token: string;
  let policy = parsePolicy('allow: [io.acme/*]\ndeny: [io.acme/secret-payroll]\n');

  before(async () => {
    h = await startHarness({ demo: false, policy: () => policy });
    token = (await h.service.access.create('acme-ci', ['publish:io.acme/*'], null)).token;
  });
  after(async () => h.close());

  const publish = (body: unknown) => h.request('/v0.1/publish', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });

  it('refuses a server the policy does not admit (403 not_admitted), storing nothing', async () => {
    const refused = await publish(serverJson('io.acme/secret-payroll', '1.0.0'));
    expect(refused.status).to.equal(403);
    expect(refused.body.code).to.equal('not_admitted');
    expect(refused.body.detail).to.match(/sextant policy check/);
    expect((await h.request(`/v0.1/servers/${encodeURIComponent('io.acme/secret-payroll')}/versions?include_deleted=true`)).status).to.equal(404);
    expect(await h.service.store.published.versionsOf('io.acme/secret-payroll')).to.deep.equal([]);
    expect((await h.service.audit.entries(10)).map((e) => e.target)).to.not.include('io.acme/secret-payroll@1.0.0');
    expect((await publish(serverJson('io.acme/weather', '1.0.0'))).status).to.equal(200);
  });

  it('catalogues again the published servers a wider policy admits, and keeps out those it refuses', async () => {
    await publish(serverJson('io.acme/reports', '1.0.0'));
    policy = parsePolicy('allow: [io.acme/weather]\n');
    await curateCatalog(h.service.store, policy);
    expect((await h.request(`/api/v1/servers/${encodeURIComponent('io.acme/reports')}`)).status).to.equal(404);
    expect(await republishAll(h.service.store, policy)).to.equal(2);
    expect((await h.request(`/api/v1/servers/${encodeURIComponent('io.acme/reports')}`)).status).to.equal(404);
    policy = parsePolicy('allow: [io.acme/*]\n');
    await curateCatalog(h.service.store, policy);
    await republishAll(h.service.store, policy);
    const back = await h.request(`/api/v1/servers/${encodeURIComponent('io.acme/reports')}`);
    expect(back.status).to.equal(200);
    expect(back.body.sources.map((s: any) => s.source)).to.deep.equal(['publisher']);
    expect((await h.request('/v0.1/servers?search=acme')).body.servers.map((e: any) => e.server.name)).to.have.members(['io.acme/reports', 'io.acme/weather']);
  });
});
