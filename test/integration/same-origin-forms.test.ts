/**
 * Forms are same-origin: a POST to /assess that a browser marks as sent from another site is a
 * plain 403 page (with the pages' CSP) and creates nothing, whatever it carries; the form's own
 * posts, and posts from programs (no Origin, no Sec-Fetch-Site), are served.
 */
import { expect } from 'chai';
import { startHarness, type Harness } from '../support/harness.js';

describe('forms are same-origin', function () {
  this.timeout(30_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false, assessmentLimit: 10 });
  });
  after(async () => h.close());

  const post = (domain: string, headers: Record<string, string>) =>
    h.request('/assess', { method: 'POST', body: new URLSearchParams({ domain, exposure: '' }), headers, redirect: 'manual' });

  const refused: Array<[string, Record<string, string>]> = [
    ['an Origin of another site', { origin: 'https://evil.example' }],
    ['another site that fakes our Host in its Origin\'s path', { origin: 'https://evil.example/127.0.0.1' }],
    ['Origin: null (a sandboxed frame, a redirect through another site)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site, without Origin', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }],
    ['our Origin but Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site', origin: 'ORIGIN' }],
  ];
  for (const [what, headers] of refused) {
    it(`refuses ${what} with a 403 page, and creates nothing`, async () => {
      const domain = `refused-${refused.findIndex(([w]) => w === what)}-firm.com`;
      const sent = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value === 'ORIGIN' ? h.baseUrl : value]));
      const { status, headers: answer, body } = await post(domain, sent);
      expect(status).to.equal(403);
      expect(answer.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(answer.get('content-security-policy')).to.include("default-src 'none'").and.include("form-action 'self'");
      expect(answer.get('location')).to.equal(null);
      expect(String(body)).to.include('Sent from another site').and.include('nothing was done');
      expect((await h.database.storedText()).join('\n')).not.to.include(domain);
    });
  }

  const served: Array<[string, Record<string, string>]> = [
    ['its own Origin', { origin: 'ORIGIN' }],
    ['its own Origin with Sec-Fetch-Site: same-origin', { origin: 'ORIGIN', 'sec-fetch-site': 'same-origin' }],
    ['Sec-Fetch-Site: same-origin without Origin', { 'sec-fetch-site': 'same-origin' }],
    ['neither header (a program, not a browser)', {}],
  ];
  for (const [what, headers] of served) {
    it(`serves a post with ${what}: 303 to the new assessment`, async () => {
      const sent = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value === 'ORIGIN' ? h.baseUrl : value]));
      const { status, headers: answer } = await post(`served-${served.findIndex(([w]) => w === what)}-firm.com`, sent);
      expect(status).to.equal(303);
      expect(answer.get('location')).to.match(/^\/assessments\/[0-9a-f-]{36}$/);
    });
  }

  it('spent none of the client\'s quota on the refused posts', async () => {
    // 10 an hour; 4 served above.
    for (let i = 0; i < 6; i += 1) {
      const served = await post(`more-${i}-firm.com`, { origin: h.baseUrl });
      expect(served.status).to.equal(303);
      expect(served.headers.get('location')).to.match(/^\/assessments\/[0-9a-f-]{36}$/);
    }
    const limited = await post('one-too-many-firm.com', { origin: h.baseUrl });
    expect(limited.status).to.equal(429);
    expect(limited.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(String(limited.body)).to.include('The public limit of 10 assessments an hour');
  });
});
