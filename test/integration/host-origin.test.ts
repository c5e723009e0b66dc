/**
 * Host validation on every route (DNS rebinding) and the origins /mcp accepts (DESIGN.md "Host
 * and Origin"), through the real app on loopback. Requests carry a chosen Host header (undici's
 * `request`; fetch would replace it), still sent to 127.0.0.1; every response is contract-checked.
 */
import { expect } from 'chai';
import { request } from 'undici';
import { loadContract } from '../../src/contract.js';
import { contractViolations } from '../support/contract.js';
import { startHarness, type Harness } from '../support/harness.js';

interface Sent {
  readonly status: number;
  readonly body: any;
}

/** One request to the harness with the given headers (Host included), checked against the contract. */
async function send(h: Harness, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Sent> {
  const res = await request(`${h.baseUrl}${path}`, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    /* not JSON */
  }
  const flat = new Headers();
  for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat.set(name, Array.isArray(value) ? value.join(', ') : value);
  const violations = await contractViolations({ method, path: new URL(path, h.baseUrl).pathname, status: res.statusCode, headers: flat, body: parsed });
  expect(violations, `${method} ${path} → ${res.statusCode}`).to.deep.equal([]);
  return { status: res.statusCode, body: parsed };
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const PONG = { jsonrpc: '2.0', id: 1, result: {} };

/** Asserts the request was answered, not refused: a 200 with the category list. */
function expectCategories(res: Sent, host: string): void {
  expect(res.status, host).to.equal(200);
  expect(res.body.items, host).to.be.an('array').that.is.not.empty;
}

/** Asserts /mcp answered the ping. */
function expectPong(res: Sent, what: string): void {
  expect(res.status, what).to.equal(200);
  expect(res.body, what).to.deep.equal(PONG);
}

/** Every operation of the contract as a request: path parameters filled, POSTs with an empty JSON object. */
function everyOperation(): Array<{ operationId: string; method: string; path: string; responses: Record<string, unknown> }> {
  const document = loadContract();
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { operationId?: string; responses?: Record<string, unknown> }>)
      .filter(([method]) => ['get', 'post'].includes(method))
      .map(([method, operation]) => ({ operationId: operation.operationId ?? path, method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'x'), responses: operation.responses ?? {} })),
  );
}

describe('Host validation (DNS rebinding), bound to loopback', () => {
  let h: Harness;
  let port: string;
  before(async () => {
    h = await startHarness();
    port = new URL(h.baseUrl).port;
  });
  after(async () => h.close());

  it('declares the 403 on every operation of the contract', () => {
    const operations = everyOperation();
    expect(operations.length).to.be.greaterThan(15);
    for (const operation of operations) expect(operation.responses, operation.operationId).to.have.property('403');
  });

  for (const operation of everyOperation()) {
    it(`answers ${operation.method} ${operation.path} (${operation.operationId}) with 403 host_not_allowed for Host evil.example.com`, async () => {
      const body = operation.method === 'POST' ? (operation.path === '/mcp' ? PING : '{}') : undefined;
      const res = await send(h, operation.method, operation.path, { ...MCP_HEADERS, host: `evil.example.com:${port}` }, body);
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ code: 'host_not_allowed', status: 403 });
    });
  }

  it('refuses unknown routes, wrong methods and the older routes alike', async () => {
    for (const [method, path] of [['GET', '/no/such/page'], ['GET', '/api/v1/no/such/route'], ['DELETE', '/mcp'], ['GET', '/api/search?q=github'], ['GET', '/api/servers/x']]) {
      const res = await send(h, method ?? 'GET', path ?? '/', { host: 'evil.example.com' });
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.body.code).to.equal('host_not_allowed');
    }
  });

  it('refuses a loopback name on another port, a trailing-dot localhost and a private address', async () => {
    for (const host of [`127.0.0.1:${Number(port) === 65535 ? 1 : Number(port) + 1}`, `localhost.:${port}`, `10.0.0.1:${port}`, 'localhost']) {
      const res = await send(h, 'GET', '/api/v1/categories', { host });
      expect(res.status, host).to.equal(403);
      expect(res.body.code).to.equal('host_not_allowed');
    }
  });

  it('answers loopback names and addresses with the bound port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, `app.localhost:${port}`]) {
      expectCategories(await send(h, 'GET', '/api/v1/categories', { host }), host);
    }
    expectPong(await send(h, 'POST', '/mcp', { ...MCP_HEADERS, host: `localhost:${port}` }, PING), 'localhost');
  });
});

describe('Host validation with PUBLIC_URL and ALLOWED_HOSTS', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ publicUrl: 'https://sextant.example.com', allowedHosts: ['lb.example.org:8080'] });
  });
  after(async () => h.close());

  it('answers the hosts the deployment is named by, and still refuses others', async () => {
    for (const host of ['sextant.example.com', 'sextant.example.com:443', 'lb.example.org:8080']) {
      expectCategories(await send(h, 'GET', '/api/v1/categories', { host }), host);
    }
    for (const host of ['evil.example.com', 'sextant.example.com:8443', 'lb.example.org']) {
      const res = await send(h, 'GET', '/api/v1/categories', { host });
      expect(res.status, host).to.equal(403);
      expect(res.body.code).to.equal('host_not_allowed');
    }
  });

  it('accepts PUBLIC_URL as an origin at /mcp beside the request\'s own', async () => {
    const port = new URL(h.baseUrl).port;
    expectPong(await send(h, 'POST', '/mcp', { ...MCP_HEADERS, host: `127.0.0.1:${port}`, origin: 'https://sextant.example.com' }, PING), 'asked by address');
    expectPong(await send(h, 'POST', '/mcp', { ...MCP_HEADERS, host: 'sextant.example.com', origin: 'https://sextant.example.com' }, PING), 'asked by name');
    const foreign = await send(h, 'POST', '/mcp', { ...MCP_HEADERS, host: 'sextant.example.com', origin: 'https://evil.example' }, PING);
    expect(foreign.status).to.equal(403);
    expect(foreign.body.code).to.equal('origin_not_allowed');
  });
});

describe('/mcp accepts its own origin', () => {
  let h: Harness;
  let port: string;
  before(async () => {
    h = await startHarness({ mcpAllowedOrigins: [] });
    port = new URL(h.baseUrl).port;
  });
  after(async () => h.close());

  it(`accepts Origin http://127.0.0.1:<its port> with no MCP_ALLOWED_ORIGINS`, async () => {
    const res = await send(h, 'POST', '/mcp', { ...MCP_HEADERS, host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` }, PING);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('accepts http://localhost:<its port> when that is the Host', async () => {
    expectPong(await send(h, 'POST', '/mcp', { ...MCP_HEADERS, host: `localhost:${port}`, origin: `http://localhost:${port}` }, PING), 'localhost');
  });

  it('refuses a foreign origin, and another loopback origin than the one asked, with 403 origin_not_allowed', async () => {
    for (const origin of ['http://evil.example', `http://localhost:${port}`, `http://127.0.0.1:${Number(port) === 65535 ? 1 : Number(port) + 1}`, `https://127.0.0.1:${port}`, 'null']) {
      const res = await send(h, 'POST', '/mcp', { ...MCP_HEADERS, host: `127.0.0.1:${port}`, origin }, PING);
      expect(res.status, origin).to.equal(403);
      expect(res.body.code, origin).to.equal('origin_not_allowed');
    }
  });
});
