/**
 * HEAD (RFC 9110, section 9.3.2): every GET route answers it with the GET's status and headers
 * and no content, pages, API, registry API and the OpenAPI document alike (link checkers and
 * uptime monitors ask HEAD). A route without GET refuses it with 405 and an Allow header.
 */
import { expect } from 'chai';
import { startHarness, type Harness } from '../support/harness.js';

const TARGETS = ['/', '/servers?q=github', '/servers/com.notion~mcp', '/api/v1/servers/search?q=github', '/api/v1/servers/com.notion~mcp', '/v0.1/servers?limit=5', '/openapi.json', '/api/v1/servers/no.such~server', '/no-such-page'];

describe('HEAD', function () {
  this.timeout(30_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: true });
  });
  after(async () => h.close());

  for (const target of TARGETS) {
    it(`answers HEAD ${target} as its GET, without content`, async () => {
      for (const encoding of ['identity', 'gzip']) {
        const headers = { 'accept-encoding': encoding };
        const get = await fetch(`${h.baseUrl}${target}`, { headers });
        await get.arrayBuffer();
        // Through the contract-checked fetch: the HEAD's status and headers are its GET's, and it has no content.
        const head = await h.request(target, { method: 'HEAD', headers });
        expect(head.status, encoding).to.equal(get.status);
        expect(head.body, encoding).to.equal(null);
        // An error names its request's id, so its compressed length differs from one request to the next.
        const same = ['content-type', 'content-encoding', 'vary', 'content-security-policy', 'access-control-allow-origin', ...(encoding === 'identity' || get.status === 200 ? ['content-length'] : [])];
        for (const name of same) expect(head.headers.get(name), `${encoding} ${name}`).to.equal(get.headers.get(name));
      }
    });
  }

  it('is refused with 405 on a route that has no GET, naming the methods it has', async () => {
    const { status, headers, body } = await h.request('/api/v1/proxy/connect', { method: 'HEAD' });
    expect(status).to.equal(405);
    expect(headers.get('allow')).to.not.include('HEAD');
    expect(body).to.equal(null);
    const mcp = await h.request('/mcp', { method: 'HEAD' });
    expect(mcp.status).to.equal(405);
    expect(mcp.headers.get('allow')).to.equal('POST');
    expect(mcp.body).to.equal(null);
  });
});
