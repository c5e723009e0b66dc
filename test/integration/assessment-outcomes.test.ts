/**
 * Outcomes are observations, so they must be true (DESIGN.md, issue 26): `not_found` only from
 * the domain's own authority; an unreachable resolver, bootstrap or RDAP server is `error` or
 * `timeout` naming the host; TLS and HTTP not attempted are said once; a record whose every probe
 * failed for reasons outside the domain is `failed`.
 *
 * Every resolver and server here is on 127.0.0.1. Names that are not on loopback
 * (rdap.example-registry.net, data.iana.org, wikipedia.org) are only ever looked up in a fixture
 * DNS on 127.0.0.1, which denies them, as this offline machine's resolver denies every name:
 * nothing is sent anywhere else.
 */
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { expect } from 'chai';
import type { ValidateFunction } from 'ajv';
import { statusOf } from '../../src/assessments/assessment-service.js';
import { rdapFromBootstrap, runProbes, type Observation, type ProbeContext } from '../../src/assessments/probes/index.js';
import { createAjv, loadContract } from '../../src/contract.js';
import { createNetClient, type NetClient } from '../../src/net/index.js';
import { startFixtureDns, type FixtureDns, type Zones } from '../support/probe-fixtures/dns-server.js';
import { expectOutcome, pick } from '../support/probe-fixtures/observations.js';
import { startRdapStub, type RdapStub } from '../support/probe-fixtures/rdap-stub.js';
import { ZONES } from '../support/probe-fixtures/sites.js';
import { startHanging, startHttp, type WebFixture } from '../support/probe-fixtures/web-servers.js';
import { startHarness } from '../support/harness.js';
import { inWords } from '../../src/assessments/observation-words.js';

const DNS_NAMES = ['addresses', 'nameservers', 'mx_records', 'spf', 'dmarc', 'caa', 'dnssec', 'ipv6', 'mta_sts', 'tls_rpt', 'mail_provider'];
const NOT_ATTEMPTED = [
  'tls_certificate', 'certificate_expiry', 'https_reachable', 'hsts', 'security_headers', 'http_to_https_redirect',
  'page_title', 'contact_page', 'robots_txt', 'sitemap', 'parked_domain', 'legal_identity', 'site_activity',
];

/** A port on 127.0.0.1 that nothing listens on (TCP or UDP). */
async function closedPort(kind: 'tcp' | 'udp'): Promise<number> {
  if (kind === 'udp') {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const { port } = socket.address();
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    return port;
  }
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('assessment outcomes say what was observed', function () {
  this.timeout(60_000);
  let offline: FixtureDns;
  let fixtureDns: FixtureDns;
  let rdap: RdapStub;
  let validate: ValidateFunction;
  const servers: WebFixture[] = [];
  const clients: NetClient[] = [];
  const closers: Array<() => Promise<void>> = [];

  /** A net client that resolves names only through `dns` (a fixture on loopback). */
  const netThrough = (dns: FixtureDns): NetClient => {
    const client = createNetClient({ allowPrivate: ['127.0.0.1/32'], resolve: dns.resolveHost, timeoutMs: 5_000 });
    clients.push(client);
    return client;
  };
  const context = (domain: string, dns: FixtureDns, overrides: Partial<ProbeContext> = {}): ProbeContext => ({
    domain,
    net: netThrough(dns),
    dns: dns.resolver,
    allowPrivate: ['127.0.0.1/32'],
    resolveHost: dns.resolveHost,
    ports: { http: 1, https: 1 },
    rdapBaseUrl: () => Promise.resolve(rdap.baseUrl),
    timeoutMs: 3_000,
    now: () => new Date(),
    ...overrides,
  });
  const expectValid = (observations: readonly Observation[]): void => {
    for (const o of observations) expect(validate(inWords(o)), `${o.name}: ${JSON.stringify(validate.errors)}`).to.equal(true);
  };
  /** Exactly one observation says that TLS and HTTP were not attempted, and none of theirs is there. */
  const expectSaidOnce = (observations: readonly Observation[], because: string): void => {
    expect(observations.map((o) => o.name)).to.deep.equal([...DNS_NAMES, 'registration', 'registration_expiry']);
    const saying = observations.filter((o) => /not attempted/.test(o.evidence));
    expect(saying.map((o) => o.name)).to.deep.equal(['addresses']);
    expect(saying[0]?.evidence).to.include(`${because}, so TLS and HTTP were not attempted (${NOT_ATTEMPTED.join(', ')}).`);
  };

  before(async () => {
    offline = await startFixtureDns({});
    fixtureDns = await startFixtureDns(ZONES);
    rdap = await startRdapStub(['acme.test', 'mailonly.test']);
    servers.push(rdap);
    const contract = loadContract() as unknown as { components: { schemas: { Observation: object } } };
    validate = createAjv().compile(contract.components.schemas.Observation);
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.close()));
    for (const close of closers) await close();
    await offline?.close();
    await fixtureDns?.close();
  });

  describe('on a machine whose resolver denies every name', () => {
    it('reports wikipedia.org as failed: registration is an error naming the RDAP server, not a missing registration', async () => {
      const observations = await runProbes(context('wikipedia.org', offline, { rdapBaseUrl: () => Promise.resolve('https://rdap.example-registry.net/') }));
      expectValid(observations);
      const registration = pick(observations, 'registration');
      expectOutcome(registration, 'error');
      expect(registration.evidence).to.equal(
        'Asked for https://rdap.example-registry.net/domain/wikipedia.org (Accept: application/rdap+json); could not reach the RDAP server rdap.example-registry.net: name does not resolve (ENOTFOUND).',
      );
      for (const name of DNS_NAMES) {
        const o = pick(observations, name);
        expectOutcome(o, 'error');
        expect(o.evidence, name).to.include(`the configured DNS resolver answered that the name does not exist (NXDOMAIN), but it answers the same for the top-level domain .org`);
      }
      expectSaidOnce(observations, 'The addresses could not be looked up');
      expect(observations.some((o) => o.outcome === 'not_found' || o.outcome === 'observed')).to.equal(false);
      expect(statusOf(observations)).to.equal('failed');
      expect(offline.queries).to.include('NS org');
    });

    it('names the RDAP bootstrap when it cannot be reached', async () => {
      const rdapBaseUrl = rdapFromBootstrap(netThrough(offline), 'https://data.iana.org/rdap/dns.json');
      const observations = await runProbes(context('wikipedia.org', offline, { rdapBaseUrl }));
      const registration = pick(observations, 'registration');
      expectOutcome(registration, 'error');
      expect(registration.evidence).to.equal(
        'Looked up the RDAP server for .org in the IANA bootstrap (https://data.iana.org/rdap/dns.json); could not reach the RDAP bootstrap data.iana.org: name does not resolve (ENOTFOUND).',
      );
    });

    it('answers a POST for wikipedia.org through the app with status failed and true observations', async () => {
      const h = await startHarness({ demo: false, probe: (domain) => runProbes(context(domain, offline, { rdapBaseUrl: () => Promise.resolve('https://rdap.example-registry.net/') })) });
      try {
        const created = await h.request('/api/v1/assessments', {
          method: 'POST', headers: { 'content-type': 'application/json', prefer: 'wait=15' }, body: JSON.stringify({ domain: 'wikipedia.org' }),
        });
        expect(created.status).to.equal(201);
        expect(created.body).to.include({ domain: 'wikipedia.org', status: 'failed' });
        const observations = created.body.observations as Observation[];
        expect(observations.map((o) => [o.name, o.outcome])).to.deep.equal([...DNS_NAMES, 'registration', 'registration_expiry'].map((name) => [name, 'error']));
        expect(pick(observations, 'registration').evidence).to.include('could not reach the RDAP server rdap.example-registry.net');
        const again = await h.request(`/api/v1/assessments/${String(created.body.id)}`);
        expect(again.body).to.deep.equal(created.body);
      } finally {
        await h.close();
      }
    });
  });

  describe('when the domain\'s authority answers', () => {
    it('reports NODATA for the addresses as not_found, observes the rest of DNS, and says once that TLS and HTTP were not attempted', async () => {
      const observations = await runProbes(context('mailonly.test', fixtureDns));
      expectValid(observations);
      const addresses = pick(observations, 'addresses');
      expectOutcome(addresses, 'not_found');
      expect(addresses.evidence).to.match(/^Asked the DNS resolver for the A and AAAA records of mailonly\.test; the name exists and has none \(NODATA\)\. /);
      expectOutcome(pick(observations, 'nameservers'), 'observed');
      expectOutcome(pick(observations, 'mx_records'), 'observed');
      expectOutcome(pick(observations, 'registration'), 'observed');
      expectSaidOnce(observations, 'The name has no address');
      expect(statusOf(observations)).to.equal('complete');
    });
  });

  describe('when a resolver or RDAP server cannot be reached', () => {
    it('reports a refused resolver and a refused RDAP server as errors naming them, and the record as failed', async () => {
      const [dnsPort, rdapPort] = await Promise.all([closedPort('udp'), closedPort('tcp')]);
      const unreachable = await startFixtureDns({});
      closers.push(() => unreachable.close());
      unreachable.resolver.setServers([`127.0.0.1:${dnsPort}`]);
      const observations = await runProbes(context('acme.test', unreachable, { rdapBaseUrl: () => Promise.resolve(`http://127.0.0.1:${rdapPort}/rdap/`) }));
      expectValid(observations);
      for (const name of DNS_NAMES) {
        const o = pick(observations, name);
        expectOutcome(o, 'error');
        expect(o.evidence, name).to.include('could not reach the configured DNS resolver: connection refused (ECONNREFUSED)');
      }
      // The resolver is the service's own infrastructure: the public evidence never gives its address.
      expect(observations.map((o) => o.evidence).join('\n')).not.to.include(`127.0.0.1:${dnsPort}`);
      const registration = pick(observations, 'registration');
      expectOutcome(registration, 'error');
      expect(registration.evidence).to.include(`could not connect to the RDAP server 127.0.0.1:${rdapPort}: connection refused (ECONNREFUSED)`);
      expectSaidOnce(observations, 'The addresses could not be looked up');
      expect(statusOf(observations)).to.equal('failed');
    });

    it('keeps a record partial when the resolver is refused but the RDAP server answers', async () => {
      const dnsPort = await closedPort('udp');
      const unreachable = await startFixtureDns({});
      closers.push(() => unreachable.close());
      unreachable.resolver.setServers([`127.0.0.1:${dnsPort}`]);
      const observations = await runProbes(context('acme.test', unreachable));
      expectOutcome(pick(observations, 'registration'), 'observed');
      expectOutcome(pick(observations, 'addresses'), 'error');
      expect(statusOf(observations)).to.equal('partial');
    });

    it('reports a silent resolver and a silent RDAP server as timeouts naming them, and the record as failed', async () => {
      const silent = await startFixtureDns({
        test: { ns: ['ns.test'] },
        'slow.test': { silent: ['A', 'AAAA', 'NS', 'MX', 'TXT', 'CAA', 'DS'] },
        '_dmarc.slow.test': { silent: ['TXT'] },
        '_mta-sts.slow.test': { silent: ['TXT'] },
        '_smtp._tls.slow.test': { silent: ['TXT'] },
      });
      closers.push(() => silent.close());
      const hanging = await startHanging();
      servers.push(hanging);
      const observations = await runProbes(context('slow.test', silent, { timeoutMs: 2_500, rdapBaseUrl: () => Promise.resolve(`http://127.0.0.1:${hanging.port}/rdap/`) }));
      expectValid(observations);
      for (const name of DNS_NAMES) {
        const o = pick(observations, name);
        expectOutcome(o, 'timeout');
        expect(o.evidence, name).to.include('the configured DNS resolver gave no answer in time (ETIMEOUT)');
      }
      const registration = pick(observations, 'registration');
      expectOutcome(registration, 'timeout');
      expect(registration.evidence).to.include(`the RDAP server 127.0.0.1:${hanging.port} gave no answer in time`);
      expect(hanging.connections()).to.equal(1);
      expectSaidOnce(observations, 'The addresses could not be looked up');
      expect(statusOf(observations)).to.equal('failed');
    });

    it('reports a silent configured RDAP bootstrap as a timeout, without naming it (the service\'s own)', async () => {
      const hanging = await startHanging();
      servers.push(hanging);
      const rdapBaseUrl = rdapFromBootstrap(netThrough(fixtureDns), `http://127.0.0.1:${hanging.port}/dns.json`, { timeoutMs: 500 });
      const registration = pick(await runProbes(context('mailonly.test', fixtureDns, { rdapBaseUrl })), 'registration');
      expectOutcome(registration, 'timeout');
      expect(registration.evidence).to.equal('Looked up the RDAP server for .test in the IANA bootstrap; the configured RDAP bootstrap gave no answer in time; the registry was not asked.');
    });

    const rdapAnswers: Array<{ what: string; bootstrap: number; listed: boolean; server: number; evidence: string }> = [
      { what: 'a bootstrap that answers 503', bootstrap: 503, listed: true, server: 200, evidence: 'Looked up the RDAP server for .test in the IANA bootstrap; the configured RDAP bootstrap gave no usable bootstrap document: it answered 503; the registry was not asked.' },
      { what: 'a bootstrap that lists no server for the TLD', bootstrap: 200, listed: false, server: 200, evidence: 'Looked up the RDAP server for .test in the IANA bootstrap; none is listed, so no registry was asked.' },
      { what: 'an RDAP server that answers 503', bootstrap: 200, listed: true, server: 503, evidence: 'answered 503 without an RDAP domain object.' },
    ];
    for (const { what, bootstrap, listed, server, evidence } of rdapAnswers) {
      it(`reports ${what} as an error, not as a missing registration`, async () => {
        let base = '';
        const registry = await startHttp((req, res) => {
          if (req.url === '/dns.json') {
            const services = listed ? [[['test'], [`${base}rdap/`]]] : [];
            return void res.writeHead(bootstrap, { 'content-type': 'application/json' }).end(JSON.stringify({ version: '1.0', services }));
          }
          res.writeHead(server, { 'content-type': 'application/rdap+json' }).end(JSON.stringify({ errorCode: server }));
        });
        servers.push(registry);
        base = `http://127.0.0.1:${registry.port}/`;
        const rdapBaseUrl = rdapFromBootstrap(netThrough(fixtureDns), `${base}dns.json`);
        const observations = await runProbes(context('mailonly.test', fixtureDns, { rdapBaseUrl }));
        const registration = pick(observations, 'registration');
        expectOutcome(registration, 'error');
        expect(registration.evidence).to.include(evidence);
        expect(statusOf(observations)).to.equal('partial');
      });
    }
  });
});
