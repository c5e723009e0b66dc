/**
 * The status monitor and the connect/invoke proxy against fixture servers on loopback, let
 * through NET_ALLOW_PRIVATE; and, with the allow list empty, every loopback notation refused
 * with zero connections.
 */
import { expect } from 'chai';
import { runMonitorPass } from '../../src/monitor/monitor.js';
import { silentLogger, startHarness, type Harness } from '../support/harness.js';
import { catalog, hangHandler, htmlHandler, hugeHandler, mcpHandler, redirectHandler, startFixture, type Fixture } from '../support/fixture-servers.js';

const post = (h: Harness, path: string, body: unknown) =>
  h.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('monitor and proxy against loopback fixtures', function () {
  this.timeout(30_000);
  let h: Harness;
  const fixtures: Record<string, Fixture> = {};

  before(async () => {
    fixtures.working = await startFixture(mcpHandler());
    fixtures.auth = await startFixture(mcpHandler({ requireAuth: 'Bearer fixture-token' }));
    fixtures.html = await startFixture(htmlHandler);
    fixtures.odd = await startFixture(mcpHandler({ protocolVersion: `9999-${'x'.repeat(60)}` }));
    fixtures.hang = await startFixture(hangHandler);
    fixtures.huge = await startFixture(hugeHandler);
    fixtures.redirect = await startFixture(redirectHandler(`http://localhost:${fixtures.working.port}/mcp`));
    h = await startHarness({
      demo: false,
      netAllowPrivate: ['127.0.0.1/32'],
      net: { timeoutMs: 800, connectTimeoutMs: 500, maxResponseBytes: 256 * 1024 },
      inputs: [catalog([
        { name: 'com.fixture/working', url: `${fixtures.working.url}/mcp`, headers: [{ name: 'X-Api-Key', description: 'optional key', isRequired: false, isSecret: true }], tools: ['echo'] },
        { name: 'com.fixture/auth', url: `${fixtures.auth.url}/mcp`, headers: [{ name: 'Authorization', description: 'Bearer token', isRequired: true, isSecret: true }] },
        { name: 'com.fixture/html', url: `${fixtures.html.url}/mcp` },
        { name: 'com.fixture/odd', url: `${fixtures.odd.url}/mcp` },
        { name: 'com.fixture/hang', url: `${fixtures.hang.url}/mcp` },
        { name: 'com.fixture/huge', url: `${fixtures.huge.url}/mcp` },
        { name: 'com.fixture/redirect', url: `${fixtures.redirect.url}/mcp` },
        { name: 'com.fixture/legacy', url: `${fixtures.working.url}/sse`, transport: 'sse' },
        { name: 'com.fixture/local' },
      ])],
    });
  });
  after(async () => {
    await h.close();
    for (const fixture of Object.values(fixtures)) await fixture.close();
  });

  const status = async (name: string) => (await h.request(`/api/v1/servers/com.fixture~${name}/status`)).body;

  describe('monitor', () => {
    let summary: Awaited<ReturnType<typeof runMonitorPass>>;
    before(async () => {
      const started = performance.now();
      summary = await runMonitorPass(h.service.store, h.service.net, silentLogger, { clientVersion: 'test', timeoutMs: 800, perHostSpacingMs: 0, concurrency: 4 });
      expect(performance.now() - started, 'a pass stays within its time limits').to.be.below(10_000);
    });

    it('checks every catalogued endpoint once', () => {
      expect(summary.endpoints).to.equal(8);
      expect(summary.states).to.deep.equal({ up: 1, auth_required: 1, not_mcp: 4, down: 1, unknown: 1 });
    });

    const expected: Array<[string, Record<string, unknown>, RegExp | null]> = [
      ['working', { state: 'up', httpStatus: 200, protocolVersion: '2025-06-18', toolCount: 2 }, null],
      ['auth', { state: 'auth_required', httpStatus: 401 }, /authentication/],
      ['html', { state: 'not_mcp', httpStatus: 200 }, /JSON-RPC/],
      ['odd', { state: 'not_mcp', httpStatus: 200, protocolVersion: null }, /not an MCP revision date/],
      ['hang', { state: 'down', httpStatus: null }, /timeout/],
      ['huge', { state: 'not_mcp' }, /too_large/],
      ['redirect', { state: 'not_mcp' }, /redirect_refused/],
      ['legacy', { state: 'unknown', checkedAt: null, lastError: null }, null],
    ];
    for (const [name, fields, error] of expected) {
      it(`records ${fields.state} for the ${name} endpoint`, async () => {
        const body = await status(name);
        expect(body.endpoints).to.have.length(1);
        expect(body.endpoints[0]).to.deep.include(fields);
        if (error) expect(body.endpoints[0].lastError).to.match(error);
      });
    }

    it('enriches the catalog and tool search with the tools an endpoint lists', async () => {
      const server = (await h.request('/api/v1/servers/com.fixture~working')).body;
      expect(server.tools.map((t: { name: string }) => t.name)).to.deep.equal(['echo', 'live_only']);
      expect(server.sources.map((s: { source: string }) => s.source)).to.include('monitor');
      const tool = (await h.request('/api/v1/tools/com.fixture~working:echo')).body;
      expect(tool.inputSchema.required).to.deep.equal(['text']);
      const found = (await h.request('/api/v1/tools/search?q=live_only')).body;
      expect(found.items.map((t: { serverId: string }) => t.serverId)).to.include('com.fixture~working');
    });

    it('scans the tools an endpoint lists and keeps them in the history as the monitor saw them', async () => {
      const tool = (await h.request('/api/v1/tools/com.fixture~working:live_only')).body;
      expect(tool).to.include({ source: 'monitor' });
      expect(tool.fingerprint).to.match(/^[0-9a-f]{64}$/);
      const history = (await h.request('/api/v1/servers/com.fixture~working/tools/history')).body;
      const current = history.definitions.filter((d: { current: boolean }) => d.current);
      expect(current.map((d: { tool: string; seenBy: string[] }) => [d.tool, d.seenBy])).to.deep.equal([['echo', ['monitor']], ['live_only', ['monitor']]]);
      // The endpoint serves tools the catalog's listing did not say: a change since first seen.
      expect(history.changes.map((c: { tool: string; kind: string }) => [c.tool, c.kind])).to.deep.include(['live_only', 'added']);
      const trust = (await h.request('/api/v1/servers/com.fixture~working/trust')).body;
      expect(trust.checks.find((c: { check: string }) => c.check === 'tools_changed').outcome).to.equal('fail');
    });

    it('keeps a history with uptime, and feeds the trust health check', async () => {
      await runMonitorPass(h.service.store, h.service.net, silentLogger, { clientVersion: 'test', timeoutMs: 800, perHostSpacingMs: 0 });
      const working = (await status('working')).endpoints[0];
      expect(working.history).to.have.length(2);
      expect(working.uptime).to.deep.equal({ checks: 2, up: 2, ratio: 1 });
      const trust = (await h.request('/api/v1/servers/com.fixture~working/trust')).body;
      expect(trust.checks.find((c: { check: string }) => c.check === 'endpoint_health')).to.include({ outcome: 'pass', source: 'monitor' });
      const html = (await h.request('/api/v1/servers/com.fixture~html/trust')).body;
      expect(html.checks.find((c: { check: string }) => c.check === 'endpoint_health').outcome).to.equal('fail');
      const compared = (await h.request('/api/v1/servers/compare?ids=com.fixture~working,com.fixture~hang')).body;
      expect(compared.servers.map((s: { status: string }) => s.status)).to.deep.equal(['up', 'down']);
    });

    it('counts a check it could not record as failed, and goes on with the rest', async () => {
      const { monitor } = h.service.store;
      const record = monitor.recordCheck;
      monitor.recordCheck = async (check, keep) => {
        if (check.url.startsWith(fixtures.working!.url)) throw new Error('the database went away');
        return record(check, keep);
      };
      try {
        const summary = await runMonitorPass(h.service.store, h.service.net, silentLogger, { clientVersion: 'test', timeoutMs: 800, perHostSpacingMs: 0 });
        expect(summary.endpoints).to.equal(8);
        expect(summary.states).to.deep.equal({ failed: 1, auth_required: 1, not_mcp: 4, down: 1, unknown: 1 });
      } finally {
        monitor.recordCheck = record;
      }
    });

    it('says why a legacy SSE endpoint stays unknown', async () => {
      expect((await status('legacy')).note).to.match(/legacy HTTP\+SSE/);
    });

    it('says when a server has no remote endpoints, and 404s an unknown one', async () => {
      const local = await status('local');
      expect(local.endpoints).to.deep.equal([]);
      expect(local.note).to.match(/runs locally/);
      const unknown = await h.request('/api/v1/servers/nope~nope/status');
      expect(unknown.status).to.equal(404);
      expect(unknown.body.code).to.equal('not_found');
      expect(unknown.body.detail).to.contain('nope~nope');
    });
  });

  describe('proxy', () => {
    it('connects to a catalogued endpoint and lists its tools', async () => {
      const { status: code, body } = await post(h, '/api/v1/proxy/connect', { serverId: 'com.fixture~working' });
      expect(code).to.equal(200);
      expect(body).to.deep.include({ serverId: 'com.fixture~working', endpoint: `${fixtures.working!.url}/mcp`, protocolVersion: '2025-06-18', instructions: 'A loopback fixture.' });
      expect(body.serverInfo).to.deep.equal({ name: 'fixture', version: '0.0.1' });
      expect(body.tools.map((t: { name: string }) => t.name)).to.deep.equal(['echo', 'live_only']);
    });

    it('invokes a tool and returns its result', async () => {
      const { status: code, body } = await post(h, '/api/v1/proxy/invoke', { serverId: 'com.fixture~working', tool: 'echo', arguments: { text: 'hi' } });
      expect(code).to.equal(200);
      expect(body.result).to.deep.equal({ content: [{ type: 'text', text: 'echo: hi' }], isError: false });
    });

    it('passes only declared headers, and stores none of them', async () => {
      const token = 'Bearer fixture-token';
      const ok = await post(h, '/api/v1/proxy/connect', { serverId: 'com.fixture~auth', headers: { authorization: token } });
      expect(ok.status).to.equal(200);
      expect(ok.body.serverId).to.equal('com.fixture~auth');
      expect(JSON.stringify(ok.body), 'the answer does not echo the header').not.to.contain('fixture-token');
      expect(fixtures.auth!.requests.at(-1)?.headers.authorization).to.equal(token);
      const undeclared = await post(h, '/api/v1/proxy/connect', { serverId: 'com.fixture~working', headers: { Cookie: 'session=1' } });
      expect(undeclared.status).to.equal(400);
      expect(undeclared.body.code).to.equal('header_not_allowed');
      const files = await h.database.storedText();
      for (const stored of files) expect(stored.includes('fixture-token')).to.equal(false);
    });

    it('refuses an endpoint that is not in the catalog and an unknown server', async () => {
      const other = await post(h, '/api/v1/proxy/connect', { serverId: 'com.fixture~working', endpoint: `${fixtures.auth!.url}/mcp` });
      expect(other.status).to.equal(404);
      expect(other.body.code).to.equal('endpoint_not_found');
      const unknown = await post(h, '/api/v1/proxy/invoke', { serverId: 'nope~nope', tool: 'x', arguments: {} });
      expect(unknown.status).to.equal(404);
      expect(unknown.body.code).to.equal('not_found');
      const local = await post(h, '/api/v1/proxy/connect', { serverId: 'com.fixture~local' });
      expect(local.body.code).to.equal('endpoint_not_found');
    });

    const failures: Array<[string, number, string]> = [
      ['auth', 502, 'upstream_auth_required'],
      ['html', 502, 'upstream_not_mcp'],
      ['hang', 504, 'upstream_timeout'],
      ['huge', 502, 'upstream_too_large'],
      ['redirect', 502, 'upstream_failed'],
    ];
    for (const [name, code, problem] of failures) {
      it(`answers the ${name} endpoint with ${code} ${problem}`, async () => {
        const { status: got, body } = await post(h, '/api/v1/proxy/connect', { serverId: `com.fixture~${name}` });
        expect(got).to.equal(code);
        expect(body.code).to.equal(problem);
      });
    }

    it('validates the request body against the contract', async () => {
      for (const body of [{}, { serverId: 'x', extra: 1 }, { serverId: 'x', endpoint: 'not a url' }]) {
        const { status: got, body: problem } = await post(h, '/api/v1/proxy/connect', body);
        expect(got, JSON.stringify(body)).to.equal(400);
        expect(problem.code).to.equal('validation_failed');
      }
      const invoke = await post(h, '/api/v1/proxy/invoke', { serverId: 'x', tool: 'y' });
      expect(invoke.status).to.equal(400);
      expect(invoke.body.code).to.equal('validation_failed');
    });
  });
});

describe('with the allow list empty', function () {
  this.timeout(30_000);
  let h: Harness;
  let v4: Fixture;
  let v6: Fixture | null = null;
  const hosts = ['127.0.0.1', 'localhost', '2130706433', '0x7f000001', '0177.0.0.1', '127.1', '[::ffff:127.0.0.1]', '0.0.0.0'];

  before(async () => {
    v4 = await startFixture(mcpHandler());
    try {
      v6 = await startFixture(mcpHandler(), '::1');
    } catch {
      v6 = null;
    }
    const entries = hosts.map((host, i) => ({ name: `com.blocked/h${i}`, url: `http://${host}:${v4.port}/mcp` }));
    if (v6) entries.push({ name: 'com.blocked/v6', url: `http://[::1]:${v6.port}/mcp` });
    h = await startHarness({ demo: false, netAllowPrivate: [], inputs: [catalog(entries)] });
  });
  after(async () => {
    await h.close();
    await v4.close();
    await v6?.close();
  });

  it('refuses proxy connect and invoke to every loopback notation with 403, connecting nowhere', async () => {
    const ids = [...hosts.map((_, i) => `com.blocked~h${i}`), ...(v6 ? ['com.blocked~v6'] : [])];
    for (const serverId of ids) {
      const connect = await post(h, '/api/v1/proxy/connect', { serverId });
      expect(connect.status, serverId).to.equal(403);
      expect(connect.body.code).to.equal('blocked_destination');
      const invoke = await post(h, '/api/v1/proxy/invoke', { serverId, tool: 'echo', arguments: {} });
      expect(invoke.status, serverId).to.equal(403);
      expect(invoke.body.code).to.equal('blocked_destination');
    }
    expect(v4.connections()).to.equal(0);
    expect(v6?.connections() ?? 0).to.equal(0);
  });

  it('records every one as blocked in the monitor, connecting nowhere', async () => {
    const summary = await runMonitorPass(h.service.store, h.service.net, silentLogger, { clientVersion: 'test', perHostSpacingMs: 0 });
    expect(summary.states).to.deep.equal({ blocked: hosts.length + (v6 ? 1 : 0) });
    expect(v4.connections()).to.equal(0);
    expect(v6?.connections() ?? 0).to.equal(0);
  });
});

describe('proxy rate limit', () => {
  it('is tighter than discovery and answers 429 with Retry-After', async () => {
    const h = await startHarness({ proxyRateLimit: 1, discoveryRateLimit: 100 });
    try {
      const first = await post(h, '/api/v1/proxy/connect', { serverId: 'nope~nope' });
      expect(first.status).to.equal(404);
      expect(first.body.code).to.equal('not_found');
      expect(first.headers.get('ratelimit-policy')).to.equal('"discovery";q=100;w=60, "proxy";q=1;w=60');
      const second = await post(h, '/api/v1/proxy/connect', { serverId: 'nope~nope' });
      expect(second.status).to.equal(429);
      expect(second.body.code).to.equal('rate_limited');
      expect(second.body.detail).to.match(/proxy/);
      const discovery = await h.request('/api/v1/categories');
      expect(discovery.status).to.equal(200);
      expect(discovery.body.items).to.be.an('array');
    } finally {
      await h.close();
    }
  });
});

describe('special-use names in catalog records', function () {
  this.timeout(30_000);
  let h: Harness;
  let fixture: Fixture;
  const asked: string[] = [];
  // Every one would resolve to the allowed fixture address if it were looked up: refusal must come from the name.
  const hosts = ['localhost.', 'LocalHost', 'LOCALHOST.', 'foo.localhost.', 'x.local.', 'Printer.Local', 'svc.internal.', 'nas.home.arpa.'];

  before(async () => {
    fixture = await startFixture(mcpHandler());
    const entries = hosts.map((host, i) => ({ name: `com.special/h${i}`, url: `http://${host}:${fixture.port}/mcp` }));
    h = await startHarness({
      demo: false,
      netAllowPrivate: ['127.0.0.1/32'],
      net: { resolve: async (name) => (asked.push(name), ['127.0.0.1']) },
      inputs: [catalog(entries)],
    });
  });
  after(async () => {
    await h.close();
    await fixture.close();
  });

  it('answers proxy connect and invoke with 403 blocked_destination (not 502 dns_failure), looking up and connecting nowhere', async () => {
    for (const [i, host] of hosts.entries()) {
      const serverId = `com.special~h${i}`;
      const connect = await post(h, '/api/v1/proxy/connect', { serverId });
      expect(connect.status, host).to.equal(403);
      expect(connect.body.code, host).to.equal('blocked_destination');
      const invoke = await post(h, '/api/v1/proxy/invoke', { serverId, tool: 'echo', arguments: {} });
      expect(invoke.status, host).to.equal(403);
      expect(invoke.body.code, host).to.equal('blocked_destination');
    }
    expect(asked).to.deep.equal([]);
    expect(fixture.connections()).to.equal(0);
  });

  it('records every one as blocked in the monitor, naming the special-use name', async () => {
    const summary = await runMonitorPass(h.service.store, h.service.net, silentLogger, { clientVersion: 'test', perHostSpacingMs: 0 });
    expect(summary.states).to.deep.equal({ blocked: hosts.length });
    const endpoint = (await h.request('/api/v1/servers/com.special~h0/status')).body.endpoints[0];
    expect(endpoint.state).to.equal('blocked');
    expect(endpoint.lastError).to.match(/special-use name/);
    expect(asked).to.deep.equal([]);
    expect(fixture.connections()).to.equal(0);
  });
});
