/** /mcp at the HTTP level: every Streamable HTTP and JSON-RPC rule, contract-checked. */
import { expect } from 'chai';
import { loadContract } from '../../src/contract.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { createReadModel } from '../../src/read/read-model.js';
import { handleMcpPost } from '../../src/mcp/transport.js';
import { encode } from '../../src/read/answer.js';
import { ingest } from '../../src/ingest/ingest-service.js';
import { fixture, silentLogger, startHarness, type Harness } from '../support/harness.js';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

describe('MCP endpoint over HTTP', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ mcpAllowedOrigins: ['http://localhost:5173'] });
  });
  after(async () => h.close());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    h.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  describe('lifecycle', () => {
    for (const version of ['2025-11-25', '2025-06-18', '2025-03-26']) {
      it(`initialize accepts ${version} and answers with it`, async () => {
        const { status, body } = await post({ ...INIT, params: { ...INIT.params, protocolVersion: version } });
        expect(status).to.equal(200);
        expect(body.result).to.include({ protocolVersion: version });
        expect(body.result.capabilities).to.deep.equal({ tools: { listChanged: false } });
        expect(body.result.serverInfo).to.include({ name: 'sextant' });
        expect(body.result.instructions).to.be.a('string').and.not.be.empty;
      });
    }

    it('offers the latest version for one it does not know', async () => {
      const { body } = await post({ ...INIT, params: { ...INIT.params, protocolVersion: '2099-01-01' } });
      expect(body.result.protocolVersion).to.equal('2025-11-25');
    });

    it('answers ping with an empty result', async () => {
      const { status, body } = await post({ jsonrpc: '2.0', id: 'p1', method: 'ping' });
      expect(status).to.equal(200);
      expect(body).to.deep.equal({ jsonrpc: '2.0', id: 'p1', result: {} });
    });

    it('accepts notifications and client responses with 202 and no body', async () => {
      for (const message of [
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
        { jsonrpc: '2.0', id: 7, result: {} },
        { jsonrpc: '2.0', id: 8, error: { code: -1, message: 'no' } },
      ]) {
        const { status, body, headers } = await post(message);
        expect(status, JSON.stringify(message)).to.equal(202);
        expect(body).to.equal(null);
        expect(headers.get('content-length')).to.be.oneOf([null, '0']);
      }
    });

    for (const method of ['GET', 'DELETE']) {
      it(`answers ${method} /mcp with 405 and Allow: POST`, async () => {
        const { status, body, headers } = await h.request('/mcp', { method });
        expect(status).to.equal(405);
        expect(headers.get('allow')).to.equal('POST');
        expect(body.code).to.equal('method_not_allowed');
      });
    }
  });

  describe('transport rules', () => {
    it('refuses a batch with -32600', async () => {
      const { status, body } = await post([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]);
      expect(status).to.equal(400);
      expect(body).to.deep.include({ id: null });
      expect(body.error.code).to.equal(-32600);
    });

    it('refuses an unsupported MCP-Protocol-Version header with 400 listing the supported ones', async () => {
      const { status, body } = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2024-11-05' });
      expect(status).to.equal(400);
      expect(body.error.code).to.equal(-32600);
      expect(body.error.data.supported).to.deep.equal(['2025-11-25', '2025-06-18', '2025-03-26']);
    });

    it('accepts a supported MCP-Protocol-Version header', async () => {
      const { status, body } = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2025-06-18' });
      expect(status).to.equal(200);
      expect(body).to.deep.equal({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it('refuses an Origin that is not allowed with 403 problem+json', async () => {
      const { status, body } = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'https://evil.example.com' });
      expect(status).to.equal(403);
      expect(body.code).to.equal('origin_not_allowed');
    });

    it('accepts an allowed Origin, and no Origin at all', async () => {
      for (const headers of [{ origin: 'http://localhost:5173' }, {}] as Array<Record<string, string>>) {
        const { status, body } = await post({ jsonrpc: '2.0', id: 1, method: 'ping' }, headers);
        expect(status, JSON.stringify(headers)).to.equal(200);
        expect(body).to.deep.equal({ jsonrpc: '2.0', id: 1, result: {} });
      }
    });
  });

  describe('JSON-RPC errors', () => {
    it('answers a body that is not JSON with -32700 and HTTP 400', async () => {
      const { status, body } = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(status).to.equal(400);
      expect(body).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not JSON' } });
    });

    const invalid: Array<[string, unknown, string | number | null]> = [
      ['a string', '"hello"', null],
      ['no jsonrpc version', { id: 3, method: 'ping' }, 3],
      ['a method that is not a string', { jsonrpc: '2.0', id: 4, method: 42 }, 4],
      ['a null id', { jsonrpc: '2.0', id: null, method: 'ping' }, null],
    ];
    for (const [what, message, id] of invalid) {
      it(`answers ${what} with -32600 and HTTP 400`, async () => {
        const { status, body } = await post(typeof message === 'string' ? message : JSON.stringify(message));
        expect(status).to.equal(400);
        expect(body.id).to.equal(id);
        expect(body.error.code).to.equal(-32600);
      });
    }

    it('answers an unknown method with -32601', async () => {
      const { status, body } = await post({ jsonrpc: '2.0', id: 5, method: 'resources/list' });
      expect(status).to.equal(200);
      expect(body).to.deep.include({ id: 5 });
      expect(body.error.code).to.equal(-32601);
    });

    it('answers malformed params and an unknown tool with -32602', async () => {
      for (const params of [{}, { name: 42 }, { name: 'search_servers', arguments: [1] }, { name: 'no_such_tool', arguments: {} }]) {
        const { body } = await post({ jsonrpc: '2.0', id: 6, method: 'tools/call', params });
        expect(body.error?.code, JSON.stringify(params)).to.equal(-32602);
      }
      const { body } = await post({ jsonrpc: '2.0', id: 6, method: 'initialize', params: {} });
      expect(body.error.code).to.equal(-32602);
    });

    it('answers invalid tool arguments with -32602 before 2025-11-25 and isError from 2025-11-25 on', async () => {
      const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'search_servers', arguments: { limit: 'many' } } };
      const older = await post(call, { 'mcp-protocol-version': '2025-06-18' });
      expect(older.body.error.code).to.equal(-32602);
      expect(older.body.error.message).to.match(/limit/);
      const latest = await post(call, { 'mcp-protocol-version': '2025-11-25' });
      expect(latest.body.result.isError).to.equal(true);
      expect(latest.body.result.content[0].text).to.match(/limit/);
    });

    it('answers an internal failure with -32603 and no detail', async () => {
      const failing = createMcpServer({
        read: new Proxy({} as never, { get: () => async () => { throw new Error('db path /srv/x leaked'); } }),
        assessments: h.service.assessments, document: loadContract(), logger: silentLogger, version: '1.0.0',
      });
      const response = await failing.receive({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_categories', arguments: {} } }, { protocolVersion: '2025-11-25', client: 'test' });
      expect(response).to.deep.equal({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } });
    });
  });

  describe('tools', () => {
    it('pages tools/list with an opaque cursor and refuses a forged one', async () => {
      const server = createMcpServer({ read: h.service.read, assessments: h.service.assessments, document: loadContract(), logger: silentLogger, version: '1.0.0', pageSize: 2 });
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const response = await server.receive({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: cursor ? { cursor } : {} }, { protocolVersion: '2025-11-25', client: 'test' });
        names.push(...response!.result.tools.map((t: { name: string }) => t.name));
        cursor = response!.result.nextCursor;
      } while (cursor);
      expect(names).to.deep.equal(['search_servers', 'search_tools', 'get_server', 'get_tool', 'get_install', 'get_trust', 'get_status', 'compare_servers', 'list_categories', 'create_assessment', 'get_assessment', 'list_assessments']);
      const forged = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'not-a-cursor' } });
      expect(forged.body.error.code).to.equal(-32602);
    });

    it('returns the same JSON as structuredContent and as text', async () => {
      const { body } = await post({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'list_categories', arguments: {} } });
      expect(body.result.isError).to.equal(false);
      expect(JSON.parse(body.result.content[0].text)).to.deep.equal(body.result.structuredContent);
      expect(body.result.structuredContent).to.deep.equal((await h.request('/api/v1/categories')).body);
    });

    it('answers a repeated tools/call (from the kept result) exactly as the first, in canonical JSON', async () => {
      // Uncompressed, so that Content-Length counts the JSON text itself.
      const call = (id: number | string) => fetch(`${h.baseUrl}/mcp`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25', 'accept-encoding': 'identity' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_servers', arguments: { q: 'github', limit: 5 } } }),
      });
      const texts: string[] = [];
      const headers: string[][] = [];
      for (const id of [21, 21, 'again']) {
        const res = await call(id);
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
        const text = await res.text();
        expect(res.headers.get('content-length')).to.equal(String(Buffer.byteLength(text)));
        headers.push([...res.headers.keys()].filter((name) => name !== 'date').sort());
        texts.push(text);
      }
      // The kept answers carry the same headers as the first (their own request id included).
      expect(headers[1]).to.deep.equal(headers[0]);
      expect(headers[2]).to.deep.equal(headers[0]);
      expect(texts[1]).to.equal(texts[0]);
      const [first, , other] = texts.map((text) => JSON.parse(text ?? ''));
      expect(texts[0]).to.equal(JSON.stringify(first));
      expect(texts[2]).to.equal(JSON.stringify(other));
      expect(other).to.deep.equal({ ...first, id: 'again' });
      expect(first.result.content[0].text).to.equal(JSON.stringify(first.result.structuredContent));
      expect(first.result.structuredContent).to.deep.equal((await h.request('/api/v1/servers/search?q=github&limit=5')).body);
    });

    it('applies the transport rules to a call it keeps: a refused Origin or protocol version is refused again', async () => {
      const body = { jsonrpc: '2.0', id: 31, method: 'tools/call', params: { name: 'search_servers', arguments: { q: 'github', limit: 3 } } };
      expect((await post(body)).status).to.equal(200);
      expect((await post(body)).body.result.isError).to.equal(false);
      const refused = await post(body, { origin: 'https://evil.example' });
      expect([refused.status, refused.body.code]).to.deep.equal([403, 'origin_not_allowed']);
      const empty = await post(body, { origin: '' });
      expect(empty.status, 'an empty Origin is not an allowed one').to.equal(403);
      const version = await post(body, { 'mcp-protocol-version': '1999-01-01' });
      expect([version.status, version.body.error?.code]).to.deep.equal([400, -32600]);
    });

    it('still scrubs a credential-shaped request id echoed around a kept result', async () => {
      const id = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
      for (let i = 0; i < 2; i += 1) {
        const { body } = await post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_servers', arguments: { q: 'github', limit: 5 } } });
        expect(body.id).to.equal('[redacted]');
        expect(body.result.isError).to.equal(false);
      }
    });

    it('answers a repeated catalog read without the service, per generation; keeps status only for a moment', async () => {
      const counted = new Map<string, number>();
      const registry = new Proxy(h.service.registry, {
        get: (target, key) => (...args: unknown[]) => {
          counted.set(String(key), (counted.get(String(key)) ?? 0) + 1);
          return (Reflect.get(target, key) as (...a: unknown[]) => unknown).apply(target, args);
        },
      });
      let generation = 'g1';
      const read = createReadModel({ discovery: registry, generation: async () => generation, monitorTtlMs: 300 });
      const server = createMcpServer({ read, assessments: h.service.assessments, document: loadContract(), logger: silentLogger, version: '1.0.0' });
      const call = async (name: string, args: object, id = 1) => {
        const reply = await handleMcpPost(server, { allowedOrigins: [], publicOrigin: null }, JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }), { 'mcp-protocol-version': '2025-11-25' }, 'test');
        return 'body' in reply ? encode(reply.body).toString() : undefined;
      };
      const first = await call('search_servers', { q: 'github' });
      expect(first).to.be.a('string');
      expect(await call('search_servers', { q: 'github' }, 2)).to.equal(first?.replace('"id":1,', '"id":2,'));
      expect(counted.get('searchServers'), 'the second call came from the kept result').to.equal(1);
      generation = 'g2';
      await call('search_servers', { q: 'github' });
      expect(counted.get('searchServers'), 'a new generation asks the service again').to.equal(2);
      const [id] = (await h.request('/api/v1/servers/search?q=github&limit=1')).body.items.map((s: { id: string }) => s.id);
      await call('get_status', { id });
      await call('get_status', { id });
      expect(counted.get('statusOf'), 'a burst of status reads costs one computation').to.equal(1);
      await new Promise((resolve) => setTimeout(resolve, 400));
      await call('get_status', { id });
      expect(counted.get('statusOf'), 'status reads monitor checks and the clock: kept only monitorTtlMs').to.equal(2);
    });

    it('answers tools/call from the new catalog once it changed', async () => {
      const fresh = await startHarness();
      try {
        const search = async () => (await fresh.request('/mcp', {
          method: 'POST', headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_servers', arguments: { q: 'weather' } } }),
        })).body.result.structuredContent;
        const before = await search();
        expect(await search()).to.deep.equal(before);
        await ingest(fresh.service.store, [fixture('official-small.json')]);
        const after = await search();
        expect(after.total).to.be.greaterThan(before.total);
        expect(after.items.map((s: { id: string }) => s.id)).to.include('io.github.acme~weather');
      } finally {
        await fresh.close();
      }
    });

    for (const q of ['github', 'database', 'search web', 'memory', 'payments stripe']) {
      it(`search_servers agrees with GET /api/v1/servers/search for "${q}"`, async () => {
        const rest = await h.request(`/api/v1/servers/search?q=${encodeURIComponent(q)}&limit=10`);
        const { body } = await post({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'search_servers', arguments: { q, limit: 10 } } });
        expect(body.result.structuredContent.items.map((s: { id: string }) => s.id)).to.deep.equal(rest.body.items.map((s: { id: string }) => s.id));
        expect(body.result.structuredContent).to.deep.equal(rest.body);
      });
    }

    it('counts /mcp against its own rate limit', async () => {
      const limited = await startHarness({ mcpRateLimit: 1, discoveryRateLimit: 1 });
      try {
        const call = () => limited.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
        const first = await call();
        expect(first.status).to.equal(200);
        expect(first.body).to.deep.equal({ jsonrpc: '2.0', id: 1, result: {} });
        expect(first.headers.get('ratelimit-policy')).to.equal('"mcp";q=1;w=60');
        const second = await call();
        expect(second.status).to.equal(429);
        expect(second.body.code).to.equal('rate_limited');
        expect(second.headers.get('retry-after')).to.match(/^\d+$/);
      } finally {
        await limited.close();
      }
    });
  });
});
