/**
 * Watchlists through the real app: off without WATCHLIST_TOKEN, the bearer token, domain rules,
 * scheduled runs that re-assess every domain (not counted against the public limit), changes on
 * the second run, and signed webhooks to loopback receivers: verified, retried, or refused by
 * the network guard. The probes are stand-ins; the clock is moved to make the next run due.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import type { Observation } from '../../src/assessments/probes/types.js';
import { startWatchlistScheduler } from '../../src/watchlists/scheduler.js';
import { signatureMatches } from '../../src/watchlists/webhook-signature.js';
import { startFixture, type Fixture } from '../support/fixture-servers.js';
import { silentLogger, startHarness, type Harness } from '../support/harness.js';

const TOKEN = 'watchlist-token-for-tests-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const HOUR = 3_600_000;

const send = (h: Harness, method: string, path: string, body?: unknown, headers: Record<string, string> = auth) =>
  h.request(path, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('watchlists, off by default', function () {
  this.timeout(30_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false });
  });
  after(async () => h.close());

  const routes: Array<[string, string, unknown?]> = [
    ['POST', '/api/v1/watchlists', { domains: ['firm-example.com'], intervalHours: 24 }],
    ['POST', '/api/v1/watchlists', {}],
    ['GET', '/api/v1/watchlists'],
    ['GET', '/api/v1/watchlists/00000000-0000-0000-0000-000000000000'],
    ['DELETE', '/api/v1/watchlists/00000000-0000-0000-0000-000000000000'],
  ];
  for (const [method, path, body] of routes) {
    it(`answers ${method} ${path} with 404 watchlists_off saying how to turn them on, token or not`, async () => {
      const res = await send(h, method, path, body);
      expect(res.status).to.equal(404);
      expect(res.headers.get('content-type')).to.match(/^application\/problem\+json/);
      expect(res.body).to.include({ code: 'watchlists_off', status: 404 });
      expect(res.body.detail).to.contain('WATCHLIST_TOKEN');
    });
  }

  it('answers the watchlist pages with a 404 page', async () => {
    for (const path of ['/watchlists/00000000-0000-0000-0000-000000000000', '/watchlists']) {
      const res = await h.request(path);
      expect(res.status, path).to.equal(404);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
      expect(res.body).to.contain('WATCHLIST_TOKEN');
    }
  });
});

describe('watchlists', function () {
  this.timeout(60_000);
  // What the stand-in probes see of each domain now; a test changes it between runs.
  const mail = new Map<string, string>();
  const probe = async (domain: string): Promise<Observation[]> => {
    const observedAt = new Date().toISOString();
    const exchange = mail.get(domain) ?? `mx.${domain}`;
    return [
      { name: 'addresses', outcome: 'observed', value: ['192.0.2.10'], evidence: 'Asked for A records.', source: 'dns', observedAt },
      { name: 'mx_records', outcome: 'observed', value: { nullMx: false, acceptsMail: true, records: [{ exchange, priority: 10 }] }, evidence: 'Asked for MX.', source: 'dns', observedAt },
    ];
  };
  let offset = 0;
  const logLines: string[] = [];
  let h: Harness;
  let receiver: Fixture;
  // What the receiver answers on each path, in turn; then 200.
  const answers = new Map<string, number[]>();
  const received = (path: string) => receiver.requests.filter((r) => r.url === path);

  before(async () => {
    receiver = await startFixture((_req, res) => {
      res.writeHead(answers.get(_req.url ?? '')?.shift() ?? 200, { 'content-type': 'text/plain' }).end('thanks');
    });
    h = await startHarness({
      demo: false, probe, watchlistToken: TOKEN, netAllowPrivate: ['127.0.0.1/32'], assessmentLimit: 1,
      watchlists: { tickMs: 100, recheckMs: 50, retryBaseMs: 300, now: () => new Date(Date.now() + offset) },
      logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
    });
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  it('answers 401 with WWW-Authenticate: Bearer without the token or with a wrong one', async () => {
    const wrong: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong-token-wrong-token-wrong' }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }];
    for (const headers of wrong) {
      for (const [method, path] of [['GET', '/api/v1/watchlists'], ['POST', '/api/v1/watchlists'], ['DELETE', '/api/v1/watchlists/x']] as const) {
        const res = await send(h, method, path, method === 'POST' ? { domains: ['firm-example.com'], intervalHours: 24 } : undefined, headers);
        expect(res.status, `${method} ${path}`).to.equal(401);
        expect(res.body).to.include({ code: 'unauthorized' });
        expect(res.headers.get('www-authenticate')).to.equal('Bearer');
      }
    }
  });

  it('refuses invalid domains with 400 naming each with its reason, and stores nothing', async () => {
    const res = await send(h, 'POST', '/api/v1/watchlists', { domains: ['firm-example.com', 'https://firm.com', 'co.uk', 'shop.localhost'], intervalHours: 24 });
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('invalid_domain');
    expect(res.body.errors.map((e: { location: string; reason: string }) => [e.location, e.reason])).to.deep.equal([
      ['body.domains[1]', 'url'], ['body.domains[2]', 'public_suffix'], ['body.domains[3]', 'reserved_name'],
    ]);
    expect((await send(h, 'GET', '/api/v1/watchlists')).body.items).to.deep.equal([]);
  });

  const invalidBodies: Array<[string, unknown, string]> = [
    ['an interval under a day', { domains: ['firm-example.com'], intervalHours: 23 }, 'body.intervalHours'],
    ['an interval over a year', { domains: ['firm-example.com'], intervalHours: 8761 }, 'body.intervalHours'],
    ['no domains', { domains: [], intervalHours: 24 }, 'body.domains'],
    ['a webhook that is not http(s)', { domains: ['firm-example.com'], intervalHours: 24, webhook: { url: 'ftp://hooks.example.com/' } }, 'body.webhook.url'],
    ['an extra property', { domains: ['firm-example.com'], intervalHours: 24, score: 1 }, 'body.score'],
  ];
  for (const [what, body, location] of invalidBodies) {
    it(`refuses ${what} with 400 validation_failed`, async () => {
      const res = await send(h, 'POST', '/api/v1/watchlists', body);
      expect(res.status).to.equal(400);
      expect(res.body.code).to.equal('validation_failed');
      expect(res.body.errors.map((e: { location: string }) => e.location)).to.include(location);
    });
  }

  it('creates, lists, gets and deletes a watchlist; the secret is shown once', async () => {
    const created = await send(h, 'POST', '/api/v1/watchlists', { name: 'To delete', domains: ['Delete-Me.com', 'delete-me.com', 'bücher.de'], intervalHours: 48, webhook: { url: `${receiver.url}/never` } });
    expect(created.status).to.equal(201);
    const { id } = created.body;
    expect(created.headers.get('location')).to.equal(`/api/v1/watchlists/${id}`);
    expect(created.body).to.include({ name: 'To delete', intervalHours: 48, lastRunAt: null });
    expect(created.body.domains).to.deep.equal(['delete-me.com', 'xn--bcher-kva.de']);
    expect(created.body.webhook.url).to.equal(`${receiver.url}/never`);
    expect(created.body.webhook.secret).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(created.body.notice).to.match(/credit professional/);
    const got = await send(h, 'GET', `/api/v1/watchlists/${id}`);
    expect(got.status).to.equal(200);
    expect(got.body.webhook).to.deep.equal({ url: `${receiver.url}/never` });
    expect(JSON.stringify(got.body)).to.not.contain(created.body.webhook.secret);
    const listed = await send(h, 'GET', '/api/v1/watchlists');
    expect(listed.body.items.map((w: { id: string }) => w.id)).to.include(id);
    expect(JSON.stringify(listed.body)).to.not.contain(created.body.webhook.secret);
    expect((await send(h, 'DELETE', `/api/v1/watchlists/${id}`)).status).to.equal(204);
    expect((await send(h, 'GET', `/api/v1/watchlists/${id}`)).body).to.include({ code: 'not_found', status: 404 });
    expect((await send(h, 'DELETE', `/api/v1/watchlists/${id}`)).status).to.equal(404);
  });

  it('lists the watchlists on a page to a form post with the token, and shows the form again for another', async () => {
    const created = await send(h, 'POST', '/api/v1/watchlists', { name: 'Listed on the page', domains: ['listed-example.com'], intervalHours: 24 });
    const form = await h.request('/watchlists', { headers: { accept: 'text/html' } });
    expect(form.status).to.equal(200);
    expect(String(form.body)).to.contain('name="token"').and.to.contain('type="password"');
    const post = (token: string) => h.request('/watchlists', { method: 'POST', body: new URLSearchParams({ token }), headers: { origin: h.baseUrl } });
    const refused = await post('not-the-token');
    expect(refused.status).to.equal(401);
    expect(String(refused.body)).to.contain('That is not the watchlist token').and.not.to.contain('Listed on the page');
    const listed = await post(` ${TOKEN} `);
    expect(listed.status).to.equal(200);
    expect(String(listed.body)).to.contain(`href="/watchlists/${created.body.id}"`).and.to.contain('Listed on the page').and.not.to.contain(TOKEN);
    expect((await send(h, 'DELETE', `/api/v1/watchlists/${created.body.id}`)).status).to.equal(204);
  });

  let watched: { id: string; secret: string } = { id: '', secret: '' };

  it('runs a new watchlist at once, assessing every domain outside the public limit, and posts a signed webhook', async () => {
    const created = await send(h, 'POST', '/api/v1/watchlists', { name: 'Portfolio', domains: ['firm-example.com', 'bakery-example.co.uk', 'shop-example.de'], intervalHours: 24, webhook: { url: `${receiver.url}/hook` } });
    watched = { id: created.body.id, secret: created.body.webhook.secret };
    const hook = await until('the first delivery', async () => received('/hook')[0]);
    expect(hook.method).to.equal('POST');
    expect(hook.url).to.equal('/hook');
    expect(hook.headers['content-type']).to.equal('application/json');
    expect(hook.headers['x-sextant-event']).to.equal('watchlist.run');
    const timestamp = Number(hook.headers['x-sextant-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).to.be.below(60);
    const signature = String(hook.headers['x-sextant-signature']);
    expect(signature).to.match(/^sha256=[0-9a-f]{64}$/);
    expect(signatureMatches(watched.secret, timestamp, hook.body, signature)).to.equal(true);
    expect(signatureMatches(watched.secret, timestamp, hook.body.replace('Portfolio', 'Portfolia'), signature), 'a tampered body').to.equal(false);
    expect(signatureMatches(watched.secret, timestamp + 1, hook.body, signature), 'another timestamp').to.equal(false);
    const payload = JSON.parse(hook.body);
    expect(payload.watchlist).to.deep.equal({ id: watched.id, name: 'Portfolio' });
    expect(payload.domains.map((d: { domain: string; status: string }) => [d.domain, d.status])).to.deep.equal([
      ['firm-example.com', 'complete'], ['bakery-example.co.uk', 'complete'], ['shop-example.de', 'complete'],
    ]);
    expect(payload.domains[0].url).to.equal(`/api/v1/assessments/${payload.domains[0].assessmentId}`);
    expect(payload.notice).to.match(/credit professional/);

    const got = await until('the delivery recorded', async () => {
      const res = await send(h, 'GET', `/api/v1/watchlists/${watched.id}`);
      return res.body.runs[0]?.delivery.state === 'delivered' && res;
    });
    expect(hook.headers['x-sextant-delivery']).to.equal(got.body.runs[0].id);
    expect(got.body.lastRunAt).to.equal(got.body.runs[0].startedAt);
    expect(Date.parse(got.body.nextRunAt) - Date.parse(got.body.lastRunAt)).to.equal(24 * HOUR);
    expect(got.body.runs[0].delivery.attempts).to.have.length(1);
    expect(got.body.runs[0].delivery.attempts[0]).to.include({ outcome: 'delivered', status: 200, error: null });
    expect(got.body.latest.map((d: { domain: string; status: string; changes: unknown }) => [d.domain, d.status, d.changes])).to.deep.equal([
      ['firm-example.com', 'complete', null], ['bakery-example.co.uk', 'complete', null], ['shop-example.de', 'complete', null],
    ]);
    // Three assessments were made although the public limit is 1 an hour: a schedule takes nothing from it.
    const publicOne = await h.request('/api/v1/assessments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ domain: 'public-firm.com' }) });
    expect(publicOne.status).to.equal(201);
  });

  it('runs again once due, and the second run carries each domain’s changes, in the record, the webhook and the page', async () => {
    mail.set('firm-example.com', 'mail.other-provider.example.net');
    offset = 25 * HOUR;
    const hook = await until('the second delivery', async () => received('/hook')[1]);
    const payload = JSON.parse(hook.body);
    const firm = payload.domains.find((d: { domain: string }) => d.domain === 'firm-example.com');
    expect(firm.changes.items.map((c: { name: string; kind: string }) => [c.name, c.kind])).to.deep.equal([['mx_records', 'changed']]);
    expect(payload.domains.find((d: { domain: string }) => d.domain === 'shop-example.de').changes.items).to.deep.equal([]);
    const got = await send(h, 'GET', `/api/v1/watchlists/${watched.id}`);
    expect(got.body.runs).to.have.length(2);
    expect(got.body.latest[0].assessmentId).to.equal(firm.assessmentId);
    expect(got.body.latest[0].changes.since.id).to.equal(got.body.runs[1].assessments[0].assessmentId);

    const page = await h.request(`/watchlists/${watched.id}`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-security-policy')).to.contain("default-src 'none'");
    expect(page.body).to.contain('Portfolio').and.to.contain(`/assessments/${firm.assessmentId}`);
    expect(page.body).to.match(/Since \d{1,2} \w{3} \d{4}: 1 observation differs/);
    expect(page.body).to.contain('Then: E-mail for the domain goes to 1 mail server: mx.firm-example.com.');
    expect(page.body).to.contain('Delivered');
    expect((await h.request('/watchlists/00000000-0000-0000-0000-000000000000')).status).to.equal(404);
  });

  it('retries a receiver that answers 500, and records both attempts', async () => {
    answers.set('/flaky', [500]);
    const created = await send(h, 'POST', '/api/v1/watchlists', { domains: ['retry-example.com'], intervalHours: 24, webhook: { url: `${receiver.url}/flaky` } });
    await until('two attempts', async () => received('/flaky').length >= 2);
    const got = await until('the delivery recorded', async () => {
      const res = await send(h, 'GET', `/api/v1/watchlists/${created.body.id}`);
      return res.body.runs[0]?.delivery.state === 'delivered' && res;
    });
    const { attempts } = got.body.runs[0].delivery;
    expect(attempts.map((a: { outcome: string; status: number | null }) => [a.outcome, a.status])).to.deep.equal([['failed', 500], ['delivered', 200]]);
    expect(attempts[0].error).to.contain('500');
    // The wait before the retry is the backoff's first step (300 ms here, 30 s by default).
    expect(Date.parse(attempts[1].at) - Date.parse(attempts[0].at)).to.be.at.least(300);
    const [first, second] = received('/flaky');
    expect(first!.headers['x-sextant-delivery']).to.equal(second!.headers['x-sextant-delivery']);
    expect(signatureMatches(created.body.webhook.secret, Number(second!.headers['x-sextant-timestamp']), second!.body, String(second!.headers['x-sextant-signature']))).to.equal(true);
  });

  it('refuses a webhook on a private address the network guard does not allow, and sends nothing', async () => {
    const outside = await startFixture((_req, res) => res.writeHead(200).end(), '127.0.0.2');
    try {
      const created = await send(h, 'POST', '/api/v1/watchlists', { domains: ['guarded-example.com'], intervalHours: 24, webhook: { url: `http://127.0.0.2:${outside.port}/hook` } });
      const got = await until('the refusal recorded', async () => {
        const res = await send(h, 'GET', `/api/v1/watchlists/${created.body.id}`);
        return res.body.runs[0]?.delivery.state === 'refused' && res;
      });
      const { attempts, nextAttemptAt } = got.body.runs[0].delivery;
      expect(attempts).to.have.length(1);
      expect(attempts[0]).to.include({ outcome: 'refused', status: null });
      expect(attempts[0].error).to.match(/network guard/);
      expect(nextAttemptAt).to.equal(null);
      expect(outside.connections()).to.equal(0);
      const page = await h.request(`/watchlists/${created.body.id}`);
      expect(page.body).to.contain('Refused: a private address, nothing sent');
    } finally {
      await outside.close();
    }
  });

  it('never logs the token or a secret', async () => {
    expect(logLines.length).to.be.greaterThan(10);
    const log = logLines.join('\n');
    expect(log).to.not.contain(TOKEN);
    expect(log).to.not.contain(watched.secret);
  });
});

describe('watchlist schedule on a shared database', function () {
  this.timeout(30_000);

  it('runs a due watchlist once when two instances tick at the same moment', async () => {
    // No workers here, so no scheduler of the harness's own: only the two below run it.
    const h = await startHarness({ demo: false, watchlistToken: TOKEN });
    const schedulers = [1, 2].map(() => startWatchlistScheduler(
      { store: h.service.store.watchlists, assessments: h.service.assessments, deliver: async (run) => ({ state: 'delivered', attempts: run.attempts, nextAttemptAt: null }), logger: silentLogger },
      { tickMs: 3_600_000 },
    ));
    try {
      const created = await send(h, 'POST', '/api/v1/watchlists', { domains: ['one-example.com', 'two-example.com'], intervalHours: 24 });
      for (let round = 0; round < 5; round += 1) await Promise.all(schedulers.map((s) => s.tick()));
      const got = await send(h, 'GET', `/api/v1/watchlists/${created.body.id}`);
      expect(got.body.runs).to.have.length(1);
      expect(got.body.runs[0].assessments.map((a: { domain: string }) => a.domain)).to.deep.equal(['one-example.com', 'two-example.com']);
      expect(got.body.latest.map((d: { status: string }) => d.status)).to.deep.equal(['queued', 'queued']);
    } finally {
      await Promise.all(schedulers.map((s) => s.stop()));
      await h.close();
    }
  });
});
