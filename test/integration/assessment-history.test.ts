/**
 * A domain's assessments over time, and batches of domains, through the real app. The probes are
 * stand-ins (these tests are about history and queueing); every answer is checked against the
 * contract by the harness.
 */
import { expect } from 'chai';
import { NOTICE } from '../../src/assessments/assessment-service.js';
import type { ProbeRunner } from '../../src/assessments/worker.js';
import { GRADE_WORDS, readableText } from '../support/grade-words.js';
import { startHarness, type Harness } from '../support/harness.js';

const at = () => new Date().toISOString();
const probes: ProbeRunner = async (domain) => [
  { name: 'addresses', outcome: 'observed', value: [{ address: '192.0.2.1', family: 'IPv4', private: true, reason: 'documentation', allowListed: false }], evidence: 'Asked for A.', source: 'dns', observedAt: at() },
  { name: 'page_title', outcome: 'observed', value: { title: `Home of ${domain}`, url: `https://${domain}/` }, evidence: 'Read the home page.', source: 'http', observedAt: at() },
];

const post = (h: Harness, path: string, body: unknown, headers: Record<string, string> = {}) =>
  h.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

interface BatchItem { domain: string; assessmentId: string | null; status: string | null; url: string | null; reason: string | null; message: string | null }

async function finished(h: Harness, id: string): Promise<{ items: BatchItem[]; progress: Record<string, number>; finished: boolean }> {
  for (let i = 0; i < 200; i += 1) {
    const { body } = await h.request(`/api/v1/assessments/batches/${id}`);
    if (body.finished) return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`batch ${id} did not finish`);
}

describe("a domain's assessment history", function () {
  this.timeout(30_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false, probe: probes, assessmentLimit: 1000 });
  });
  after(async () => h.close());

  it('lists a domain\'s assessments newest first, a page at a time, under its ASCII and Unicode forms alike', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await post(h, '/api/v1/assessments', { domain: 'bücher-history.de' }, { prefer: 'wait=10' })).body.id);
    await post(h, '/api/v1/assessments', { domain: 'other-history.com' });
    const { status, body } = await h.request('/api/v1/assessments?domain=b%C3%BCcher-history.de&limit=2');
    expect(status).to.equal(200);
    expect(body).to.include({ domain: 'xn--bcher-history-wob.de', displayDomain: 'bücher-history.de', total: 3, limit: 2, offset: 0 });
    expect(body.items.map((item: { id: string }) => item.id)).to.deep.equal([ids[2], ids[1]]);
    expect(body.items[0]).to.include({ status: 'complete', url: `/api/v1/assessments/${ids[2]}` });
    expect(body.notice).to.match(/not a score/);
    const rest = await h.request('/api/v1/assessments?domain=xn--bcher-history-wob.de&limit=2&offset=2');
    expect(rest.body.items.map((item: { id: string }) => item.id)).to.deep.equal([ids[0]]);
    // The newest carries its changes against the one before it.
    const newest = await h.request(`/api/v1/assessments/${ids[2]}`);
    expect(newest.body.changes.since.id).to.equal(ids[1]);
  });

  it('lists nothing for a domain never assessed, and refuses one that is not a business domain', async () => {
    const none = await h.request('/api/v1/assessments?domain=never-assessed.com');
    expect(none.body).to.include({ domain: 'never-assessed.com', total: 0 });
    expect(none.body.items).to.deep.equal([]);
    const refused = await h.request('/api/v1/assessments?domain=https%3A%2F%2Ffirm.com');
    expect(refused.status).to.equal(400);
    expect(refused.body).to.include({ code: 'invalid_domain' });
    expect(refused.body.errors[0]).to.include({ location: 'query.domain', reason: 'url' });
    const missing = await h.request('/api/v1/assessments');
    expect(missing.status).to.equal(400);
    expect(missing.body.code).to.equal('validation_failed');
  });
});

describe('batches of assessments', function () {
  this.timeout(60_000);

  it('assesses 100 domains of which 10 are invalid: the 90 run, the 10 are named with their reasons', async () => {
    const h = await startHarness({ demo: false, probe: probes, assessmentLimit: 1000 });
    try {
      const invalid = ['https://firm.com', 'info@firm.com', 'firm.com:8443', '2130706433', 'shop.localhost', 'co.uk', 'firm.notarealtld', '', 'a b.com', 'x'.repeat(64) + '.com'];
      const valid = Array.from({ length: 90 }, (_, i) => `portfolio-${i}.co.uk`);
      const domains = valid.flatMap((domain, i) => (i % 9 === 0 ? [invalid[i / 9] ?? '', domain] : [domain]));
      expect(domains).to.have.length(100);
      const { status, headers, body } = await post(h, '/api/v1/assessments/batch', { domains, exposure: 5000 });
      expect(status).to.equal(201);
      expect(headers.get('location')).to.equal(`/api/v1/assessments/batches/${body.id}`);
      expect(headers.get('ratelimit')).to.equal('"assessment";r=910;t=3600');
      expect(body.items.map((item: BatchItem) => item.domain)).to.deep.equal(domains);
      const refused = body.items.filter((item: BatchItem) => item.reason !== null);
      expect(refused.map((item: BatchItem) => item.domain)).to.deep.equal(invalid);
      expect(refused.map((item: BatchItem) => item.reason)).to.deep.equal(['url', 'email', 'port', 'ip_address', 'reserved_name', 'public_suffix', 'unknown_tld', 'empty', 'whitespace', 'label_too_long']);
      for (const item of refused) expect(item).to.include({ assessmentId: null, status: null, url: null }).and.to.have.property('message').that.is.a('string').and.not.empty;
      expect(body.progress).to.include({ total: 100, refused: 10 });
      const done = await finished(h, body.id);
      expect(done.progress).to.deep.equal({ total: 100, queued: 0, running: 0, complete: 90, partial: 0, failed: 0, refused: 10 });
      const first = done.items.find((item) => item.domain === 'portfolio-0.co.uk');
      const record = await h.request(first?.url ?? '');
      expect(record.body).to.include({ domain: 'portfolio-0.co.uk', exposure: 5000, status: 'complete' });
      expect(record.body.observations[1].value.title).to.equal('Home of portfolio-0.co.uk');
    } finally {
      await h.close();
    }
  });

  it('assesses a domain given twice once, and takes an exposure per domain', async () => {
    const h = await startHarness({ demo: false, probe: probes, assessmentLimit: 1000 });
    try {
      const { body } = await post(h, '/api/v1/assessments/batch', { domains: ['twice-firm.com', { domain: 'TWICE-firm.com', exposure: 1 }, { domain: 'own-exposure.com', exposure: 750 }], exposure: 10 });
      const [a, b, c] = body.items as BatchItem[];
      expect(a?.assessmentId).to.be.a('string').and.equal(b?.assessmentId);
      expect(body.progress.total).to.equal(2);
      expect((await h.request(a?.url ?? '')).body.exposure, 'the first mention decides').to.equal(10);
      expect((await h.request(c?.url ?? '')).body.exposure).to.equal(750);
    } finally {
      await h.close();
    }
  });

  it('queues nothing when no domain is valid, when there are more than 100, or when the limit cannot take them all', async () => {
    const h = await startHarness({ demo: false, probe: probes, assessmentLimit: 5 });
    try {
      const none = await post(h, '/api/v1/assessments/batch', { domains: ['co.uk', 'https://firm.com'] });
      expect(none.status).to.equal(400);
      expect(none.body.code).to.equal('invalid_domain');
      expect(none.body.errors).to.deep.equal([
        { location: 'body.domains[0]', reason: 'public_suffix', message: none.body.errors[0].message },
        { location: 'body.domains[1]', reason: 'url', message: none.body.errors[1].message },
      ]);
      const tooMany = await post(h, '/api/v1/assessments/batch', { domains: Array.from({ length: 101 }, (_, i) => `firm-${i}.com`) });
      expect(tooMany.status).to.equal(400);
      expect(tooMany.body.code).to.equal('validation_failed');
      expect(tooMany.body.errors.map((e: { location: string }) => e.location)).to.include('body.domains');
      const overLimit = await post(h, '/api/v1/assessments/batch', { domains: Array.from({ length: 6 }, (_, i) => `firm-${i}.com`) });
      expect(overLimit.status).to.equal(429);
      expect(overLimit.body.code).to.equal('rate_limited');
      expect(overLimit.body.detail).to.match(/cannot take 6 more, so none was queued/);
      for (const i of [0, 5]) expect((await h.request(`/api/v1/assessments?domain=firm-${i}.com`)).body.total).to.equal(0);
      // What the refused batch asked for was given back: five still fit.
      const fits = await post(h, '/api/v1/assessments/batch', { domains: Array.from({ length: 5 }, (_, i) => `firm-${i}.com`) });
      expect(fits.status).to.equal(201);
      expect(fits.headers.get('ratelimit')).to.equal('"assessment";r=0;t=3600');
      const missing = await h.request('/api/v1/assessments/batches/00000000-0000-0000-0000-000000000000');
      expect(missing.status).to.equal(404);
      expect(missing.body.code).to.equal('not_found');
    } finally {
      await h.close();
    }
  });
});

describe('the portfolio pages', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false, probe: probes, assessmentLimit: 1000 });
  });
  after(async () => h.close());

  const submit = (domains: string, exposure = '') =>
    h.request('/assess/batch', { method: 'POST', body: new URLSearchParams({ domains, exposure }), headers: { origin: h.baseUrl }, redirect: 'manual' });

  it('queues a CSV list from the form and shows each domain with its assessment or why it was refused, reloading until all finish', async () => {
    const csv = 'Domain,Exposure\r\nlist-firm.co.uk,"25,000"\r\nhttps://not-a-domain.example\r\nsecond-firm.de;300\r\n';
    const { status, headers } = await submit(csv, '10');
    expect(status).to.equal(303);
    const location = headers.get('location') ?? '';
    expect(location).to.match(/^\/assessments\/batches\/[0-9a-f-]{36}$/);
    const id = location.split('/').pop() ?? '';
    const done = await finished(h, id);
    expect(done.items.map((item) => [item.domain, item.status ?? item.reason])).to.deep.equal([['list-firm.co.uk', 'complete'], ['https://not-a-domain.example', 'url'], ['second-firm.de', 'complete']]);
    expect((await h.request(done.items[0]?.url ?? '')).body.exposure).to.equal(25000);
    const page = String((await h.request(location, { headers: { accept: 'text/html' } })).body);
    expect(page).to.contain('A list of 3 domains').and.to.contain('3 domains: 2 complete, 1 refused.').and.to.contain('Every assessment has finished.');
    expect(page).to.contain('Not assessed: &quot;https://not-a-domain.example&quot; is a web address');
    expect(page).to.contain(`href="/assessments/${done.items[0]?.assessmentId}"`);
    expect(page).to.contain('data-finished="yes"');
    expect(GRADE_WORDS.exec(readableText(page, NOTICE))?.[0]).to.equal(undefined);
  });

  it('marks a batch page for updating while its assessments run, with a link to reload it without script', async () => {
    const idle = await startHarness({ demo: false, assessmentLimit: 10 });
    try {
      const { headers } = await idle.request('/assess/batch', { method: 'POST', body: new URLSearchParams({ domains: 'waiting-firm.com' }), redirect: 'manual' });
      const page = String((await idle.request(headers.get('location') ?? '', { headers: { accept: 'text/html' } })).body);
      expect(page).to.contain('data-finished="no"').and.to.contain('1 domain: 1 queued.').and.to.contain('reload it</a>');
    } finally {
      await idle.close();
    }
  });

  it('shows the form again with the reasons for a list it cannot queue, and queues nothing', async () => {
    for (const [domains, reason] of [
      ['', 'Enter at least one domain'],
      [Array.from({ length: 101 }, (_, i) => `many-${i}.com`).join('\n'), 'at most 100 domains; this one has 101'],
      ['co.uk\ninfo@firm.com', 'co.uk: &quot;co.uk&quot; is a public suffix'],
      ['ok-firm.com,lots', 'the exposure &quot;lots&quot; is not a number'],
    ] as const) {
      const { status, body } = await submit(domains);
      expect(status, reason).to.equal(400);
      expect(String(body)).to.contain('The list was not queued').and.to.contain(reason);
    }
    expect((await h.request('/api/v1/assessments?domain=many-0.com')).body.total).to.equal(0);
    expect((await h.request('/api/v1/assessments?domain=ok-firm.com')).body.total).to.equal(0);
  });

  it('lists a domain\'s assessments on its history page, linked from each assessment', async () => {
    const first = (await post(h, '/api/v1/assessments', { domain: 'paged-firm.com' }, { prefer: 'wait=10' })).body;
    const second = (await post(h, '/api/v1/assessments', { domain: 'paged-firm.com' }, { prefer: 'wait=10' })).body;
    const assessment = String((await h.request(`/assessments/${second.id}`, { headers: { accept: 'text/html' } })).body);
    expect(assessment).to.contain('href="/assessments?domain=paged-firm.com"');
    const page = String((await h.request('/assessments?domain=paged-firm.com', { headers: { accept: 'text/html' } })).body);
    expect(page).to.contain('Assessments of paged-firm.com').and.to.contain('2 assessments, newest first');
    expect(page.indexOf(`/assessments/${second.id}`)).to.be.below(page.indexOf(`/assessments/${first.id}`));
    expect(GRADE_WORDS.exec(readableText(page, NOTICE))?.[0]).to.equal(undefined);
    const refused = await h.request('/assessments?domain=co.uk', { headers: { accept: 'text/html' } });
    expect(refused.status).to.equal(400);
    expect(String(refused.body)).to.contain('public suffix');
  });
});
