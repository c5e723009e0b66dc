/**
 * Hostile catalogued endpoints on loopback, against the caps the monitor and the proxy share
 * (src/mcp-client/caps.ts), one cap at a time: 15,000 tools, a schema nested 1,000 levels deep, a
 * 100 KB schema, an 880 KB error, an endless answer, a result nested 2,000 deep. What is kept is cut with a note, stored and served cut; pages stay small.
 * Then the proxy's own rules: the headers it never forwards, one deadline per call, and
 * arguments nested too deep refused before anything is sent.
 */
import { expect } from 'chai';
import { runMonitorPass } from '../../src/monitor/monitor.js';
import { NEVER_FORWARDED } from '../../src/proxy/forwarded-headers.js';
import { REMOTE_CAPS } from '../../src/mcp-client/caps.js';
import { silentLogger, startHarness, type Harness } from '../support/harness.js';
import { catalog, hugeHandler, mcpHandler, startFixture, type Fixture } from '../support/fixture-servers.js';

/** A JSON Schema whose properties nest `levels` deep (two JSON levels each). */
function deepSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i += 1) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

/** A flat object schema with `count` described properties (about 50 bytes each). */
function wideSchema(count: number): Record<string, unknown> {
  return { type: 'object', properties: Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, { type: 'string', description: `Property number ${i}.` }])) };
}

/** A value nested `levels` deep in arrays, as JSON text (JSON.stringify would run out of stack). */
const deepArrays = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** How deep a JSON value nests (a scalar is 0), counted without recursion. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [item, level] = top;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, level + 1);
    for (const child of Object.values(item)) stack.push([child, level + 1]);
  }
  return deepest;
}

const LOUD = 880 * 1024;
const post = (h: Harness, path: string, body: unknown) =>
  h.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const page = async (h: Harness, path: string): Promise<string> => {
  const response = await fetch(`${h.baseUrl}${path}`);
  expect(response.status, path).to.equal(200);
  return response.text();
};

describe('hostile endpoints against the shared caps', function () {
  this.timeout(60_000);
  let h: Harness;
  const fixtures: Record<string, Fixture> = {};
  const declared = NEVER_FORWARDED.map(([name]) => (name.endsWith('-') ? `${name}Authorization` : name));

  before(async () => {
    fixtures.many = await startFixture(mcpHandler({ tools: Array.from({ length: 15_000 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } })) }));
    fixtures.deep = await startFixture(mcpHandler({ tools: [{ name: 'deep', description: 'Nested 1,000 levels deep.', inputSchema: deepSchema(1000) }] }));
    fixtures.loud = await startFixture(mcpHandler({ initializeError: 'E'.repeat(LOUD) }));
    fixtures.wide = await startFixture(mcpHandler({ tools: [{ name: 'wide', inputSchema: wideSchema(2000) }, { name: 'fine', inputSchema: wideSchema(3) }] }));
    fixtures.huge = await startFixture(hugeHandler);
    fixtures.result = await startFixture(mcpHandler({ callResult: { content: [{ type: 'text', text: 'deep' }], structuredContent: { nested: JSON.parse(deepArrays(2000)) } } }));
    fixtures.headers = await startFixture(mcpHandler());
    fixtures.slow = await startFixture(mcpHandler({ delayMs: 600 }));
    fixtures.args = await startFixture(mcpHandler());
    const document = catalog([
      { name: 'com.hostile/many', url: `${fixtures.many.url}/mcp` },
      { name: 'com.hostile/deep', url: `${fixtures.deep.url}/mcp` },
      { name: 'com.hostile/loud', url: `${fixtures.loud.url}/mcp` },
      { name: 'com.hostile/wide', url: `${fixtures.wide.url}/mcp` },
      { name: 'com.hostile/huge', url: `${fixtures.huge.url}/mcp` },
      { name: 'com.hostile/result', url: `${fixtures.result.url}/mcp` },
      { name: 'com.hostile/headers', url: `${fixtures.headers.url}/mcp`, headers: [...declared, 'X-Api-Key'].map((name) => ({ name, description: name, isRequired: false })) },
      { name: 'com.hostile/slow', url: `${fixtures.slow.url}/mcp` },
      { name: 'com.hostile/args', url: `${fixtures.args.url}/mcp` },
      { name: 'com.hostile/ingested', tools: ['deep'] },
    ]);
    // A record whose publisher lists a schema nested 1,000 deep: the page must bound it too.
    const parsed = JSON.parse(document.text);
    parsed.servers.at(-1).server._meta['io.modelcontextprotocol.registry/publisher-provided'].tools[0].inputSchema = deepSchema(1000);
    h = await startHarness({
      demo: false,
      netAllowPrivate: ['127.0.0.1/32'],
      net: { timeoutMs: 5000, connectTimeoutMs: 500 },
      proxyDeadline: 1,
      inputs: [{ file: document.file, text: JSON.stringify(parsed) }],
    });
  });
  after(async () => {
    await h.close();
    for (const fixture of Object.values(fixtures)) await fixture.close();
  });

  describe('the monitor', () => {
    before(async () => {
      await runMonitorPass(h.service.store, h.service.net, silentLogger, { clientVersion: 'test', timeoutMs: 2000, perHostSpacingMs: 0, concurrency: 4 });
    });
    const status = async (name: string) => (await h.request(`/api/v1/servers/com.hostile~${name}/status`)).body.endpoints[0];

    it('keeps 500 of 15,000 tools, and says so in the status', async () => {
      const endpoint = await status('many');
      expect(endpoint).to.include({ state: 'up', toolCount: 15_000 });
      expect(endpoint.cuts).to.deep.equal([{ cap: 'tools', limit: 500, note: 'The endpoint listed 15000 tools; only the first 500 are kept.' }]);
      const server = (await h.request('/api/v1/servers/com.hostile~many')).body;
      expect(server.toolCount).to.equal(500);
      expect(server.tools.map((t: { name: string }) => t.name).slice(0, 2)).to.deep.equal(['t0', 't1']);
    });

    it('keeps a schema nested 1,000 deep cut at 32 levels, with a note', async () => {
      const endpoint = await status('deep');
      expect(endpoint.cuts).to.deep.equal([{ cap: 'depth', limit: REMOTE_CAPS.depth, note: 'one value nested deeper than 32 levels; cut at that depth.' }]);
      const tool = (await h.request('/api/v1/tools/com.hostile~deep:deep')).body;
      expect(depthOf(tool.inputSchema)).to.equal(REMOTE_CAPS.depth + 1);
      expect(JSON.stringify(tool.inputSchema)).to.include('Cut by Sextant: nested deeper than 32 levels.');
    });

    it('stores and serves at most 1,024 characters of an 880 KB error, with a note', async () => {
      const endpoint = await status('loud');
      expect(endpoint.state).to.equal('not_mcp');
      expect(endpoint.lastError).to.match(/^initialize failed: E+…$/);
      expect(endpoint.lastError).to.have.length(REMOTE_CAPS.error_text);
      expect(endpoint.cuts).to.deep.equal([{ cap: 'error_text', limit: 1024, note: `The error text had ${LOUD + 'initialize failed: '.length + ' (-32603)'.length} characters; only the first 1024 are kept.` }]);
      const served = await fetch(`${h.baseUrl}/api/v1/servers/com.hostile~loud/status`);
      expect((await served.arrayBuffer()).byteLength).to.be.below(4096);
      for (const stored of await h.database.storedText()) expect(stored.includes('E'.repeat(2048))).to.equal(false);
    });

    it('replaces an input schema over 64 KiB by one that says so, and the page does not claim "no arguments"', async () => {
      expect((await status('wide')).cuts).to.deep.equal([{ cap: 'schema_size', limit: 65_536, note: 'One input schema larger than 64 KiB; replaced by a note.' }]);
      const wide = (await h.request('/api/v1/tools/com.hostile~wide:wide')).body;
      expect(wide.inputSchema.$comment).to.equal('Cut by Sextant: the schema is larger than 64 KiB.');
      expect(Object.keys((await h.request('/api/v1/tools/com.hostile~wide:fine')).body.inputSchema.properties)).to.have.length(3);
      const html = await page(h, '/servers/com.hostile~wide');
      expect(html).to.include('Its arguments are not shown: Cut by Sextant: the schema is larger than 64 KiB.');
      expect(html).to.not.include('Takes no arguments');
    });

    it('reads no answer over 1 MiB, and says so', async () => {
      const endpoint = await status('huge');
      expect(endpoint).to.include({ state: 'not_mcp', toolCount: null });
      expect(endpoint.lastError).to.match(/^too_large: /);
      expect(endpoint.cuts).to.deep.equal([{ cap: 'response_size', limit: 1_048_576, note: 'The answer was larger than 1 MiB; it was not read.' }]);
    });

    it('renders the server pages small and in bounded time', async () => {
      const sizes: Record<string, number> = {};
      for (const name of ['many', 'deep', 'ingested']) {
        const started = performance.now();
        const html = await page(h, `/servers/com.hostile~${name}`);
        sizes[name] = html.length;
        // A generous bound: before the caps, the 15,000 tools took 1.5 s and 2.2 MB.
        expect(performance.now() - started, name).to.be.below(5000);
      }
      expect(sizes.many, 'many').to.be.below(400 * 1024);
      expect(sizes.deep, 'deep').to.be.below(64 * 1024);
      expect(sizes.ingested, 'ingested').to.be.below(64 * 1024);
      const ingested = await page(h, '/servers/com.hostile~ingested');
      expect(ingested).to.include('nested deeper than 32 levels: not shown');
    });
  });

  describe('the proxy', () => {
    it('lists 500 of 15,000 tools, with the cut', async () => {
      const { status, body } = await post(h, '/api/v1/proxy/connect', { serverId: 'com.hostile~many' });
      expect(status).to.equal(200);
      expect(body.tools).to.have.length(500);
      expect(body.cuts.map((c: { cap: string }) => c.cap)).to.deep.equal(['tools']);
    });

    it('cuts a schema and a result nested too deep', async () => {
      const connected = (await post(h, '/api/v1/proxy/connect', { serverId: 'com.hostile~deep' })).body;
      expect(depthOf(connected.tools[0].inputSchema)).to.equal(REMOTE_CAPS.depth + 1);
      expect(connected.cuts.map((c: { cap: string }) => c.cap)).to.deep.equal(['depth']);
      const invoked = await post(h, '/api/v1/proxy/invoke', { serverId: 'com.hostile~result', tool: 'echo', arguments: {} });
      expect(invoked.status).to.equal(200);
      expect(depthOf(invoked.body.result)).to.equal(REMOTE_CAPS.depth + 1);
      expect(invoked.body.cuts.map((c: { cap: string }) => c.cap)).to.deep.equal(['depth']);
    });

    it('answers an endpoint that sends more than 1 MiB with 502 upstream_too_large', async () => {
      const { status, body } = await post(h, '/api/v1/proxy/connect', { serverId: 'com.hostile~huge' });
      expect(status).to.equal(502);
      expect(body.code).to.equal('upstream_too_large');
    });

    it('answers an 880 KB error with a short problem', async () => {
      const { status, body } = await post(h, '/api/v1/proxy/connect', { serverId: 'com.hostile~loud' });
      expect(status).to.equal(502);
      expect(body.code).to.equal('upstream_failed');
      expect(body.detail.length).to.be.below(1100);
    });

    for (const name of declared) {
      it(`never forwards ${name}, though the record declares it, and sends nothing`, async () => {
        const before = fixtures.headers!.requests.length;
        const { status, body } = await post(h, '/api/v1/proxy/connect', { serverId: 'com.hostile~headers', headers: { [name]: 'value' } });
        expect(status).to.equal(400);
        expect(body.code).to.equal('header_not_allowed');
        expect(body.detail).to.match(/is never forwarded/);
        expect(fixtures.headers!.requests.length).to.equal(before);
      });
    }

    it('forwards a declared header that no rule refuses', async () => {
      const before = fixtures.headers!.requests.length;
      const { status, body } = await post(h, '/api/v1/proxy/connect', { serverId: 'com.hostile~headers', headers: { 'x-api-key': 'k-1' } });
      expect(status).to.equal(200);
      expect(body.serverId).to.equal('com.hostile~headers');
      expect(body.tools).to.be.an('array');
      expect(fixtures.headers!.requests.slice(before).map((r) => r.headers['x-api-key'])).to.deep.equal(['k-1', 'k-1', 'k-1']);
    });

    it('ends a call past its deadline with 504, though each request is within its own timeout', async () => {
      const before = fixtures.slow!.requests.length;
      const started = performance.now();
      const { status, body } = await post(h, '/api/v1/proxy/connect', { serverId: 'com.hostile~slow' });
      const elapsed = performance.now() - started;
      expect(status).to.equal(504);
      expect(body.code).to.equal('upstream_timeout');
      expect(body.detail).to.match(/1-second deadline/);
      expect(elapsed).to.be.within(950, 3000);
      // initialize answered (600 ms), notifications/initialized was cut off: tools/list never went.
      expect(fixtures.slow!.requests.slice(before).map((r) => JSON.parse(r.body).method)).to.not.include('tools/list');
    });

    it('refuses arguments nested too deep with 400, sending nothing', async () => {
      const before = fixtures.args!.requests.length;
      for (const levels of [100_000, REMOTE_CAPS.depth]) {
        const text = `{"serverId":"com.hostile~args","tool":"echo","arguments":{"a":${deepArrays(levels)}}}`;
        const { status, body } = await post(h, '/api/v1/proxy/invoke', text);
        expect(status, String(levels)).to.equal(400);
        expect(body.code).to.equal('arguments_too_deep');
        expect(body.errors).to.deep.equal([{ location: 'body.arguments', message: 'nests deeper than 32 levels' }]);
      }
      expect(fixtures.args!.requests).to.have.length(before);
    });

    it('sends arguments nested as deep as the cap', async () => {
      const text = `{"serverId":"com.hostile~args","tool":"echo","arguments":{"a":${deepArrays(REMOTE_CAPS.depth - 1)}}}`;
      const { status } = await post(h, '/api/v1/proxy/invoke', text);
      expect(status).to.equal(200);
      const call = fixtures.args!.requests.map((r) => JSON.parse(r.body)).find((m) => m.method === 'tools/call');
      expect(depthOf(call.params.arguments)).to.equal(REMOTE_CAPS.depth);
    });
  });
});
