/**
 * Assessments through the real app: domain rules at the edge, the public limit, background
 * work that survives a restart, Prefer: wait. The probes are replaced here (these tests are
 * about queueing); the probes themselves are tested against loopback fixtures elsewhere.
 */
import { expect } from 'chai';
import type { Observation } from '../../src/assessments/probes/types.js';
import type { ProbeRunner } from '../../src/assessments/worker.js';
import { freshDatabase } from '../support/database.js';
import { GRADE_WORDS, readableText } from '../support/grade-words.js';
import { startHarness, type Harness } from '../support/harness.js';

const observed = (name: string, outcome: 'observed' | 'not_found' | 'error' | 'timeout' = 'observed') => ({
  name, outcome, value: outcome === 'observed' ? `${name} value` : null, evidence: `Asked for ${name}.`, source: 'dns' as const, observedAt: new Date().toISOString(),
});
const probes: ProbeRunner = async (domain) => [observed('addresses'), observed('mx_records'), { ...observed('page_title'), value: `Home of ${domain}`, source: 'http' }];

const create = (h: Harness, body: unknown, headers: Record<string, string> = {}) =>
  h.request('/api/v1/assessments', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('assessments', function () {
  this.timeout(30_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false, probe: probes });
  });
  after(async () => h.close());

  it('queues an assessment and answers 201 with Location and the record', async () => {
    const { status, headers, body } = await create(h, { domain: 'Example-Bakery.co.uk', exposure: 25000 });
    expect(status).to.equal(201);
    expect(headers.get('location')).to.equal(`/api/v1/assessments/${body.id}`);
    expect(body).to.include({ domain: 'example-bakery.co.uk', domainUnicode: 'example-bakery.co.uk', exposure: 25000 });
    expect(body.status).to.be.oneOf(['queued', 'running', 'complete']);
    expect(body.notice).to.match(/observations/).and.to.match(/credit professional/);
    expect(body).to.include({ displayDomain: 'example-bakery.co.uk', domainWarning: null });
    expect(Object.keys(body).sort()).to.deep.equal(['changes', 'completedAt', 'createdAt', 'displayDomain', 'domain', 'domainUnicode', 'domainWarning', 'exposure', 'id', 'notice', 'observations', 'previous', 'status']);
  });

  it('answers with the finished record under Prefer: wait', async () => {
    const { body, headers } = await create(h, { domain: 'bücher.de' }, { prefer: 'wait=10' });
    expect(headers.get('preference-applied')).to.equal('wait=10');
    expect(body).to.include({ status: 'complete', domain: 'xn--bcher-kva.de', domainUnicode: 'bücher.de', exposure: null });
    expect(body.completedAt).to.be.a('string');
    expect(body.observations.map((o: { name: string }) => o.name)).to.deep.equal(['addresses', 'mx_records', 'page_title']);
    expect(body.observations[2].value).to.equal('Home of xn--bcher-kva.de');
    const again = await h.request(`/api/v1/assessments/${body.id}`);
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(body);
  });

  it('waits on GET too, and answers 404 for an unknown id', async () => {
    const { body } = await create(h, { domain: 'firm-example.com' });
    const got = await h.request(`/api/v1/assessments/${body.id}`, { headers: { prefer: 'wait=10' } });
    expect(got.body.status).to.equal('complete');
    const missing = await h.request('/api/v1/assessments/00000000-0000-0000-0000-000000000000');
    expect(missing.status).to.equal(404);
    expect(missing.body.code).to.equal('not_found');
  });

  const invalidDomains: Array<[string, string]> = [
    ['https://firm.com', 'url'],
    ['info@firm.com', 'email'],
    ['firm.com:8443', 'port'],
    ['2130706433', 'ip_address'],
    ['shop.localhost', 'reserved_name'],
    ['co.uk', 'public_suffix'],
    ['firm.notarealtld', 'unknown_tld'],
  ];
  for (const [domain, reason] of invalidDomains) {
    it(`rejects "${domain}" with 400 invalid_domain, reason ${reason}`, async () => {
      const { status, body } = await create(h, { domain });
      expect(status).to.equal(400);
      expect(body.code).to.equal('invalid_domain');
      expect(body.errors[0]).to.include({ location: 'body.domain', reason });
    });
  }

  const invalidBodies: Array<[string, unknown, string]> = [
    ['a negative exposure', { domain: 'firm-example.com', exposure: -1 }, 'body.exposure'],
    ['an exposure that is not a number', { domain: 'firm-example.com', exposure: '100' }, 'body.exposure'],
    ['an extra property', { domain: 'firm-example.com', score: 5 }, 'body.score'],
    ['no domain', { exposure: 5 }, 'body.domain'],
  ];
  for (const [what, body, location] of invalidBodies) {
    it(`rejects ${what} with 400 validation_failed`, async () => {
      const { status, body: problem } = await create(h, body);
      expect(status).to.equal(400);
      expect(problem.code).to.equal('validation_failed');
      expect(problem.errors.map((e: { location: string }) => e.location)).to.include(location);
    });
  }

  it('records partial and failed outcomes honestly', async () => {
    const mixed = await startHarness({ demo: false, probe: async (domain) => (domain.startsWith('half') ? [observed('addresses'), observed('tls_certificate', 'timeout')] : []) });
    try {
      expect((await create(mixed, { domain: 'half-firm.com' }, { prefer: 'wait=10' })).body.status).to.equal('partial');
      expect((await create(mixed, { domain: 'none-firm.com' }, { prefer: 'wait=10' })).body.status).to.equal('failed');
    } finally {
      await mixed.close();
    }
  });
});


describe('assessment changes since the last look', function () {
  this.timeout(30_000);
  const at = new Date().toISOString();
  const mx = { name: 'mx_records', outcome: 'observed', value: { nullMx: false, acceptsMail: true, records: [{ exchange: 'mx.firm-example.com', priority: 10 }] }, evidence: 'Asked for MX.', source: 'dns', observedAt: at } as const;
  const certificate = (daysToExpiry: number, validTo: string, authorized: boolean) =>
    ({ name: 'tls_certificate', outcome: 'observed', value: { issuerOrganization: 'Example CA', authorized, hostnameMatches: true, daysToExpiry, selfSigned: false, validTo }, evidence: 'Connected.', source: 'tls', observedAt: at }) as const;
  const dmarc = (outcome: 'not_found' | 'timeout') => ({ name: 'dmarc', outcome, value: null, evidence: 'Asked for DMARC.', source: 'dns', observedAt: at }) as const;
  // What the stand-in probes see of the domain now; each step of the test changes it.
  let estate: Observation[] = [];
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false, probe: async () => estate });
  });
  after(async () => h.close());

  const assess = async (previous?: string) => (await create(h, { domain: 'firm-example.com', ...(previous ? { previous } : {}) }, { prefer: 'wait=10' })).body;
  let last = '';

  it('has none on a first assessment, then tells a removed mail server and an expired certificate with both sides, and no judgement', async () => {
    estate = [mx, certificate(30, '2027-01-01T00:00:00.000Z', true), dmarc('not_found')];
    const first = await assess();
    expect(first).to.include({ previous: null, changes: null });
    estate = [{ ...mx, outcome: 'not_found', value: null }, certificate(-2, '2026-11-26T00:00:00.000Z', false), dmarc('not_found')];
    // Without a link, the domain's history gives the one to compare with: its latest with answers.
    const second = await assess();
    expect(second.previous).to.equal(null);
    expect(second.changes.since).to.deep.equal({ id: first.id, completedAt: first.completedAt });
    // Linked to the first, the same comparison is made against it.
    const linked = await assess(first.id);
    expect(linked.previous).to.equal(first.id);
    expect(linked.changes).to.deep.equal(second.changes);
    expect(second.changes.items.map((c: { name: string; kind: string }) => [c.name, c.kind])).to.deep.equal([['mx_records', 'disappeared'], ['tls_certificate', 'changed']]);
    const [mail, cert] = second.changes.items;
    expect(mail).to.deep.include({ label: 'Mail servers', before: mx.value, after: null, beforeSummary: 'E-mail for the domain goes to 1 mail server: mx.firm-example.com.', afterSummary: 'The domain lists no mail servers.' });
    expect(cert.afterSummary).to.equal('The certificate, issued by Example CA, cannot be verified, covers the name and expired 1 day ago.');
    const page = await h.request(`/assessments/${second.id}`, { headers: { accept: 'text/html' } });
    expect(page.body).to.contain('2 observations differ from').and.to.contain('<strong>Mail servers</strong>: no longer found.');
    // Nothing reads as a grade or advice, in the body or on the page, but the notice that says it is none.
    const visible = readableText(String(page.body), second.notice);
    const json = JSON.stringify({ ...second, notice: '' });
    for (const text of [visible, json]) expect(text).to.not.match(GRADE_WORDS);
    last = second.id;
  });

  it('compares only what was answered both times, and not what follows from the day alone', async () => {
    estate = [{ ...mx, outcome: 'not_found', value: null }, certificate(-3, '2026-11-26T00:00:00.000Z', false), dmarc('timeout')];
    const third = await assess(last);
    expect(third.changes.items).to.deep.equal([]);
    estate = [mx, certificate(-3, '2026-11-26T00:00:00.000Z', false), dmarc('not_found')];
    const fourth = await assess(third.id);
    expect(fourth.changes.since.id).to.equal(third.id);
    expect(fourth.changes.items.map((c: { name: string; kind: string }) => [c.name, c.kind])).to.deep.equal([['mx_records', 'appeared']]);
    // One without answers is passed over: the comparison goes on along its link.
    estate = [];
    const failed = await assess(fourth.id);
    expect(failed).to.include({ status: 'failed', changes: null });
    estate = [mx, certificate(-4, '2026-11-26T00:00:00.000Z', false), dmarc('not_found')];
    const sixth = await assess(failed.id);
    expect(sixth.changes.since.id).to.equal(fourth.id);
    expect(sixth.changes.items).to.deep.equal([]);
    // The domain's history passes over it too.
    estate = [];
    await assess();
    estate = [{ ...mx, outcome: 'not_found', value: null }, certificate(-4, '2026-11-26T00:00:00.000Z', false), dmarc('not_found')];
    const eighth = await assess();
    expect(eighth.changes.since.id).to.equal(sixth.id);
    expect(eighth.changes.items.map((c: { name: string; kind: string }) => [c.name, c.kind])).to.deep.equal([['mx_records', 'disappeared']]);
  });

  it('refuses to link to an unknown assessment or one of another domain, with 400 invalid_previous, and counts nothing', async () => {
    const other = (await create(h, { domain: 'other-firm.com' }, { prefer: 'wait=10' })).body;
    for (const previous of ['00000000-0000-0000-0000-000000000000', other.id]) {
      const refused = await create(h, { domain: 'firm-example.com', previous });
      expect(refused.status).to.equal(400);
      expect(refused.body).to.include({ code: 'invalid_previous' });
      expect(refused.body.errors[0].location).to.equal('body.previous');
    }
  });
});

describe('assessment public limit', function () {
  this.timeout(30_000);

  it('answers 429 with Retry-After after exactly the configured count; invalid requests do not count', async () => {
    const h = await startHarness({ demo: false, assessmentLimit: 3 });
    try {
      for (let i = 0; i < 3; i += 1) {
        const invalid = await create(h, { domain: 'co.uk' });
        expect(invalid.status, 'invalid').to.equal(400);
        expect(invalid.body.code).to.equal('invalid_domain');
        const ok = await create(h, { domain: `firm-${i}.com` });
        expect(ok.status).to.equal(201);
        expect(ok.body).to.include({ domain: `firm-${i}.com`, status: 'queued' });
        expect(ok.headers.get('ratelimit')).to.equal(`"assessment";r=${2 - i};t=3600`);
      }
      const limited = await create(h, { domain: 'firm-4.com' });
      expect(limited.status).to.equal(429);
      expect(limited.body.code).to.equal('rate_limited');
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 3600);
      const forwarded = await create(h, { domain: 'firm-5.com' }, { 'x-forwarded-for': '198.51.100.7' });
      expect(forwarded.status, 'no proxy is trusted').to.equal(429);
      expect(forwarded.body.code).to.equal('rate_limited');
      const discovery = await h.request('/api/v1/categories');
      expect(discovery.status, 'discovery is not affected').to.equal(200);
      expect(discovery.body.items).to.be.an('array').that.is.not.empty;
    } finally {
      await h.close();
    }
  });

  it('applies a global daily cap across clients', async () => {
    const h = await startHarness({ demo: false, assessmentLimit: 100, assessmentDailyCap: 2, trustProxyHops: 1 });
    try {
      for (const [domain, client] of [['a-firm.com', '198.51.100.1'], ['b-firm.com', '198.51.100.2']] as const) {
        const created = await create(h, { domain }, { 'x-forwarded-for': client });
        expect(created.status).to.equal(201);
        expect(created.body.domain).to.equal(domain);
      }
      const capped = await create(h, { domain: 'c-firm.com' }, { 'x-forwarded-for': '198.51.100.3' });
      expect(capped.status).to.equal(429);
      expect(capped.body.code).to.equal('rate_limited');
      expect(capped.body.detail).to.match(/day/);
    } finally {
      await h.close();
    }
  });

  it('keeps what a client spent, and the daily cap, across a restart on the same database', async () => {
    const database = await freshDatabase();
    const limits = { demo: false, database, assessmentLimit: 2, assessmentDailyCap: 3, trustProxyHops: 1 } as const;
    const first = await startHarness(limits);
    try {
      for (const domain of ['one-firm.com', 'two-firm.com']) {
        const created = await create(first, { domain }, { 'x-forwarded-for': '198.51.100.1' });
        expect(created.status).to.equal(201);
        expect(created.body.domain).to.equal(domain);
      }
    } finally {
      await first.close();
    }
    const second = await startHarness(limits);
    try {
      const spent = await create(second, { domain: 'three-firm.com' }, { 'x-forwarded-for': '198.51.100.1' });
      expect(spent.status, 'the client spent its allowance before the restart').to.equal(429);
      expect(spent.body.code).to.equal('rate_limited');
      expect(Number(spent.headers.get('retry-after'))).to.be.within(3500, 3600);
      expect((await create(second, { domain: 'four-firm.com' }, { 'x-forwarded-for': '198.51.100.2' })).status, 'another client has its own').to.equal(201);
      const capped = await create(second, { domain: 'five-firm.com' }, { 'x-forwarded-for': '198.51.100.3' });
      expect(capped.status, 'the day\'s cap counts assessments made before the restart').to.equal(429);
      expect(capped.body.detail).to.match(/day/);
    } finally {
      await second.close();
      await database.drop();
    }
  });
});

describe('assessment persistence', function () {
  this.timeout(30_000);

  it('keeps a queued assessment across a restart and completes it', async () => {
    const database = await freshDatabase();
    const first = await startHarness({ demo: false, database });
    const { body } = await create(first, { domain: 'restart-firm.com' });
    expect(body.status).to.equal('queued');
    await first.close();
    const second = await startHarness({ demo: false, database, probe: probes });
    try {
      const { body: done } = await second.request(`/api/v1/assessments/${body.id}`, { headers: { prefer: 'wait=10' } });
      expect(done).to.include({ id: body.id, status: 'complete' });
      expect(done.observations).to.have.length(3);
    } finally {
      await second.close();
      await database.drop();
    }
  });

  it('takes over a job whose instance died mid-run once its lease runs out', async () => {
    const database = await freshDatabase();
    const first = await startHarness({ demo: false, database });
    const { body } = await create(first, { domain: 'lease-firm.com' });
    const claimed = await first.service.store.assessments.claim('dead-instance', new Date().toISOString(), new Date(Date.now() - 1000).toISOString());
    expect(claimed?.id).to.equal(body.id);
    await first.close();
    const second = await startHarness({ demo: false, database, probe: probes });
    try {
      const { body: done } = await second.request(`/api/v1/assessments/${body.id}`, { headers: { prefer: 'wait=10' } });
      expect(done.status).to.equal('complete');
    } finally {
      await second.close();
      await database.drop();
    }
  });
});
