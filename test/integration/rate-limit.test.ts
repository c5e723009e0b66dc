/** The per-client discovery rate limit, its headers, and the trusted-proxy client address. */
import { expect } from 'chai';
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
        const { status, headers } = await h.request('/api/v1/categories');
        expect(status).to.equal(200);
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
    });

    it('does not limit liveness, readiness or the contract', async () => {
      for (const path of ['/healthz', '/readyz', '/openapi.json']) expect((await h.request(path)).status, path).to.equal(200);
    });

    it('ignores X-Forwarded-For when no proxy is trusted', async () => {
      const { status } = await h.request('/api/v1/categories', { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(status).to.equal(429);
    });
  });

  describe('behind one trusted proxy', () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({ discoveryRateLimit: 1, trustProxyHops: 1 });
    });
    after(async () => h.close());

    it('limits each forwarded client separately', async () => {
      const as = (client: string) => h.request('/api/v1/categories', { headers: { 'x-forwarded-for': client } });
      expect((await as('198.51.100.1')).status).to.equal(200);
      expect((await as('198.51.100.1')).status).to.equal(429);
      expect((await as('198.51.100.2')).status).to.equal(200);
      expect((await as('10.0.0.1, 198.51.100.2')).status, 'only the hop the proxy appended counts').to.equal(429);
    });
  });
});
