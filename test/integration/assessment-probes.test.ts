import { expect } from 'chai';
import type { ValidateFunction } from 'ajv';
import { statusOf } from '../../src/assessments/assessment-service.js';
import { OBSERVATION_NAMES, rdapFromBootstrap, runProbes, type Observation, type ProbeContext } from '../../src/assessments/probes/index.js';
import { createAjv, loadContract } from '../../src/contract.js';
import { createNetClient, inspectTls, NetError, type NetClient, type NetClientOptions } from '../../src/net/index.js';
import { createTestCa, type KeyAndCert } from '../support/probe-fixtures/certificates.js';
import { DAY_MS, expectOutcome, pick, valueOf } from '../support/probe-fixtures/observations.js';
import { startFixtureDns, type FixtureDns } from '../support/probe-fixtures/dns-server.js';
import { startRdapStub, type RdapStub } from '../support/probe-fixtures/rdap-stub.js';
import { httpSites, httpsSites, LOOPBACK, siteCertificates, ZONES } from '../support/probe-fixtures/sites.js';
import { startHanging, startHttp, startHttps, type WebFixture } from '../support/probe-fixtures/web-servers.js';
import { inWords } from '../../src/assessments/observation-words.js';
import { gradeWordsIn } from '../support/grade-words.js';

// Every server below listens on 127.0.0.1 and the fixture DNS resolves every name to loopback:
// no probe traffic leaves the machine.

const WEBSITE_NAMES = ['https_reachable', 'hsts', 'security_headers', 'http_to_https_redirect', 'page_title', 'contact_page', 'robots_txt', 'sitemap'];
const NEEDS_ADDRESSES = ['tls_certificate', 'certificate_expiry', ...WEBSITE_NAMES, 'parked_domain', 'legal_identity', 'site_activity'];
const DOMAINS = ['acme.test', 'parked.test', 'bare.test', 'expired.test', 'wrongname.test', 'selfsigned.test', 'nowhere.test'];

describe('assessment probes (fixture DNS, TLS, web and RDAP on loopback)', function () {
  this.timeout(60_000);
  let ca: KeyAndCert;
  let certificates: Map<string, KeyAndCert>;
  let dns: FixtureDns;
  let https: WebFixture;
  let http: WebFixture;
  let rdap: RdapStub;
  let net: NetClient;
  let rdapBaseUrl: (tld: string) => Promise<string | null>;
  let validate: ValidateFunction;
  const servers: WebFixture[] = [];
  const clients: NetClient[] = [];
  const runs = new Map<string, Observation[]>();

  const client = (options: Partial<NetClientOptions> = {}): NetClient => {
    const created = createNetClient({ allowPrivate: [`${LOOPBACK}/32`], resolve: dns.resolveHost, tls: { ca: ca.cert }, ...options });
    clients.push(created);
    return created;
  };
  const context = (domain: string, overrides: Partial<ProbeContext> = {}): ProbeContext => ({
    domain,
    net,
    dns: dns.resolver,
    allowPrivate: [`${LOOPBACK}/32`],
    resolveHost: dns.resolveHost,
    tlsCa: ca.cert,
    ports: { http: http.port, https: https.port },
    rdapBaseUrl,
    timeoutMs: 5_000,
    now: () => new Date(),
    ...overrides,
  });
  const run = (domain: string): Observation[] => runs.get(domain) ?? expect.fail(`no run for ${domain}`);
  const observation = (domain: string, name: string): Observation => pick(run(domain), name);
  const expectValid = (observations: readonly Observation[]): void => {
    // As the service sends them: with the words made from each (which must read every real value).
    for (const o of observations) expect(validate(inWords(o)), `${o.name}: ${JSON.stringify(validate.errors)}`).to.equal(true);
  };

  before(async () => {
    ca = await createTestCa();
    certificates = await siteCertificates(ca);
    dns = await startFixtureDns(ZONES);
    https = await startHttps(certificates, certificates.get('acme.test') ?? expect.fail('no acme.test certificate'), httpsSites());
    http = await startHttp(httpSites(() => https.port));
    rdap = await startRdapStub(['acme.test']);
    servers.push(https, http, rdap);
    net = client();
    rdapBaseUrl = rdapFromBootstrap(net, rdap.bootstrapUrl);
    const contract = loadContract() as unknown as { components: { schemas: { Observation: object } } };
    validate = createAjv().compile(contract.components.schemas.Observation);
    const results = await Promise.all(DOMAINS.map((domain) => runProbes(context(domain))));
    DOMAINS.forEach((domain, i) => runs.set(domain, results[i] ?? []));
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.close()));
    await dns?.close();
  });

  it('reports every observation name once, in a stable order, each valid against the contract schema', () => {
    expect(OBSERVATION_NAMES).to.deep.equal([
      'addresses', 'nameservers', 'mx_records', 'spf', 'dmarc', 'caa', 'dnssec', 'ipv6', 'mta_sts', 'tls_rpt', 'mail_provider', 'tls_certificate', 'certificate_expiry',
      'https_reachable', 'hsts', 'security_headers', 'http_to_https_redirect', 'page_title', 'contact_page',
      'robots_txt', 'sitemap', 'parked_domain', 'legal_identity', 'site_activity', 'registration', 'registration_expiry',
    ]);
    for (const domain of DOMAINS) {
      const expected = domain === 'nowhere.test' ? OBSERVATION_NAMES.filter((name) => !NEEDS_ADDRESSES.includes(name)) : OBSERVATION_NAMES;
      expect(run(domain).map((o) => o.name), domain).to.deep.equal(expected);
      expectValid(run(domain));
      for (const o of run(domain)) expect(o.evidence, `${domain} ${o.name}`).to.match(/^[A-Z].*\.$/s);
    }
  });

  it('says nothing that reads as a grade or advice, in any label, sentence or value of any run', () => {
    expect(gradeWordsIn(DOMAINS.map((domain) => [domain, run(domain)] as const))).to.deep.equal([]);
  });

  it('observes the DNS records of acme.test: addresses, nameservers, MX, SPF, DMARC, CAA', () => {
    const get = (name: string): Observation => observation('acme.test', name);
    for (const name of ['addresses', 'nameservers', 'mx_records', 'spf', 'dmarc', 'caa']) expectOutcome(get(name), 'observed');
    expect(get('addresses').value).to.deep.equal([{ address: LOOPBACK, family: 'IPv4', private: true, reason: 'loopback 127.0.0.0/8', allowListed: true }]);
    expect(get('nameservers').value).to.deep.equal(['ns1.acme-dns.test', 'ns2.acme-dns.test']);
    expect(get('mx_records').value).to.deep.equal({
      nullMx: false,
      acceptsMail: true,
      records: [{ priority: 10, exchange: 'mail.acme.test' }, { priority: 20, exchange: 'backup-mx.acme.test' }],
    });
    expect(get('spf').value).to.deep.equal({ record: 'v=spf1 include:_spf.acme.test -all', allQualifier: '-all', policy: 'not_authorized', redirect: null });
    expect(valueOf(get('dmarc'))).to.include({ policy: 'quarantine', pct: 100, adkim: null, aspf: null });
    expect(valueOf(get('dmarc')).rua).to.deep.equal(['mailto:dmarc@acme.test']);
    expect(get('caa').value).to.deep.equal([
      { critical: 0, tag: 'issue', value: 'letsencrypt.org' },
      { critical: 0, tag: 'iodef', value: 'mailto:security@acme.test' },
    ]);
    expect(get('addresses').source).to.equal('dns');
  });

  it('reads the certificate of acme.test: issued by the test CA, matching, valid for 90 more days', () => {
    const tls = observation('acme.test', 'tls_certificate');
    expectOutcome(tls, 'observed');
    expect(tls.source).to.equal('tls');
    const facts = valueOf(tls);
    expect(facts).to.include({
      authorized: true,
      authorizationError: null,
      subjectCommonName: 'acme.test',
      issuerCommonName: 'Sextant Test CA',
      issuerOrganization: 'Sextant Fixtures',
      selfSigned: false,
      hostnameMatches: true,
      daysToExpiry: 90,
      remoteAddress: LOOPBACK,
    });
    expect(facts.subjectAltNames).to.deep.equal(['acme.test', 'www.acme.test']);
    expect(facts.protocol).to.match(/^TLSv1\.[23]$/);
    expect(Date.parse(String(facts.validTo)) - Date.now()).to.be.closeTo(90.5 * DAY_MS, 60_000);
    expect(facts.validFrom).to.match(/^\d{4}-\d\d-\d\dT/);
  });

  it('observes the website of acme.test: HTTPS, redirect, HSTS, headers, title, contact link, robots and sitemap', () => {
    const get = (name: string): Observation => observation('acme.test', name);
    for (const name of WEBSITE_NAMES) expectOutcome(get(name), 'observed');
    expect(valueOf(get('https_reachable'))).to.include({ status: 200, url: `https://acme.test:${https.port}/`, remoteAddress: LOOPBACK });
    expect(get('http_to_https_redirect').value).to.deep.equal({ status: 301, redirects: true, location: `https://acme.test:${https.port}/`, toHttps: true, sameHost: true });
    expect(valueOf(get('hsts'))).to.include({ maxAge: 31_536_000, includeSubDomains: true, preload: false });
    expect(valueOf(get('security_headers'))).to.deep.include({
      present: ['content-security-policy', 'x-frame-options', 'x-content-type-options'],
      missing: ['referrer-policy', 'permissions-policy'],
    });
    expect(valueOf(get('page_title')).title).to.equal('ACME Widgets & Sons – Home');
    expect(get('contact_page').value).to.deep.equal({ url: `https://acme.test:${https.port}/kontakt`, text: 'Get in touch', via: 'home_page_link' });
    expect(valueOf(get('robots_txt')).sitemaps).to.deep.equal(['https://acme.test/sitemap.xml']);
    expect(get('sitemap').value).to.deep.equal({ urls: ['https://acme.test/sitemap.xml'], foundIn: 'robots.txt' });
    expectOutcome(get('parked_domain'), 'not_found');
    expect(https.requests).to.not.include(`GET acme.test:${https.port} /contact`);
  });

  it('reads registration dates and the registrar of acme.test from RDAP', () => {
    const registration = observation('acme.test', 'registration');
    expectOutcome(registration, 'observed');
    expect(registration.source).to.equal('rdap');
    const value = valueOf(registration);
    expect(value).to.include({
      url: `${rdap.baseUrl}domain/acme.test`,
      registered: '2015-03-10T14:22:05.000Z',
      expires: '2027-03-10T14:22:05.000Z',
      lastChanged: '2024-02-01T09:00:00.000Z',
      registrar: 'Example Registrar, Inc.',
      registrarIanaId: '1234',
    });
    expect(value.ageDays).to.equal(Math.floor((Date.now() - Date.parse('2015-03-10T14:22:05Z')) / DAY_MS));
    expect(value.status).to.deep.equal(['client transfer prohibited']);
  });

  it('fetches the RDAP bootstrap once, caches it and prefers https base URLs', async () => {
    expect(rdap.bootstrapFetches()).to.equal(1);
    expect(await rdapBaseUrl('TEST')).to.equal(rdap.baseUrl);
    expect(await rdapBaseUrl('other')).to.equal('https://rdap.other.invalid/v1/');
    expect(await rdapBaseUrl('unlisted')).to.equal(null);
    expect(rdap.bootstrapFetches()).to.equal(1);
    const registration = observation('parked.test', 'registration');
    expectOutcome(registration, 'not_found');
    expect(registration.evidence).to.match(/404/);
  });

  const certificateCases = [
    { domain: 'expired.test', error: 'CERT_HAS_EXPIRED', facts: { selfSigned: false, hostnameMatches: true, daysToExpiry: -11 } },
    { domain: 'wrongname.test', error: 'ERR_TLS_CERT_ALTNAME_INVALID', facts: { selfSigned: false, hostnameMatches: false, subjectCommonName: 'other-name.test' } },
    { domain: 'selfsigned.test', error: 'DEPTH_ZERO_SELF_SIGNED_CERT', facts: { selfSigned: true, hostnameMatches: true, issuerCommonName: 'selfsigned.test' } },
  ];
  for (const { domain, error, facts } of certificateCases) {
    it(`observes the invalid certificate of ${domain} (${error}) and does not trust it for HTTPS`, () => {
      const tls = observation(domain, 'tls_certificate');
      expectOutcome(tls, 'observed');
      expect(valueOf(tls)).to.include({ authorized: false, authorizationError: error, ...facts });
      const reachable = observation(domain, 'https_reachable');
      expectOutcome(reachable, 'error');
      expect(reachable.evidence).to.include(`https://${domain}:${https.port}/`);
    });
  }

  it('observes a redirect from http:// to another host as such', () => {
    expect(observation('wrongname.test', 'http_to_https_redirect').value).to.deep.equal({
      status: 301, redirects: true, location: `https://www.wrongname.test:${https.port}/`, toHttps: true, sameHost: false,
    });
  });

  it('observes a null MX, parking signs and missing site files on parked.test', () => {
    const get = (name: string): Observation => observation('parked.test', name);
    expectOutcome(get('mx_records'), 'observed');
    expect(get('mx_records').value).to.deep.equal({ nullMx: true, acceptsMail: false, records: [{ priority: 0, exchange: '.' }] });
    expect(get('mx_records').evidence).to.include('accepts no mail');
    expectOutcome(get('parked_domain'), 'observed');
    expect(valueOf(get('parked_domain')).signs).to.deep.equal([
      { kind: 'page_text', match: 'domain is for sale' },
      { kind: 'page_text', match: 'make an offer on this domain' },
      { kind: 'parking_service', match: 'sedo' },
      { kind: 'nameserver', match: 'ns1.sedoparking.com' },
      { kind: 'nameserver', match: 'ns2.sedoparking.com' },
    ]);
    expect(get('http_to_https_redirect').value).to.include({ status: 302, toHttps: true, sameHost: true });
    for (const name of ['robots_txt', 'sitemap', 'dmarc', 'caa']) expectOutcome(get(name), 'not_found');
    expect(valueOf(get('page_title')).title).to.equal('parked.test');
  });

  it('observes double SPF as an error, absent records as not_found and the fallbacks on bare.test', () => {
    const get = (name: string): Observation => observation('bare.test', name);
    expectOutcome(get('spf'), 'error');
    expect(get('spf').evidence).to.include('multiple SPF records');
    expect(valueOf(get('spf')).records).to.have.length(2);
    for (const name of ['mx_records', 'dmarc', 'caa', 'hsts', 'page_title', 'robots_txt', 'parked_domain']) expectOutcome(get(name), 'not_found');
    expect(get('http_to_https_redirect').value).to.deep.equal({ status: 200, redirects: false, location: null, toHttps: false, sameHost: null });
    expect(valueOf(get('security_headers')).present).to.deep.equal([]);
    expect(get('contact_page').value).to.deep.equal({ url: `https://bare.test:${https.port}/contact`, text: null, via: 'contact_path' });
    expect(get('sitemap').value).to.deep.equal({ urls: [`https://bare.test:${https.port}/sitemap.xml`], foundIn: '/sitemap.xml' });
    expectOutcome(get('registration'), 'not_found');
  });

  it('reports a domain that does not exist as not_found from its NXDOMAIN, and says once that TLS and HTTP were not attempted', () => {
    const observations = run('nowhere.test');
    for (const name of ['addresses', 'nameservers', 'mx_records', 'spf', 'dmarc', 'caa']) {
      const o = observation('nowhere.test', name);
      expectOutcome(o, 'not_found');
      // Said of the configured resolver, never by its address (the service's own infrastructure).
      expect(o.evidence, name).to.include('the configured DNS resolver answered that the name does not exist (NXDOMAIN)').and.not.include(`127.0.0.1:${dns.port}`);
    }
    expect(observations.map((o) => o.name)).to.not.include.members(NEEDS_ADDRESSES);
    const said = observations.filter((o) => /not attempted/.test(o.evidence));
    expect(said.map((o) => o.name)).to.deep.equal(['addresses']);
    expect(said[0]?.evidence).to.include(`The name has no address, so TLS and HTTP were not attempted (${NEEDS_ADDRESSES.join(', ')}).`);
    const registration = observation('nowhere.test', 'registration');
    expectOutcome(registration, 'not_found');
    expect(registration.evidence).to.include(`the RDAP server 127.0.0.1:${rdap.port} answered 404`);
    expect(statusOf(observations)).to.equal('complete');
    expect(https.requests.concat(http.requests).filter((r) => r.includes('nowhere.test'))).to.deep.equal([]);
  });

  it('does not trust a certificate from an unknown CA when no test CA is given', async () => {
    const untrusting = client({ tls: undefined });
    try {
      await untrusting.request({ method: 'GET', url: `https://acme.test:${https.port}/` });
      expect.fail('expected the request to fail');
    } catch (err) {
      expect(err).to.be.instanceOf(NetError);
      expect((err as NetError).code).to.equal('connect_failed');
    }
  });

  it('observes a domain resolving to loopback as private and never connects when the allow list is empty', async () => {
    const countingHttps = await startHttps(certificates, certificates.get('loopback.test') ?? expect.fail('no certificate'), httpsSites());
    const countingHttp = await startHttp(httpSites(() => countingHttps.port));
    servers.push(countingHttps, countingHttp);
    const guarded = client({ allowPrivate: [] });
    const observations = await runProbes(context('loopback.test', { net: guarded, allowPrivate: [], ports: { http: countingHttp.port, https: countingHttps.port } }));
    expectValid(observations);
    const addresses = pick(observations, 'addresses');
    expectOutcome(addresses, 'observed');
    expect(addresses.value).to.deep.equal([
      { address: LOOPBACK, family: 'IPv4', private: true, reason: 'loopback 127.0.0.0/8', allowListed: false },
      { address: '::1', family: 'IPv6', private: true, reason: 'loopback ::1/128', allowListed: false },
    ]);
    expect(addresses.evidence).to.include('never connected to');
    for (const name of ['tls_certificate', ...WEBSITE_NAMES, 'parked_domain', 'registration']) {
      const o = pick(observations, name);
      expectOutcome(o, 'error');
      expect(valueOf(o).connected, name).to.equal(false);
      expect(o.evidence, name).to.include('nothing was connected');
    }
    expect(countingHttps.connections()).to.equal(0);
    expect(countingHttp.connections()).to.equal(0);
  });

  it('refuses a TLS inspection of a private destination with blocked_destination and zero connections', async () => {
    const counting = await startHanging();
    servers.push(counting);
    for (const host of [LOOPBACK, 'loopback.test']) {
      try {
        await inspectTls({ host, port: counting.port, allowPrivate: [], resolve: dns.resolveHost, timeoutMs: 2_000 });
        expect.fail('expected inspectTls to refuse');
      } catch (err) {
        expect(err).to.be.instanceOf(NetError);
        expect((err as NetError).code, host).to.equal('blocked_destination');
      }
    }
    expect(counting.connections()).to.equal(0);
  });

  it('reports timeout for probes of a server that never answers, within the per-probe limit', async () => {
    const hanging = await startHanging();
    servers.push(hanging);
    const timeoutMs = 600;
    const started = Date.now();
    const observations = await runProbes(context('hang.test', { timeoutMs, ports: { http: hanging.port, https: hanging.port } }));
    const elapsed = Date.now() - started;
    expectValid(observations);
    expect(elapsed).to.be.below(timeoutMs + 1_000);
    for (const name of ['mx_records', 'tls_certificate', ...WEBSITE_NAMES, 'parked_domain']) expectOutcome(pick(observations, name), 'timeout');
    expectOutcome(pick(observations, 'addresses'), 'observed');
    expect(hanging.connections()).to.be.greaterThan(0);
  });
});
