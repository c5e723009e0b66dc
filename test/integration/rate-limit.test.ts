/** The per-client rate limits of the REST API, /mcp, the registry API and the pages, their headers, and the trusted-proxy client address. */
import { expect } from 'chai';
import { parseList } from 'structured-headers';
import { startHarness, type Harness } from '../support/harness.js';

describe('discovery rate limit', () => {
  describe('on the socket address', () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({ discoveryRateLimit: 3 });
    });
    after(async () => h.close());

    it('counts down in RateLimit headers, then answers 429 problem+json with Retry-After', async () => {
      const remaining: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const { status, headers, body } = await h.request('/api/v1/categories');
        expect(status).to.equal(200);
        expect(body.total).to.equal(body.items.length).and.to.be.above(0);
        expect(headers.get('ratelimit-policy')).to.equal('"discovery";q=3;w=60');
        remaining.push(headers.get('ratelimit')?.split(';')[1] ?? '');
      }
      expect(remaining).to.deep.equal(['r=2', 'r=1', 'r=0']);
      const limited = await h.request('/api/v1/servers/search');
      expect(limited.status).to.equal(429);
      expect(limited.body.code).to.equal('rate_limited');
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
      const legacy = await h.request('/api/search');
      expect(legacy.status).to.equal(429);
      expect(legacy.body.code, 'the older routes share the budget').to.equal('rate_limited');
      expect(legacy.headers.get('content-type')).to.match(/^application\/problem\+json/);
    });

    it('does not limit liveness, readiness or the contract', async () => {
      const health = await h.request('/healthz');
      expect(health.status).to.equal(200);
      expect(health.body).to.deep.equal({ status: 'ok' });
      const ready = await h.request('/readyz');
      expect(ready.status).to.equal(200);
      expect(ready.body.status).to.equal('ready');
      const contract = await h.request('/openapi.json');
      expect(contract.status).to.equal(200);
      expect(contract.body.openapi).to.match(/^3\.1\./);
    });

    it('ignores X-Forwarded-For when no proxy is trusted', async () => {
      const { status, body } = await h.request('/api/v1/categories', { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(status).to.equal(429);
      expect(body.code).to.equal('rate_limited');
    });
  });

  describe('behind one trusted proxy', () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({ discoveryRateLimit: 1, trustProxyHops: 1 });
    });
    after(async () => h.close());

    it('limits each forwarded client separately', async () => {
      const as = async (client: string) => {
        const { status, body } = await h.request('/api/v1/categories', { headers: { 'x-forwarded-for': client } });
        return status === 200 ? { status, answered: Array.isArray(body.items) } : { status, code: body.code };
      };
      expect(await as('198.51.100.1')).to.deep.equal({ status: 200, answered: true });
      expect(await as('198.51.100.1')).to.deep.equal({ status: 429, code: 'rate_limited' });
      expect(await as('198.51.100.2')).to.deep.equal({ status: 200, answered: true });
      expect(await as('10.0.0.1, 198.51.100.2'), 'only the hop the proxy appended counts').to.deep.equal({ status: 429, code: 'rate_limited' });
    });
  });

  describe('of the pages, a budget of their own', () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({ pageRateLimit: 2, discoveryRateLimit: 100 });
    });
    after(async () => h.close());

    it('counts pages (not their static files), then answers a 429 page with Retry-After and the page headers, while the API keeps its own budget', async () => {
      const home = await h.request('/');
      expect(home.status).to.equal(200);
      expect(home.headers.get('ratelimit-policy')).to.equal('"pages";q=2;w=60');
      const stylesheet = /href="(\/assets\/app-[^"]+\.css)"/.exec(String(home.body))?.[1];
      expect(stylesheet, 'the home page links its stylesheet').to.be.a('string');
      for (let i = 0; i < 3; i += 1) {
        const file = await h.request(stylesheet!);
        expect(file.status, 'a static file is not counted').to.equal(200);
        expect(file.headers.get('content-type')).to.match(/^text\/css/);
      }
      const results = await h.request('/servers?q=weather');
      expect(results.status).to.equal(200);
      expect(results.headers.get('content-type')).to.match(/^text\/html/);
      expect(String(results.body)).to.include('value="weather"').and.not.to.include('Too many requests');
      const limited = await h.request('/compare?ids=a,b');
      expect(limited.status).to.equal(429);
      expect(limited.headers.get('content-type')).to.match(/^text\/html/);
      expect(limited.headers.get('content-security-policy')).to.include("default-src 'none'");
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
      expect(limited.headers.get('ratelimit')).to.match(/^"pages";r=0;t=\d+$/);
      expect(String(limited.body)).to.include('Too many requests').and.to.include('The pages rate limit of 2 requests a minute is reached');
      const api = await h.request('/api/v1/categories');
      expect(api.status, 'the API has its own budget').to.equal(200);
      expect(api.headers.get('ratelimit-policy')).to.equal('"discovery";q=100;w=60');
    });
  });
});

describe('rate limits per surface', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ discoveryRateLimit: 2, mcpRateLimit: 3, registryRateLimit: 4, pageRateLimit: 1 });
  });
  after(async () => h.close());

  /** The IETF httpapi draft's fields as structured-field lists: each member a policy name with its integer parameters. */
  const policies = (value: string | null): Array<{ name: string; [key: string]: unknown }> =>
    parseList(value ?? '').map(([name, params]) => {
      expect(name, `a policy name is a string: ${value}`).to.be.a('string');
      return { name: String(name), ...Object.fromEntries(params) };
    });
  const ping = () => h.request('/mcp', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });

  it('gives the REST API, /mcp, the registry API and the pages a budget each, counted apart, in valid RateLimit-Policy / RateLimit fields', async () => {
    const surfaces = [
      { name: 'discovery', quota: 2, call: () => h.request('/api/v1/categories') },
      { name: 'mcp', quota: 3, call: ping },
      { name: 'registry', quota: 4, call: () => h.request('/v0.1/servers?limit=1') },
      { name: 'pages', quota: 1, call: () => h.request('/') },
    ];
    for (const surface of surfaces) {
      for (let used = 1; used <= surface.quota; used += 1) {
        const answer = await surface.call();
        expect(answer.status, `${surface.name} request ${used}`).to.equal(200);
        expect(policies(answer.headers.get('ratelimit-policy'))).to.deep.equal([{ name: surface.name, q: surface.quota, w: 60 }]);
        const [left] = policies(answer.headers.get('ratelimit'));
        expect(left).to.deep.include({ name: surface.name, r: surface.quota - used });
        expect(left!.t).to.be.a('number').within(0, 60);
      }
      const over = await surface.call();
      expect(over.status, `${surface.name} over its budget`).to.equal(429);
      expect(Number(over.headers.get('retry-after'))).to.be.within(1, 60);
      expect(policies(over.headers.get('ratelimit'))).to.deep.equal([{ name: surface.name, r: 0, t: Number(over.headers.get('retry-after')) }]);
    }
    const registryPage = await h.request('/v0.1/servers?limit=1');
    expect(registryPage.status).to.equal(429);
    expect(registryPage.body.code).to.equal('rate_limited');
    expect(registryPage.body.detail).to.include('registry rate limit of 4 requests a minute');
  });
});
