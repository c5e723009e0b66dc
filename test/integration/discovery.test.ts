/** The discovery routes end to end on the demo catalog plus small fixtures; every response is contract-checked. */
import { expect } from 'chai';
import { fixture, startHarness, type Harness } from '../support/harness.js';
import { TEST_DIALECT } from '../support/database.js';
import type { ServerItem } from '../support/types.js';
import { loadContract } from '../../src/contract.js';

describe('discovery routes', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ inputs: [fixture('official-small.json'), fixture('docker-small.json'), fixture('toolsdk-small.json')] });
  });
  after(async () => h.close());

  const allServers = async (sort: string): Promise<ServerItem[]> => {
    const items: ServerItem[] = [];
    for (let offset = 0; ; offset += 100) {
      const { body } = await h.request(`/api/v1/servers/search?sort=${sort}&limit=100&offset=${offset}`);
      items.push(...body.items);
      if (items.length >= body.total) return items;
    }
  };

  describe('GET /api/v1/servers/search', () => {
    it('defaults to a-z without q and echoes the envelope', async () => {
      const { data, response } = await h.client.GET('/api/v1/servers/search');
      expect(response.status).to.equal(200);
      expect(data).to.include({ sort: 'a-z', limit: 20, offset: 0, query: null, category: null });
      expect(data?.items).to.have.length(20);
      expect(data?.total).to.be.greaterThan(30);
    });

    it('defaults to relevance with q and echoes the normalized query', async () => {
      const { data } = await h.client.GET('/api/v1/servers/search', { params: { query: { q: '  Weather ' } } });
      expect(data).to.include({ sort: 'relevance', query: 'weather' });
      expect(data?.items[0]?.name).to.equal('io.github.acme/weather');
    });

    it('applies relevance without q as a-z', async () => {
      const { data } = await h.client.GET('/api/v1/servers/search', { params: { query: { sort: 'relevance' } } });
      expect(data?.sort).to.equal('a-z');
    });

    it('ranks an exact name match first', async () => {
      const { data } = await h.client.GET('/api/v1/servers/search', { params: { query: { q: 'github' } } });
      expect(data?.items[0]?.name).to.equal('io.github.github/github-mcp-server');
      const notes = await h.client.GET('/api/v1/servers/search', { params: { query: { q: 'notes' } } });
      expect(notes.data?.items[0]?.name).to.equal('com.example/notes');
    });

    it('matches words as prefixes over tool names and descriptions too, and leaves out a word no server holds', async () => {
      const { data } = await h.client.GET('/api/v1/servers/search', { params: { query: { q: 'radar' } } });
      expect(data?.items.map((s) => s.name)).to.deep.equal(['io.github.acme/weather']);
      const both = await h.client.GET('/api/v1/servers/search', { params: { query: { q: 'forec sever' } } });
      expect(both.data?.items[0]?.name).to.equal('io.github.acme/weather');
      expect(both.data?.items[0]?.matchedTerms).to.deep.equal(['forec', 'sever']);
      const unknown = await h.client.GET('/api/v1/servers/search', { params: { query: { q: 'forecast zzzunknownword' } } });
      expect(unknown.data?.terms).to.deep.equal(['forecast']);
      expect(unknown.data?.items.map((s) => s.name)).to.include('io.github.acme/weather');
      const none = await h.client.GET('/api/v1/servers/search', { params: { query: { q: 'zzzunknownword' } } });
      expect(none.data).to.include({ total: 0 });
      expect(none.data?.items).to.deep.equal([]);
    });

    it('answers a query with no searchable word with an empty page', async () => {
      const { data } = await h.client.GET('/api/v1/servers/search', { params: { query: { q: '"*)(' } } });
      expect(data).to.include({ total: 0, query: '"*)(' });
    });

    const orderChecks: Record<string, (a: ServerItem, b: ServerItem) => boolean> = {
      'a-z': (a, b) => (a.title ?? a.name).toLowerCase() <= (b.title ?? b.name).toLowerCase(),
      'z-a': (a, b) => (a.title ?? a.name).toLowerCase() >= (b.title ?? b.name).toLowerCase(),
      newest: (a, b) => b.publishedAt === null || (a.publishedAt !== null && a.publishedAt >= b.publishedAt),
      oldest: (a, b) => b.publishedAt === null || (a.publishedAt !== null && a.publishedAt <= b.publishedAt),
      // Servers whose tools are not listed (null) come last.
      tools: (a, b) => b.toolCount === null || (a.toolCount !== null && a.toolCount >= b.toolCount),
      endpoints: (a, b) => a.endpointCount >= b.endpointCount,
    };
    for (const [sort, inOrder] of Object.entries(orderChecks)) {
      it(`sorts by ${sort}, breaking ties by id, and echoes it`, async () => {
        const items = await allServers(sort);
        expect(items.length).to.be.greaterThan(30);
        for (let i = 1; i < items.length; i += 1) {
          const [a, b] = [items[i - 1]!, items[i]!];
          expect(inOrder(a, b), `${sort}: ${a.id} before ${b.id}`).to.equal(true);
        }
        const { body } = await h.request(`/api/v1/servers/search?sort=${sort}&limit=1`);
        expect(body.sort).to.equal(sort);
      });
    }

    it('pages without overlap or gaps', async () => {
      const seen: string[] = [];
      let total = 0;
      for (let offset = 0; offset === 0 || offset < total; offset += 7) {
        const { data } = await h.client.GET('/api/v1/servers/search', { params: { query: { limit: 7, offset, sort: 'tools' } } });
        total = data!.total;
        seen.push(...data!.items.map((s) => s.id));
      }
      expect(seen).to.have.length(total);
      expect(new Set(seen).size).to.equal(total);
    });

    it('filters by category and rejects an unknown one', async () => {
      const { data } = await h.client.GET('/api/v1/servers/search', { params: { query: { category: 'databases', limit: 100 } } });
      expect(data?.total).to.be.greaterThan(0);
      expect(data?.items.every((s) => s.categories.includes('databases'))).to.equal(true);
      const bad = await h.request('/api/v1/servers/search?category=no-such-category');
      expect(bad.status).to.equal(400);
      expect(bad.body.errors[0].location).to.equal('query.category');
    });

    const badQueries: Array<[string, string]> = [
      ['limit=0', 'query.limit'],
      ['limit=101', 'query.limit'],
      ['limit=-1', 'query.limit'],
      ['limit=abc', 'query.limit'],
      ['offset=-1', 'query.offset'],
      ['offset=10001', 'query.offset'],
      ['sort=popular', 'query.sort'],
      [`q=${'x'.repeat(1001)}`, 'query.q'],
    ];
    for (const [query, location] of badQueries) {
      it(`rejects ${query.slice(0, 20)} with 400 problem+json naming ${location}`, async () => {
        const { status, headers, body } = await h.request(`/api/v1/servers/search?${query}`);
        expect(status).to.equal(400);
        expect(headers.get('content-type')).to.match(/^application\/problem\+json/);
        expect(body).to.include({ status: 400, code: 'validation_failed', requestId: headers.get('x-request-id') });
        expect(body.errors.map((e: { location: string }) => e.location)).to.include(location);
      });
    }
  });

  describe('GET /api/v1/tools/search', () => {
    it('finds tools by name with relevance and echoes the filters', async () => {
      const { data } = await h.client.GET('/api/v1/tools/search', { params: { query: { q: 'get_forecast' } } });
      expect(data).to.include({ sort: 'relevance', authentication: null });
      expect(data?.items[0]).to.include({ name: 'get_forecast', serverName: 'io.github.acme/weather' });
    });

    it('filters on authentication, none included', async () => {
      for (const authentication of ['none', 'api_key', 'oauth', 'unknown'] as const) {
        const { data } = await h.client.GET('/api/v1/tools/search', { params: { query: { authentication, limit: 100 } } });
        expect(data?.authentication).to.equal(authentication);
        expect(data?.items.every((t) => t.authentication === authentication), authentication).to.equal(true);
        if (authentication !== 'unknown') expect(data?.total, authentication).to.be.greaterThan(0);
      }
      const oauth = await h.client.GET('/api/v1/tools/search', { params: { query: { authentication: 'oauth' } } });
      expect(oauth.data?.items.map((t) => t.name)).to.include('create_card');
    });

    it('sorts a-z by default without q, and z-a on request', async () => {
      const az = await h.client.GET('/api/v1/tools/search', { params: { query: { limit: 100 } } });
      const names = az.data!.items.map((t) => t.name.toLowerCase());
      expect(az.data?.sort).to.equal('a-z');
      expect(names).to.deep.equal([...names].sort());
      const za = await h.client.GET('/api/v1/tools/search', { params: { query: { sort: 'z-a', limit: 100 } } });
      const reversed = za.data!.items.map((t) => t.name.toLowerCase());
      expect(reversed).to.deep.equal([...reversed].sort().reverse());
    });

    it('rejects an unknown authentication value', async () => {
      const { status, body } = await h.request('/api/v1/tools/search?authentication=password');
      expect(status).to.equal(400);
      expect(body.errors[0].location).to.equal('query.authentication');
    });
  });

  describe('lookups', () => {
    it('gets a server by id and by URL-encoded canonical name', async () => {
      const byId = await h.client.GET('/api/v1/servers/{id}', { params: { path: { id: 'io.github.acme~weather' } } });
      expect(byId.data).to.include({ id: 'io.github.acme~weather', name: 'io.github.acme/weather', version: '1.1.0' });
      expect(byId.data?.versions.map((v) => v.version)).to.deep.equal(['1.1.0', '1.0.0']);
      expect(byId.data?.sources.map((s) => s.source).sort()).to.deep.equal(['docker', 'official', 'toolsdk']);
      const byName = await h.client.GET('/api/v1/servers/{id}', { params: { path: { id: 'io.github.acme/weather' } } });
      expect(byName.data).to.deep.equal(byId.data);
    });

    it('merges tools across sources and links each tool to its record', async () => {
      const { data: server } = await h.client.GET('/api/v1/servers/{id}', { params: { path: { id: 'io.github.acme~weather' } } });
      expect(server?.tools.map((t) => t.name)).to.deep.equal(['get_forecast', 'list_alerts', 'get_radar', 'get_history']);
      const { data: tool } = await h.client.GET('/api/v1/tools/{id}', { params: { path: { id: server!.tools[0]!.id } } });
      expect(tool).to.include({ name: 'get_forecast', serverId: 'io.github.acme~weather', authentication: 'api_key' });
      expect(tool?.inputSchema?.required).to.deep.equal(['city']);
      expect(tool?.annotations.readOnlyHint).to.equal(true);
    });

    it('returns 404 problem+json for an unknown server id and tool id', async () => {
      for (const path of ['/api/v1/servers/no.such~server', '/api/v1/tools/no.such~server:tool']) {
        const { status, body } = await h.request(path);
        expect(status, path).to.equal(404);
        expect(body.code).to.equal('not_found');
      }
    });
  });

  describe('categories', () => {
    it('lists the taxonomy with counts that match category search', async () => {
      const { data } = await h.client.GET('/api/v1/categories');
      expect(data?.total).to.equal(data?.items.length);
      expect(data!.items.length).to.be.within(15, 25);
      for (const category of data!.items.filter((c) => c.count > 0).slice(0, 5)) {
        const page = await h.client.GET('/api/v1/servers/search', { params: { query: { category: category.slug, limit: 1 } } });
        expect(page.data?.total, category.slug).to.equal(category.count);
      }
    });
  });

  describe('older routes', () => {
    it('answer like v1 with Deprecation and successor Link headers', async () => {
      const legacy = await h.request('/api/search?q=weather');
      const v1 = await h.request('/api/v1/servers/search?q=weather');
      expect(legacy.body).to.deep.equal(v1.body);
      expect(legacy.headers.get('deprecation')).to.match(/^@\d+$/);
      expect(legacy.headers.get('link')).to.equal('</api/v1/servers/search>; rel="successor-version"');
      const categories = await h.request('/api/categories');
      expect(categories.body).to.deep.equal((await h.request('/api/v1/categories')).body);
      expect(categories.headers.get('link')).to.contain('rel="successor-version"');
    });

    it('filters the older search by category', async () => {
      const { body } = await h.request('/api/search?category=productivity&limit=100');
      expect(body.items.length).to.be.greaterThan(0);
      expect(body.items.every((s: ServerItem) => s.categories.includes('productivity'))).to.equal(true);
    });

    it('finds a server by domain, preferring the namespace that matches the host', async () => {
      const { status, body, headers } = await h.request('/api/servers/mcp.shared.dev');
      expect(status).to.equal(200);
      expect(body.name).to.equal('dev.shared/alpha');
      expect(headers.get('link')).to.equal('</api/v1/servers/dev.shared~alpha>; rel="successor-version"');
      const weather = await h.request('/api/servers/mcp.acme-weather.com');
      expect(weather.body.id).to.equal('io.github.acme~weather');
    });

    it('returns 404 for an unknown domain', async () => {
      const { status, body } = await h.request('/api/servers/nowhere.example.org');
      expect(status).to.equal(404);
      expect(body.code).to.equal('not_found');
    });
  });

  describe('errors and meta routes', () => {
    it('returns 404 problem+json for an unknown route', async () => {
      const { status, body } = await h.request('/api/v2/everything');
      expect(status).to.equal(404);
      expect(body.code).to.equal('route_not_found');
    });

    it('returns 405 with Allow for a wrong method', async () => {
      const { status, body, headers } = await h.request('/api/v1/servers/search', { method: 'DELETE' });
      expect(status).to.equal(405);
      expect(headers.get('allow'), 'GET, and the CORS preflight').to.equal('GET, HEAD, OPTIONS');
      expect(body.code).to.equal('method_not_allowed');
    });

    it('routes a path it has routed before the same way: other ids, other methods, unknown neighbours', async () => {
      for (let round = 0; round < 2; round += 1) {
        expect((await h.request('/api/v1/servers/io.github.acme~weather')).status).to.equal(200);
        expect((await h.request('/api/v1/servers/io.github.acme~weather/trust')).body.serverId).to.equal('io.github.acme~weather');
        const wrongMethod = await h.request('/api/v1/servers/io.github.acme~weather', { method: 'DELETE' });
        expect(wrongMethod.status).to.equal(405);
        expect(wrongMethod.headers.get('allow')).to.equal('GET, HEAD, OPTIONS');
        expect((await h.request('/api/v1/servers/io.github.acme~weather/nothing')).status).to.equal(404);
        expect((await h.request('/api/v1/servers/io.github.acme~nothing')).body.code).to.equal('not_found');
      }
    });

    it('returns 400 problem+json for a malformed JSON body', async () => {
      const { status, body } = await h.request('/api/v1/servers/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q": ' });
      expect(status).to.equal(400);
      expect(body.code).to.equal('malformed_json');
    });

    it('returns 413 problem+json for an oversized body', async () => {
      const { status, body } = await h.request('/api/v1/servers/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pad: 'x'.repeat(300_000) }) });
      expect(status).to.equal(413);
      expect(body.code).to.equal('payload_too_large');
    });

    it('echoes a well-formed inbound request id and replaces a hostile one', async () => {
      const own = await h.request('/healthz', { headers: { 'x-request-id': 'abc-123' } });
      expect(own.headers.get('x-request-id')).to.equal('abc-123');
      const hostile = await h.request('/healthz', { headers: { 'x-request-id': 'a b<script>' } });
      expect(hostile.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    });

    it('serves the same document as openapi.yaml at /openapi.json', async () => {
      const { data } = await h.client.GET('/openapi.json');
      expect(data).to.deep.equal(loadContract());
    });

    it('answers liveness and readiness with the catalog size and what answers searches', async () => {
      expect((await h.client.GET('/healthz')).data).to.deep.equal({ status: 'ok' });
      const ready = await h.client.GET('/readyz');
      // The file's integrity is checked at start on SQLite; PostgreSQL checks its own pages.
      expect(ready.data).to.deep.include({ status: 'ready', checks: { database: 'ok', migrations: 'ok', integrity: TEST_DIALECT === 'postgres' ? 'unchecked' : 'ok' } });
      const all = await h.client.GET('/api/v1/servers/search', { params: { query: { limit: 1 } } });
      expect(ready.data?.servers).to.equal(all.data?.total);
      // Searches answer from the in-memory index once it is built (a catalog this small: at once).
      expect(await h.service.warmSearch()).to.equal(true);
      let search = ready.data?.search;
      for (const deadline = Date.now() + 10_000; search !== 'memory' && Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
        search = (await h.client.GET('/readyz')).data?.search;
      }
      expect(search).to.equal('memory');
    });
  });
});

describe('hostile and odd requests', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h.close());

  const cases: Array<[string, number, string, string?]> = [
    ['/api/v1/servers/%ZZ', 400, 'validation_failed', 'path'],
    ['/api/v1/servers/search?unknown=1', 400, 'validation_failed', 'query.unknown'],
    ['/api/v1/servers/search?limit=20&limit=30', 400, 'validation_failed', 'query.limit'],
    ['/api/v1/servers/search?q[a]=1', 400, 'validation_failed', 'query.q'],
    ['/api/v1/servers/io.github.github%252Fgithub-mcp-server', 404, 'not_found'],
    ['/api/v1/tools/%2e%2e%2fetc%2fpasswd', 404, 'not_found'],
    ['/api/servers/%00', 404, 'not_found'],
    ['/api/v1/tools/a%00b', 404, 'not_found'],
    ['/api/v1/servers/%00/install', 404, 'not_found'],
    ['/api/v1/assessments/%00', 404, 'not_found'],
  ];
  for (const [path, status, code, location] of cases) {
    it(`answers ${path} with ${status} ${code}`, async () => {
      const { status: got, body } = await h.request(path);
      expect(got).to.equal(status);
      expect(body.code).to.equal(code);
      if (location) expect(body.errors.map((e: { location: string }) => e.location)).to.include(location);
    });
  }

  it('answers a mistyped word with the servers of the word it stands for, on every database', async () => {
    const { body } = await h.request('/api/v1/servers/search?q=githb');
    expect(body.items[0]?.name).to.match(/github/);
    const twoWords = await h.request('/api/v1/servers/search?q=githb%20zzzqqq');
    expect(twoWords.body.terms, 'a word with neither a match nor a typo is left out').to.deep.equal(['githb']);
    expect(twoWords.body.items[0]?.name).to.match(/github/);
  });

  it('treats control characters, emoji and FTS operators in q as text, not syntax', async () => {
    const odd = await h.request(`/api/v1/servers/search?q=${encodeURIComponent('\u0000\u202e😀 * "(')}`);
    expect(odd.status).to.equal(200);
    expect(odd.body.total).to.equal(0);
    const nul = await h.request(`/api/v1/servers/search?q=${encodeURIComponent('git\u0000hub')}`);
    expect(nul.status).to.equal(200);
    expect(nul.body.query, 'a control character reads as a space').to.equal('git hub');
    const or = await h.request(`/api/v1/servers/search?q=${encodeURIComponent('github OR zzzqqq')}`);
    expect(or.body.terms, 'OR is a word (no record holds it), not an operator').to.deep.equal(['github']);
    const and = await h.request(`/api/v1/servers/search?q=${encodeURIComponent('github AND NOT zzzqqq')}`);
    expect(and.body.terms, 'AND and NOT are words too').to.deep.equal(['github']);
  });
});
