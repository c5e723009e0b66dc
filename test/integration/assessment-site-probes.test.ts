/**
 * certificate_expiry, registration_expiry, legal_identity and site_activity, against fixture DNS,
 * HTTPS, HTTP and RDAP servers. Each is observed, answered as absent or unknown, unreachable and
 * silent, and each outcome, value and evidence is checked. Every server here listens on 127.0.0.1
 * and the fixture DNS resolves every name to it: no probe traffic leaves the machine.
 */
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { expect } from 'chai';
import type { ValidateFunction } from 'ajv';
import { inWords } from '../../src/assessments/observation-words.js';
import { rdapFromBootstrap, runProbes, type Observation, type ProbeContext } from '../../src/assessments/probes/index.js';
import { findIdentifiers, textLines } from '../../src/assessments/probes/legal-identifiers.js';
import { copyrightOf, newestLastmod } from '../../src/assessments/probes/site-activity.js';
import { createAjv, loadContract } from '../../src/contract.js';
import { createNetClient, type NetClient } from '../../src/net/index.js';
import { createTestCa, type KeyAndCert } from '../support/probe-fixtures/certificates.js';
import { startFixtureDns, type FixtureDns } from '../support/probe-fixtures/dns-server.js';
import { DAY_MS, expectOutcome, pick } from '../support/probe-fixtures/observations.js';
import { startRdapStub, type RdapStub } from '../support/probe-fixtures/rdap-stub.js';
import { LOOPBACK, SITE_ZONES, siteContentCertificates, siteContentHttp, siteContentHttps } from '../support/probe-fixtures/site-content.js';
import { startHanging, startHttp, startHttps, type WebFixture } from '../support/probe-fixtures/web-servers.js';
import { gradeWordsIn } from '../support/grade-words.js';

const MY_NAMES = ['certificate_expiry', 'legal_identity', 'site_activity', 'registration_expiry'];
/** Grade, advice and "dormant"-style judgement words: none may appear in what a person reads. */
const JUDGEMENT = /\b(good|bad|poor|weak|strong|risky?|safe|unsafe|score[sd]?|grade[sd]?|rating|rated|recommend\w*|healthy|excellent|worse|better|pass(ed)?|fail(ed)?|should|must|dormant|inactive|abandoned|outdated|stale|neglected|active)\b/i;

/** A TCP port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const day = (iso: string): string => iso.slice(0, 10);

describe('site content, certificate expiry and registration expiry observations (fixtures on loopback)', function () {
  this.timeout(60_000);
  let ca: KeyAndCert;
  let dns: FixtureDns;
  let https: WebFixture;
  let http: WebFixture;
  let hanging: WebFixture;
  let rdap: RdapStub;
  let closed: number;
  let validate: ValidateFunction;
  const servers: WebFixture[] = [];
  const clients: NetClient[] = [];
  const runs = new Map<string, Observation[]>();

  const client = (): NetClient => {
    const created = createNetClient({ allowPrivate: [`${LOOPBACK}/32`], resolve: dns.resolveHost, tls: { ca: ca.cert } });
    clients.push(created);
    return created;
  };
  const context = (domain: string, overrides: Partial<ProbeContext> = {}): ProbeContext => ({
    domain,
    net: client(),
    dns: dns.resolver,
    allowPrivate: [`${LOOPBACK}/32`],
    resolveHost: dns.resolveHost,
    tlsCa: ca.cert,
    ports: { http: http.port, https: https.port },
    rdapBaseUrl: () => Promise.resolve(rdap.baseUrl),
    timeoutMs: 5_000,
    now: () => new Date(),
    ...overrides,
  });
  const observation = (domain: string, name: string): Observation => pick(runs.get(domain) ?? expect.fail(`no run for ${domain}`), name);
  const summary = (o: Observation): string => inWords(o).summary;
  const expectValid = (observations: readonly Observation[]): void => {
    for (const o of observations) {
      expect(validate(inWords(o)), `${o.name}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      expect(o.evidence, o.name).to.match(/^[A-Z].*\.$/s);
    }
  };
  const site = (scheme: 'http' | 'https', host: string, path = '/'): string => `${scheme}://${host}:${scheme === 'https' ? https.port : http.port}${path}`;

  before(async () => {
    ca = await createTestCa();
    const certificates = await siteContentCertificates(ca);
    dns = await startFixtureDns(SITE_ZONES);
    https = await startHttps(certificates, certificates.get('firm.test') ?? expect.fail('no firm.test certificate'), siteContentHttps(() => https.port));
    http = await startHttp(siteContentHttp(() => https.port));
    hanging = await startHanging();
    rdap = await startRdapStub(['firm.test', 'plain.test', 'brittle.test', 'silent.test'], { withoutExpiry: ['plain.test'], silent: ['silent.test'] });
    servers.push(https, http, hanging, rdap);
    closed = await closedPort();
    const contract = loadContract() as unknown as { components: { schemas: { Observation: object } } };
    validate = createAjv().compile(contract.components.schemas.Observation);
    const silentPorts = { http: hanging.port, https: hanging.port };
    const cases: Array<[string, ProbeContext]> = [
      ['firm.test', context('firm.test', { rdapBaseUrl: rdapFromBootstrap(client(), rdap.bootstrapUrl) })],
      ['plain.test', context('plain.test')],
      ['brittle.test', context('brittle.test')],
      ['broken.test', context('broken.test')],
      ['gone.test', context('gone.test')],
      ['closed.test', context('closed.test', { ports: { http: closed, https: closed }, rdapBaseUrl: () => Promise.resolve(`http://127.0.0.1:${closed}/rdap/`) })],
      ['silent.test', context('silent.test', { ports: silentPorts, timeoutMs: 1_500 })],
    ];
    const results = await Promise.all(cases.map(([, ctx]) => runProbes(ctx)));
    cases.forEach(([domain], i) => runs.set(domain, results[i] ?? []));
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.close()));
    await dns?.close();
  });

  it('says nothing that reads as a grade or advice, in any label, sentence or value of any run', () => {
    expect(gradeWordsIn(runs)).to.deep.equal([]);
  });

  it('reports each of the four once per run, valid against the contract, worded without a judgement', () => {
    for (const [domain, observations] of runs) {
      expectValid(observations);
      const expected = domain === 'gone.test' ? ['registration_expiry'] : MY_NAMES;
      expect(observations.map((o) => o.name).filter((name) => MY_NAMES.includes(name)), domain).to.deep.equal(expected);
      // The sentences for error and timeout are shared by every observation; these are the four's own.
      for (const o of observations.filter((x) => MY_NAMES.includes(x.name) && (x.outcome === 'observed' || x.outcome === 'not_found'))) {
        const words = inWords(o);
        expect(`${words.label} ${words.summary}`, `${domain} ${o.name}`).to.not.match(JUDGEMENT);
      }
    }
    const requests = https.requests.concat(http.requests).join('\n');
    expect(requests).to.not.include('elsewhere.test');
  });

  describe('certificate_expiry', () => {
    it('observes when a valid certificate expires: its notAfter date and the days left', () => {
      const o = observation('firm.test', 'certificate_expiry');
      expectOutcome(o, 'observed');
      expect(o.source).to.equal('tls');
      const value = o.value as { notAfter: string; daysToExpiry: number; expired: boolean };
      expect(value).to.include({ daysToExpiry: 36, expired: false });
      expect(Date.parse(value.notAfter) - Date.now()).to.be.closeTo(36.5 * DAY_MS, 60_000);
      expect(Object.keys(value)).to.deep.equal(['notAfter', 'daysToExpiry', 'expired']);
      expect(o.evidence).to.equal(`Asked firm.test port ${https.port} for its TLS certificate (SNI firm.test); the certificate is valid until ${value.notAfter} (notAfter), 36 day(s) from now.`);
      expect(summary(o)).to.equal(`The website certificate expires on ${day(value.notAfter)}, in 36 days.`);
      expect((observation('firm.test', 'tls_certificate').value as { validTo: string }).validTo).to.equal(value.notAfter);
    });

    it('observes an expired certificate as expired, with the days since', () => {
      const o = observation('plain.test', 'certificate_expiry');
      expectOutcome(o, 'observed');
      const value = o.value as { notAfter: string; daysToExpiry: number; expired: boolean };
      expect(value).to.include({ daysToExpiry: -11, expired: true });
      expect(Date.now() - Date.parse(value.notAfter)).to.be.closeTo(10.5 * DAY_MS, 60_000);
      expect(o.evidence).to.equal(`Asked plain.test port ${https.port} for its TLS certificate (SNI plain.test); the certificate is valid until ${value.notAfter} (notAfter), 10 days ago.`);
      expect(summary(o)).to.equal(`The website certificate expired on ${day(value.notAfter)}, 10 days ago.`);
    });

    it('reports a port that refuses the connection as an error naming the host, with no value', () => {
      const o = observation('closed.test', 'certificate_expiry');
      expectOutcome(o, 'error');
      expect(o.value).to.equal(null);
      expect(o.evidence).to.equal(`Asked closed.test port ${closed} for its TLS certificate (SNI closed.test); could not connect to closed.test: connection refused (ECONNREFUSED).`);
    });

    it('reports a port that never answers as a timeout', () => {
      const o = observation('silent.test', 'certificate_expiry');
      expectOutcome(o, 'timeout');
      expect(o.value).to.equal(null);
      expect(o.evidence).to.match(new RegExp(`^Asked silent\\.test port ${hanging.port} for its TLS certificate \\(SNI silent\\.test\\); (no complete answer within 1500 ms|silent\\.test gave no answer in time)`));
    });
  });

  describe('registration_expiry', () => {
    it('observes the expiration event of the registry\'s domain object', () => {
      const o = observation('firm.test', 'registration_expiry');
      expectOutcome(o, 'observed');
      expect(o.source).to.equal('rdap');
      const expires = '2027-03-10T14:22:05.000Z';
      const days = Math.floor((Date.parse(expires) - Date.now()) / DAY_MS);
      expect(o.value).to.deep.equal({ expires, daysToExpiry: days });
      expect(o.evidence).to.equal(`Asked for ${rdap.baseUrl}domain/firm.test (Accept: application/rdap+json); its expiration event is dated ${expires}.`);
      expect(summary(o)).to.equal(`The domain's registration expires on 2027-03-10, in ${days.toLocaleString('en-US')} days.`);
    });

    it('observes a domain object without an expiration event as an unknown date, not as a missing domain', () => {
      const o = observation('plain.test', 'registration_expiry');
      expectOutcome(o, 'observed');
      expect(o.value).to.deep.equal({ expires: null, daysToExpiry: null });
      expect(o.evidence).to.equal(`Asked for ${rdap.baseUrl}domain/plain.test (Accept: application/rdap+json); the domain object has no expiration event.`);
      expect(summary(o)).to.equal('The registry publishes no expiry date for the domain.');
      expectOutcome(observation('plain.test', 'registration'), 'observed');
    });

    it('reports the RDAP server\'s 404 as not_found for both registration names', () => {
      for (const name of ['registration', 'registration_expiry']) {
        const o = observation('gone.test', name);
        expectOutcome(o, 'not_found');
        expect(o.value).to.equal(null);
        expect(o.evidence, name).to.equal(`Asked for ${rdap.baseUrl}domain/gone.test (Accept: application/rdap+json); the RDAP server 127.0.0.1:${rdap.port} answered 404 (no such domain object).`);
      }
      expect(summary(observation('gone.test', 'registration_expiry'))).to.equal('The registry has no record of the domain.');
    });

    it('reports an RDAP server that refuses the connection as an error naming it', () => {
      const o = observation('closed.test', 'registration_expiry');
      expectOutcome(o, 'error');
      expect(o.value).to.equal(null);
      expect(o.evidence).to.equal(`Asked for http://127.0.0.1:${closed}/rdap/domain/closed.test (Accept: application/rdap+json); could not connect to the RDAP server 127.0.0.1:${closed}: connection refused (ECONNREFUSED).`);
    });

    it('reports an RDAP server that never answers as a timeout naming it', () => {
      const o = observation('silent.test', 'registration_expiry');
      expectOutcome(o, 'timeout');
      expect(o.value).to.equal(null);
      // The request's own limit ends just before the probe's, so the server is named; on a busy machine the probe's may end first.
      const named = `Asked for ${rdap.baseUrl}domain/silent.test (Accept: application/rdap+json); the RDAP server 127.0.0.1:${rdap.port} gave no answer in time`;
      const probeLimit = 'Asked the RDAP server of .test for the domain object of silent.test; no complete answer within 1500 ms.';
      expect(o.evidence.startsWith(named) || o.evidence === probeLimit, o.evidence).to.equal(true);
      expect(observation('silent.test', 'registration').evidence).to.equal(o.evidence);
    });

    const failures: Array<{ what: string; rdapBaseUrl: () => (tld: string) => Promise<string | null>; evidence: () => string }> = [
      {
        what: 'a bootstrap that cannot be reached',
        rdapBaseUrl: () => rdapFromBootstrap(client(), `http://127.0.0.1:${closed}/dns.json`),
        evidence: () => 'Looked up the RDAP server for .test in the IANA bootstrap; the configured RDAP bootstrap could not be reached; the registry was not asked.',
      },
      {
        what: 'a bootstrap that lists no server for the TLD',
        rdapBaseUrl: () => () => Promise.resolve(null),
        evidence: () => 'Looked up the RDAP server for .test in the IANA bootstrap; none is listed, so no registry was asked.',
      },
    ];
    for (const { what, rdapBaseUrl, evidence } of failures) {
      it(`reports ${what} as the same error for both registration names`, async () => {
        const observations = await runProbes(context('gone.test', { rdapBaseUrl: rdapBaseUrl() }));
        expectValid(observations);
        for (const name of ['registration', 'registration_expiry']) {
          const o = pick(observations, name);
          expectOutcome(o, 'error');
          expect(o.evidence, name).to.equal(evidence());
        }
      });
    }

    it('reports an RDAP server answering 503 as an error for both names, never as a missing registration', async () => {
      const registry = await startHttp((_req, res) => void res.writeHead(503, { 'content-type': 'application/rdap+json' }).end('{"errorCode":503}'));
      servers.push(registry);
      const observations = await runProbes(context('gone.test', { rdapBaseUrl: () => Promise.resolve(`http://127.0.0.1:${registry.port}/rdap/`) }));
      for (const name of ['registration', 'registration_expiry']) {
        const o = pick(observations, name);
        expectOutcome(o, 'error');
        expect(o.value).to.deep.equal({ status: 503 });
        expect(o.evidence).to.include(`the RDAP server 127.0.0.1:${registry.port} answered 503 without an RDAP domain object.`);
      }
    });
  });

  describe('legal_identity', () => {
    it('finds the identifiers on the home page and on the linked imprint and about pages, never in scripts or styles', () => {
      const o = observation('firm.test', 'legal_identity');
      expectOutcome(o, 'observed');
      expect(o.source).to.equal('http');
      const home = site('https', 'firm.test');
      const impressum = site('https', 'firm.test', '/impressum');
      const about = site('https', 'firm.test', '/about-us');
      const value = o.value as { identifiers: Array<{ kind: string; value: string; foundAt: string; context: string }>; pagesRead: string[] };
      expect(value.pagesRead).to.deep.equal([home, impressum, about]);
      expect(value.identifiers.map((i) => [i.kind, i.value, i.foundAt])).to.deep.equal([
        ['uk_company_number', '01234567', home],
        ['vat_id', 'GB123456789', home],
        ['registered_address', '1 High St. Albans Road, London EC1A 1BB', home],
        ['de_commercial_register', 'HRB 123456 B', impressum],
        ['registered_address', 'Berlin', impressum],
        ['vat_id', 'DE123456789', impressum],
        ['au_abn', '51824753556', about],
      ]);
      expect(value.identifiers[0]?.context).to.equal('Registered in England and Wales no. 01234567. Registered office: 1 High St. Albans R…');
      for (const i of value.identifiers) expect(i.context).to.not.match(/[<>]/);
      expect(JSON.stringify(o)).to.not.include('99999');
      expect(o.evidence).to.match(new RegExp(`^Read the home page ${home}; read ${impressum}; read ${about}; found uk_company_number "01234567" on ${home}, `));
      expect(summary(o)).to.equal(
        'The website states 7 company details: UK company number 01234567, VAT ID GB123456789, registered address "1 High St. Albans Road, London EC1A 1BB", German commercial register entry HRB 123456 B, registered address "Berlin", and 2 more.',
      );
    });

    it('reports pages that were read and state none as not_found, listing them', () => {
      const o = observation('plain.test', 'legal_identity');
      expectOutcome(o, 'not_found');
      const [home, about, legal] = [site('http', 'plain.test'), site('http', 'plain.test', '/about'), site('http', 'plain.test', '/legal')];
      expect(o.value).to.deep.equal({ identifiers: [], pagesRead: [home, about] });
      expect(o.evidence).to.equal(`Read the home page ${home}; read ${about}; ${legal} answered 404; none of the pages read states a company number, VAT ID or registered address.`);
      expect(summary(o)).to.equal('The website pages read state no company number, VAT ID or registered address.');
    });

    it('reports a linked page that drops the connection as an error naming the host, not as absent', () => {
      const o = observation('brittle.test', 'legal_identity');
      expectOutcome(o, 'error');
      expect(o.value).to.equal(null);
      expect(o.evidence).to.match(new RegExp(`^Read the home page ${site('https', 'brittle.test')}, which states no company identifier, then asked for ${site('https', 'brittle.test', '/imprint')}; .*brittle\\.test`));
    });

    it('reports a home page that answers 503 as an error, having read nothing', () => {
      const o = observation('broken.test', 'legal_identity');
      expectOutcome(o, 'error');
      expect(o.value).to.deep.equal({ url: site('https', 'broken.test'), status: 503 });
      expect(o.evidence).to.equal(`Asked for the home page of broken.test; ${site('https', 'broken.test')} answered 503, so no page was read.`);
    });

    it('reports a site that refuses connections as an error naming the host', () => {
      const o = observation('closed.test', 'legal_identity');
      expectOutcome(o, 'error');
      expect(o.value).to.equal(null);
      expect(o.evidence).to.equal('Asked for the home page of closed.test and up to 2 linked imprint, legal or about pages; could not connect to closed.test: connection refused (ECONNREFUSED).');
    });

    it('reports a site that never answers as a timeout', () => {
      const o = observation('silent.test', 'legal_identity');
      expectOutcome(o, 'timeout');
      expect(o.value).to.equal(null);
      expect(o.evidence).to.match(/^Asked for the home page of silent\.test and up to 2 linked imprint, legal or about pages; (no complete answer within 1500 ms|silent\.test gave no answer in time)/);
    });

    const patterns: ReadonlyArray<readonly [string, string, string | null]> = [
      ['Acme Ltd, Company No. 12345678', 'uk_company_number', '12345678'],
      ['Registered in Scotland, company number SC123456.', 'uk_company_number', 'SC123456'],
      ['Registered in England & Wales under company number 07654321', 'uk_company_number', '07654321'],
      ['Registergericht: Amtsgericht München, HRB 98765', 'de_commercial_register', 'HRB 98765'],
      ['Handelsregister HRA1234', 'de_commercial_register', 'HRA 1234'],
      ['USt-IdNr. DE 123 456 789', 'vat_id', 'DE123456789'],
      ['Umsatzsteuer-Identifikationsnummer: ATU12345678', 'vat_id', 'ATU12345678'],
      ['N° TVA intracommunautaire : FR12345678901', 'vat_id', 'FR12345678901'],
      ['BTW-nummer NL123456789B01', 'vat_id', 'NL123456789B01'],
      ['VAT registration number: GB 123 4567 89', 'vat_id', 'GB123456789'],
      ['SIRET : 123 456 789 00012', 'fr_siret', '12345678900012'],
      ['SIREN 123456789', 'fr_siren', '123456789'],
      ['RCS Paris B 123 456 789', 'fr_siren', '123456789'],
      ['KvK-nummer: 12345678', 'nl_kvk', '12345678'],
      ['ABN 51 824 753 556', 'au_abn', '51824753556'],
      ['EIN: 12-3456789', 'us_ein', '12-3456789'],
      ['Registered address: 5 Rue de la Paix, 75002 Paris | Tel 01 23', 'registered_address', '5 Rue de la Paix, 75002 Paris'],
      ['Siège social : 5 Rue de la Paix, Paris', 'registered_address', '5 Rue de la Paix, Paris'],
      // Not identifiers: an unlabelled number, a lower-case prefix, a tax ID without its label, VAT as a rate.
      ['Call 12345678 today', 'none', null],
      ['VAT de123456789', 'none', null],
      ['Tax ID 12-3456789', 'none', null],
      ['Prices include VAT at 20%.', 'none', null],
    ];
    for (const [text, kind, expected] of patterns) {
      it(`reads "${text}" as ${expected === null ? 'no identifier' : `${kind} ${expected}`}`, () => {
        const found = findIdentifiers([text], 'https://example.com/');
        expect(found.map((i) => [i.kind, i.value])).to.deep.equal(expected === null ? [] : [[kind, expected]]);
      });
    }

    it('reads visible text line by line, without scripts, styles or markup, and caps what it keeps', () => {
      const html = `<script>x="HRB 1"</script><p>Registered office: <b>1 Long Road</b><br>VAT GB123456789</p><p>Registered office: ${'x'.repeat(500)}</p>`;
      expect(textLines(html)).to.deep.equal(['Registered office: 1 Long Road', 'VAT GB123456789', `Registered office: ${'x'.repeat(500)}`]);
      const found = findIdentifiers(textLines(html), 'https://example.com/');
      expect(found.map((i) => i.value)).to.deep.equal(['1 Long Road', 'GB123456789', 'x'.repeat(160)]);
      expect(found.every((i) => i.context.length <= 300)).to.equal(true);
      // Markup written as entities is decoded into the text; none of it is kept.
      const [hostile] = findIdentifiers(textLines('<p>&lt;img src=x&gt;Registered office: &lt;b&gt;2 Side Street&lt;/b&gt;</p>'), 'https://example.com/');
      expect(hostile).to.deep.include({ value: 'b 2 Side Street /b', context: 'img src=x Registered office: b 2 Side Street /b' });
    });
  });

  describe('site_activity', () => {
    it('observes the copyright year, the Last-Modified date and the newest sitemap date', () => {
      const o = observation('firm.test', 'site_activity');
      expectOutcome(o, 'observed');
      expect(o.source).to.equal('http');
      const sitemapUrl = site('https', 'firm.test', '/sitemap-main.xml');
      expect(o.value).to.deep.equal({ copyrightYear: 2024, lastModified: '2024-05-14T08:00:00.000Z', sitemapNewest: '2024-06-02T00:00:00.000Z', sitemapUrl });
      expect(o.evidence).to.equal(
        `Read ${site('https', 'firm.test')}: the copyright notice "© 2015–2024", a Last-Modified header dated 2024-05-14T08:00:00.000Z; ${site('https', 'firm.test', '/robots.txt')} names the sitemap ${sitemapUrl}; its newest <lastmod> is 2024-06-02T00:00:00.000Z.`,
      );
      expect(summary(o)).to.equal("The home page's copyright notice gives the year 2024; the home page's Last-Modified date is 2024-05-14; the newest date in the site map is 2024-06-02.");
      expect(https.requests).to.not.include(`GET firm.test:${https.port} /sitemap.xml`);
    });

    it('reports a home page that states no date, with no robots.txt and no sitemap, as not_found', () => {
      const o = observation('plain.test', 'site_activity');
      expectOutcome(o, 'not_found');
      expect(o.value).to.deep.equal({ copyrightYear: null, lastModified: null, sitemapNewest: null, sitemapUrl: null });
      expect(o.evidence).to.equal(
        `Read ${site('http', 'plain.test')}: no copyright year, no Last-Modified header; ${site('http', 'plain.test', '/robots.txt')} (status 404) names no sitemap on this host, so asked for ${site('http', 'plain.test', '/sitemap.xml')}; it answered 404 without a sitemap document; none of the three states a date.`,
      );
      expect(summary(o)).to.equal('The home page states no copyright year and sends no Last-Modified date, and no site map date was found.');
    });

    it('reports a sitemap that drops the connection, when nothing else states a date, as an error naming the host', () => {
      const o = observation('brittle.test', 'site_activity');
      expectOutcome(o, 'error');
      expect(o.value).to.equal(null);
      const sitemap = site('https', 'brittle.test', '/sitemap.xml');
      expect(o.evidence).to.match(new RegExp(`^Read ${site('https', 'brittle.test')}: no copyright year, no Last-Modified header; ${site('https', 'brittle.test', '/robots.txt')} names the sitemap ${sitemap}; .*brittle\\.test`));
    });

    it('reports a site whose pages answer 503 as an error, not as a site stating no date', () => {
      const o = observation('broken.test', 'site_activity');
      expectOutcome(o, 'error');
      expect(o.value).to.equal(null);
      expect(o.evidence).to.equal(
        `Asked for ${site('https', 'broken.test')}; it answered 503, so its text and headers were not read; ${site('https', 'broken.test', '/robots.txt')} (status 503) names no sitemap on this host, so asked for ${site('https', 'broken.test', '/sitemap.xml')}; it answered 503.`,
      );
    });

    it('reports a site that refuses connections as an error naming the host', () => {
      const o = observation('closed.test', 'site_activity');
      expectOutcome(o, 'error');
      expect(o.value).to.equal(null);
      expect(o.evidence).to.equal('Asked for the home page of closed.test, its robots.txt and one sitemap; could not connect to closed.test: connection refused (ECONNREFUSED).');
    });

    it('reports a site that never answers as a timeout', () => {
      const o = observation('silent.test', 'site_activity');
      expectOutcome(o, 'timeout');
      expect(o.value).to.equal(null);
      expect(o.evidence).to.match(/^Asked for the home page of silent\.test, its robots\.txt and one sitemap; (no complete answer within 1500 ms|silent\.test gave no answer in time)/);
    });

    const notices: ReadonlyArray<readonly [string, number | null]> = [
      ['© 2019 Acme', 2019],
      ['Copyright 2015–2024 Acme Ltd', 2024],
      ['(c) Acme Ltd 2020. All rights reserved.', 2020],
      ['Copyright &copy; 2010 - 2023 Acme', 2023],
      ['© 2012 Acme. © 2016 Acme Media', 2016],
      ['Founded in 2019', null],
      [`© ${new Date().getUTCFullYear() + 5}`, null],
      ['© 1887 Old Firm', null],
    ];
    for (const [text, year] of notices) {
      it(`reads "${text}" as ${year === null ? 'no copyright year' : `copyright year ${year}`}`, () => {
        expect(copyrightOf(text, new Date())?.year ?? null).to.equal(year);
      });
    }

    it('takes the newest parsable <lastmod> of a sitemap or sitemap index', () => {
      expect(newestLastmod('<sitemapindex><sitemap><lastmod>2021-01-01</lastmod></sitemap><sitemap><lastmod>not a date</lastmod></sitemap><sitemap><lastmod> 2022-03-04T05:06:07Z </lastmod></sitemap></sitemapindex>')).to.equal('2022-03-04T05:06:07.000Z');
      expect(newestLastmod('<urlset><url><loc>https://example.com/</loc></url></urlset>')).to.equal(null);
    });
  });
});
