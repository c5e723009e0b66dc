/**
 * Catalog reads answered from the response cache: the same answer as the dispatcher's, the
 * request still validated and rate limited, and a new answer once the catalog changes.
 */
import { expect } from 'chai';
import { ingest } from '../../src/ingest/ingest-service.js';
import { contractFetch, fixture, startHarness, type Harness } from '../support/harness.js';

/** Everything a client sees of a (contract-checked) response but the headers that differ per request. */
async function seen(h: Harness, path: string) {
  const res = await contractFetch(h.baseUrl)(`${h.baseUrl}${path}`);
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !['date', 'x-request-id', 'ratelimit'].includes(name)));
  return { status: res.status, headers, body: await res.text(), requestId: res.headers.get('x-request-id'), rateLimit: res.headers.get('ratelimit') };
}

describe('response cache of catalog reads', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ discoveryRateLimit: 1000 });
  });
  afterEach(async () => h.close());

  const reads = [
    '/api/v1/servers/search?q=github&limit=3',
    '/api/v1/servers/search?sort=tools&offset=5',
    '/api/v1/servers/io.github.github~github-mcp-server',
    `/api/v1/servers/${encodeURIComponent('io.github.github/github-mcp-server')}`,
    '/api/v1/tools/search?authentication=none&sort=a-z&limit=5',
    '/api/v1/categories',
    '/api/v1/servers/io.github.github~github-mcp-server/install?client=vscode',
    '/api/search?q=notion',
    '/api/categories',
    '/api/servers/api.githubcopilot.com',
  ];

  it('answers a repeated read exactly as the first time, with its own request id and rate limit', async () => {
    for (const path of reads) {
      const first = await seen(h, path);
      const again = await seen(h, path);
      expect(first.status, path).to.equal(200);
      expect({ ...again, requestId: null, rateLimit: null }, path).to.deep.equal({ ...first, requestId: null, rateLimit: null });
      expect(again.requestId, path).to.be.a('string').and.not.equal(first.requestId);
      expect(again.rateLimit, path).to.be.a('string').and.not.equal(first.rateLimit);
    }
    // The older routes keep their deprecation headers from the cache too.
    expect((await seen(h, '/api/search?q=notion')).headers).to.include.keys('deprecation', 'link');
  });

  /** Counts the registry service's server searches from now on. */
  const countSearches = (): { calls: number } => {
    const { registry } = h.service;
    const search = registry.searchServers.bind(registry);
    const counted = { calls: 0 };
    registry.searchServers = async (input, generation) => {
      counted.calls += 1;
      return search(input, generation);
    };
    return counted;
  };

  it('does not call the service again for a repeated read', async () => {
    const counted = countSearches();
    for (let i = 0; i < 3; i += 1) await seen(h, '/api/v1/servers/search?q=github&limit=3');
    expect(counted.calls).to.equal(1);
  });

  it('answers REST, the web page and MCP with one search when they ask the same page', async () => {
    const counted = countSearches();
    const rest = (await h.request('/api/v1/servers/search?q=github')).body;
    expect(rest.items.length).to.be.above(0);
    expect((await h.request('/servers?q=github')).body).to.include(`/servers/${rest.items[0].id}`);
    const mcp = await fetch(`${h.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_servers', arguments: { q: 'github' } } }),
    });
    expect((await mcp.json()).result.structuredContent).to.deep.equal(rest);
    expect(counted.calls).to.equal(1);
    expect((await h.request('/api/v1/servers/search?q=github&limit=20&offset=0')).body).to.deep.equal(rest);
    expect(counted.calls).to.equal(1);
  });

  it('still checks the contract after the cache answered a valid request', async () => {
    for (let i = 0; i < 2; i += 1) {
      const { status, body } = await h.request('/api/v1/servers/search?limit=5');
      expect(status).to.equal(200);
      expect(body).to.include({ limit: 5, offset: 0 });
    }
    const invalid: Array<[string, string]> = [
      ['/api/v1/servers/search?limit=500', 'query.limit'],
      ['/api/v1/servers/search?limit=5&bogus=1', 'query.bogus'],
      ['/api/v1/servers/search?limit=5&sort=sideways', 'query.sort'],
      ['/api/v1/tools/search?authentication=magic', 'query.authentication'],
    ];
    for (const [path, location] of invalid) {
      const { status, body, headers } = await h.request(path);
      expect(status, path).to.equal(400);
      expect(headers.get('content-type'), path).to.contain('application/problem+json');
      expect(body.errors.map((e: { location: string }) => e.location), path).to.include(location);
    }
    for (let i = 0; i < 2; i += 1) {
      const { status, body } = await h.request('/api/v1/servers/search?category=no-such-thing');
      expect(status).to.equal(400);
      expect(body.code).to.equal('validation_failed');
      expect(body.errors.map((e: { location: string }) => e.location)).to.deep.equal(['query.category']);
    }
  });

  it('answers from the new catalog once it changed', async () => {
    const path = '/api/v1/servers/search?q=weather';
    const before = JSON.parse((await seen(h, path)).body);
    const unknown = await h.request('/api/v1/servers/io.github.acme~weather');
    expect(unknown.status).to.equal(404);
    expect(unknown.body.code).to.equal('not_found');
    await ingest(h.service.store, [fixture('official-small.json')]);
    const after = JSON.parse((await seen(h, path)).body);
    expect(after.total).to.be.greaterThan(before.total);
    expect(after.items.map((s: { id: string }) => s.id)).to.include('io.github.acme~weather');
    const known = await h.request('/api/v1/servers/io.github.acme~weather');
    expect(known.status).to.equal(200);
    expect(known.body.id).to.equal('io.github.acme~weather');
  });

  it('still answers 404 for an unknown id it was asked before', async () => {
    for (let i = 0; i < 2; i += 1) {
      const { status, body } = await h.request('/api/v1/tools/io.github.acme~nothing:nothing');
      expect(status).to.equal(404);
      expect(body.code).to.equal('not_found');
    }
  });
});
