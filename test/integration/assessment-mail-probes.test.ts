/**
 * The mail policy observations (dnssec, ipv6, mta_sts, tls_rpt, mail_provider) and the policies
 * SPF and DMARC state: what each says when the domain has it, when its authority says it has not,
 * when the resolver or the policy host cannot be reached, and when they stay silent.
 */
import { createSocket } from 'node:dgram';
import { createServer, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { ValidateFunction } from 'ajv';
import { inWords } from '../../src/assessments/observation-words.js';
import { runProbes, type Observation, type ProbeContext } from '../../src/assessments/probes/index.js';
import { createAjv, loadContract } from '../../src/contract.js';
import { createNetClient, type NetClient } from '../../src/net/index.js';
import { createTestCa, type KeyAndCert } from '../support/probe-fixtures/certificates.js';
import { startFixtureDns, type FixtureDns } from '../support/probe-fixtures/dns-server.js';
import { LOOPBACK, MAIL_ZONES, policyHostCertificate, policyHosts } from '../support/probe-fixtures/mail-zones.js';
import { expectOutcome, pick } from '../support/probe-fixtures/observations.js';
import { startHanging, startHttps, type WebFixture } from '../support/probe-fixtures/web-servers.js';
import { gradeWordsIn } from '../support/grade-words.js';

// The fixture DNS and the policy hosts listen on 127.0.0.1; every name that is connected to
// resolves there. Provider MX hosts are only compared by name: nothing is sent anywhere else.

const MAIL_NAMES = ['dnssec', 'ipv6', 'mta_sts', 'tls_rpt', 'mail_provider'];
const DOMAINS = ['mailco.test', 'plain.test', 'selfhosted.test', 'nullmx.test', 'sts404.test', 'stsdown.test', 'twosts.test', 'refused.test', 'slowmail.test', 'partial6.test', 'nowhere.test'];
const RESOLVER_REFUSED = 'the configured DNS resolver refused the query (EREFUSED).';
const RESOLVER_SILENT = 'the configured DNS resolver gave no answer in time (ETIMEOUT).';
const RESOLVER_CLOSED = 'could not reach the configured DNS resolver: connection refused (ECONNREFUSED).';
/** Words that would read as a judgement, a grade or advice. */
const JUDGEMENT = /\b(good|bad|poor|weak|strong|risk\w*|safe|unsafe|score|grade|rating|recommend\w*|should|must|fail\w*|pass\w*|healthy|warning|excellent)\b/i;

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(kind: 'tcp' | 'udp'): Promise<number> {
  if (kind === 'udp') {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, LOOPBACK, resolve));
    const { port } = socket.address();
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    return port;
  }
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('mail policy observations (fixture DNS and MTA-STS hosts on loopback)', function () {
  this.timeout(60_000);
  let ca: KeyAndCert;
  let dns: FixtureDns;
  let https: WebFixture;
  let hanging: WebFixture;
  let closedTcp: number;
  let validate: ValidateFunction;
  const clients: NetClient[] = [];
  const closers: Array<() => Promise<void>> = [];
  const runs = new Map<string, Observation[]>();

  const context = (domain: string, through: FixtureDns, overrides: Partial<ProbeContext> = {}): ProbeContext => {
    // A request's own limit does not cut a TLS handshake short; the connect limit does (src/net).
    const net = createNetClient({ allowPrivate: [`${LOOPBACK}/32`], resolve: through.resolveHost, tls: { ca: ca.cert }, timeoutMs: 5_000, connectTimeoutMs: 1_000 });
    clients.push(net);
    return {
      domain,
      net,
      dns: through.resolver,
      allowPrivate: [`${LOOPBACK}/32`],
      resolveHost: through.resolveHost,
      tlsCa: ca.cert,
      ports: { http: closedTcp, https: https.port },
      rdapBaseUrl: () => Promise.resolve(null),
      timeoutMs: 5_000,
      now: () => new Date(),
      ...overrides,
    };
  };
  const observed = (domain: string, name: string): Observation => pick(runs.get(domain) ?? expect.fail(`no run for ${domain}`), name);
  const policyUrl = (domain: string, port = https.port): string => `https://mta-sts.${domain}:${port}/.well-known/mta-sts.txt`;
  const expectValid = (observations: readonly Observation[]): void => {
    for (const o of observations) {
      const worded = inWords(o);
      expect(validate(worded), `${o.name}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      // The sentences made from what was observed; the shared one for a failure names no grade either, but says "failed".
      if (o.outcome === 'observed' || o.outcome === 'not_found') expect(worded.summary, `${o.name}: ${worded.summary}`).to.not.match(JUDGEMENT);
      expect(o.evidence, `${o.name}`).to.match(/^[A-Z].*\.$/s);
    }
  };
  /** The outcome, the value and the whole evidence (what was asked of whom, and what came back). */
  const expectSaid = (o: Observation, outcome: Observation['outcome'], value: unknown, evidence: string): void => {
    expectOutcome(o, outcome);
    expect(o.value, `${o.name}: ${o.evidence}`).to.deep.equal(value);
    expect(o.evidence).to.equal(evidence);
    expect(o.source).to.equal('dns');
  };

  before(async () => {
    ca = await createTestCa();
    const certificate = await policyHostCertificate(ca);
    dns = await startFixtureDns(MAIL_ZONES);
    https = await startHttps(new Map(), certificate, policyHosts());
    hanging = await startHanging();
    closedTcp = await closedPort('tcp');
    const contract = loadContract() as unknown as { components: { schemas: { Observation: object } } };
    validate = createAjv().compile(contract.components.schemas.Observation);
    const results = await Promise.all(DOMAINS.map((domain) => runProbes(context(domain, dns))));
    DOMAINS.forEach((domain, i) => runs.set(domain, results[i] ?? []));
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([https, hanging].map((s) => s?.close()));
    for (const close of closers) await close();
    await dns?.close();
  });

  it('says nothing that reads as a grade or advice, in any label, sentence or value of any run', () => {
    expect(gradeWordsIn(runs)).to.deep.equal([]);
  });

  it('reports the mail observations after CAA, valid against the contract, with no word of judgement', () => {
    for (const domain of DOMAINS) {
      const names = (runs.get(domain) ?? []).map((o) => o.name);
      const caa = names.indexOf('caa');
      expect(names.slice(caa + 1, caa + 1 + MAIL_NAMES.length), domain).to.deep.equal(MAIL_NAMES);
      expectValid(runs.get(domain) ?? []);
    }
  });

  describe('dnssec', () => {
    const asked = (domain: string): string => `Asked the DNS resolver for the DS records of ${domain} (DNSSEC)`;
    it('observes the DS records of a signed zone, and whether the resolver validated them', () => {
      expectSaid(observed('mailco.test', 'dnssec'), 'observed', {
        signed: true,
        ds: [{ keyTag: 2371, algorithm: 13, algorithmName: 'ECDSAP256SHA256', digestType: 2, digestTypeName: 'SHA-256' }],
        validatedByResolver: true,
      }, `${asked('mailco.test')}; key tag 2371, algorithm 13 (ECDSAP256SHA256), digest type 2 (SHA-256); the resolver marked the answer as validated (AD).`);
      expectSaid(observed('sts404.test', 'dnssec'), 'observed', {
        signed: true,
        ds: [{ keyTag: 60485, algorithm: 8, algorithmName: 'RSASHA256', digestType: 1, digestTypeName: 'SHA-1' }],
        validatedByResolver: false,
      }, `${asked('sts404.test')}; key tag 60485, algorithm 8 (RSASHA256), digest type 1 (SHA-1); the resolver did not mark the answer as validated (no AD flag).`);
      expect(dns.queries).to.include('DS mailco.test');
    });
    it('reports a zone without DS records (NODATA) and a name that does not exist (NXDOMAIN) as not_found', () => {
      expectSaid(observed('plain.test', 'dnssec'), 'not_found', null, `${asked('plain.test')}; the name exists and has no such records (NODATA).`);
      expectSaid(observed('nowhere.test', 'dnssec'), 'not_found', null, `${asked('nowhere.test')}; the configured DNS resolver answered that the name does not exist (NXDOMAIN).`);
    });
    it('reports a refusing resolver as an error and a silent one as a timeout, naming it', () => {
      expectSaid(observed('refused.test', 'dnssec'), 'error', null, `${asked('refused.test')}; ${RESOLVER_REFUSED}`);
      expectSaid(observed('slowmail.test', 'dnssec'), 'timeout', null, `${asked('slowmail.test')}; ${RESOLVER_SILENT}`);
    });
  });

  describe('ipv6', () => {
    const asked = (domain: string): string => `Asked the DNS resolver for the AAAA records of ${domain}, of its name servers and of its mail servers`;
    it('observes the IPv6 addresses of the domain, its name servers and its mail servers', () => {
      expectSaid(observed('mailco.test', 'ipv6'), 'observed', {
        domain: ['::1'],
        nameservers: [{ host: 'ns1.mailco.test', addresses: ['::1'] }, { host: 'ns2.dns-host.test', addresses: [] }],
        mailServers: [
          { host: 'eu-smtp-inbound-1.mimecast.com', addresses: [] },
          { host: 'mailco-test.mail.protection.outlook.com', addresses: [] },
          { host: 'mx.mailco.test', addresses: ['::1'] },
        ],
      }, `${asked('mailco.test')}; mailco.test: ::1; name servers: ns1.mailco.test ::1; ns2.dns-host.test none; mail servers: eu-smtp-inbound-1.mimecast.com none; mailco-test.mail.protection.outlook.com none; mx.mailco.test ::1.`);
    });
    it('keeps what could not be looked up as null, not as none', () => {
      expectSaid(observed('partial6.test', 'ipv6'), 'observed', {
        domain: ['::1'],
        nameservers: [{ host: 'ns1.partial6.test', addresses: null }],
        mailServers: null,
      }, `${asked('partial6.test')}; partial6.test: ::1; name servers: ns1.partial6.test could not be looked up through the configured DNS resolver; mail servers: could not be looked up through the configured DNS resolver (ETIMEOUT).`);
    });
    it('reports not_found when every authority answered and none named an IPv6 address, or the name does not exist', () => {
      expectSaid(observed('plain.test', 'ipv6'), 'not_found', { domain: [], nameservers: [{ host: 'ns1.plain.test', addresses: [] }], mailServers: [] },
        `${asked('plain.test')}; plain.test: none; name servers: ns1.plain.test none; mail servers: there are none.`);
      expectSaid(observed('nowhere.test', 'ipv6'), 'not_found', null, `${asked('nowhere.test')}; the configured DNS resolver answered that the name does not exist (NXDOMAIN).`);
    });
    it('reports a refusing resolver as an error and a silent one as a timeout, naming it', () => {
      expectSaid(observed('refused.test', 'ipv6'), 'error', null, `${asked('refused.test')}; ${RESOLVER_REFUSED}`);
      expectSaid(observed('slowmail.test', 'ipv6'), 'timeout', null, `${asked('slowmail.test')}; ${RESOLVER_SILENT}`);
    });
  });

  describe('mta_sts', () => {
    const dnsAsked = (domain: string): string => `Asked the DNS resolver for the TXT records of _mta-sts.${domain}`;
    const unread = { version: null, mode: null, mx: null, maxAge: null };
    it('observes the record and the policy it announces, fetched without following redirects', () => {
      const record = 'v=STSv1; id=20240501T120000;';
      expectSaid(observed('mailco.test', 'mta_sts'), 'observed', {
        record, id: '20240501T120000', policyUrl: policyUrl('mailco.test'), policyStatus: 200,
        version: 'STSv1', mode: 'enforce', mx: ['mailco-test.mail.protection.outlook.com', '*.mimecast.com'], maxAge: 604_800,
      }, `${dnsAsked('mailco.test')}; "${record}"; then asked for ${policyUrl('mailco.test')} (GET, certificate verified, redirects not followed); it answered 200: version STSv1, mode enforce, mx mailco-test.mail.protection.outlook.com, *.mimecast.com, max_age 604800.`);
      expect(https.requests).to.include(`GET mta-sts.mailco.test:${https.port} /.well-known/mta-sts.txt`);
    });
    it('observes a policy host that answers 404 as a record without a policy', () => {
      const record = 'v=STSv1; id=404;';
      expectSaid(observed('sts404.test', 'mta_sts'), 'observed', { record, id: '404', policyUrl: policyUrl('sts404.test'), policyStatus: 404, ...unread },
        `${dnsAsked('sts404.test')}; "${record}"; then asked for ${policyUrl('sts404.test')} (GET, certificate verified, redirects not followed); it answered 404, so there is no policy to read.`);
    });
    it('reports no record as not_found, without asking for a policy', () => {
      expectSaid(observed('plain.test', 'mta_sts'), 'not_found', null, `${dnsAsked('plain.test')}; the configured DNS resolver answered that the name does not exist (NXDOMAIN).`);
      expect(https.requests.filter((r) => r.includes('plain.test'))).to.deep.equal([]);
    });
    it('reports two records as an error, as RFC 8461 reads them', () => {
      expectSaid(observed('twosts.test', 'mta_sts'), 'error', { records: ['v=STSv1; id=one;', 'v=STSv1; id=two;'] },
        `${dnsAsked('twosts.test')}; multiple MTA-STS records (2), which RFC 8461 treats as none.`);
    });
    it('reports a policy host that does not resolve as an error naming it, keeping the record', () => {
      const o = observed('stsdown.test', 'mta_sts');
      expectSaid(o, 'error', { record: 'v=STSv1; id=down;', id: 'down', policyUrl: policyUrl('stsdown.test'), policyStatus: null, ...unread },
        `${dnsAsked('stsdown.test')}; "v=STSv1; id=down;"; then asked for ${policyUrl('stsdown.test')} (GET, certificate verified, redirects not followed); could not reach mta-sts.stsdown.test: name does not resolve (ENOTFOUND).`);
    });
    it('reports a refused policy host as an error and a silent one as a timeout, naming it', async () => {
      const [refused, silent] = await Promise.all([
        runProbes(context('stshost.test', dns, { ports: { http: closedTcp, https: closedTcp } })),
        runProbes(context('stshost.test', dns, { ports: { http: closedTcp, https: hanging.port }, timeoutMs: 2_000 })),
      ]);
      const base = { record: 'v=STSv1; id=host;', id: 'host', policyStatus: null, ...unread };
      const asked = (port: number): string => `${dnsAsked('stshost.test')}; "v=STSv1; id=host;"; then asked for ${policyUrl('stshost.test', port)} (GET, certificate verified, redirects not followed)`;
      expectSaid(pick(refused, 'mta_sts'), 'error', { ...base, policyUrl: policyUrl('stshost.test', closedTcp) },
        `${asked(closedTcp)}; could not connect to mta-sts.stshost.test: connection refused (ECONNREFUSED).`);
      const timedOut = pick(silent, 'mta_sts');
      expectOutcome(timedOut, 'timeout');
      expect(timedOut.value).to.deep.equal({ ...base, policyUrl: policyUrl('stshost.test', hanging.port) });
      expect(timedOut.evidence).to.match(new RegExp(`^${asked(hanging.port).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; mta-sts\\.stshost\\.test gave no answer in time \\(.+\\)\\.$`));
      expect(hanging.connections()).to.equal(1);
      expectValid([...refused, ...silent]);
    });
    it('reports a refusing resolver as an error and a silent one as a timeout, naming it', () => {
      expectSaid(observed('refused.test', 'mta_sts'), 'error', null, `${dnsAsked('refused.test')}; ${RESOLVER_REFUSED}`);
      expectSaid(observed('slowmail.test', 'mta_sts'), 'timeout', null, `${dnsAsked('slowmail.test')}; ${RESOLVER_SILENT}`);
    });
  });

  describe('tls_rpt', () => {
    const asked = (domain: string): string => `Asked the DNS resolver for the TXT records of _smtp._tls.${domain}`;
    it('observes the record and the addresses reports go to', () => {
      const record = 'v=TLSRPTv1; rua=mailto:tls@mailco.test,https://reports.mailco.test/tlsrpt';
      expectSaid(observed('mailco.test', 'tls_rpt'), 'observed', { record, rua: ['mailto:tls@mailco.test', 'https://reports.mailco.test/tlsrpt'] }, `${asked('mailco.test')}; "${record}".`);
    });
    it('reports no record as not_found and two as an error', () => {
      expectSaid(observed('plain.test', 'tls_rpt'), 'not_found', null, `${asked('plain.test')}; the configured DNS resolver answered that the name does not exist (NXDOMAIN).`);
      expectSaid(observed('twosts.test', 'tls_rpt'), 'error', { records: ['v=TLSRPTv1; rua=mailto:a@twosts.test', 'v=TLSRPTv1; rua=mailto:b@twosts.test'] },
        `${asked('twosts.test')}; multiple TLS-RPT records (2), which RFC 8460 treats as none.`);
    });
    it('reports a refusing resolver as an error and a silent one as a timeout, naming it', () => {
      expectSaid(observed('refused.test', 'tls_rpt'), 'error', null, `${asked('refused.test')}; ${RESOLVER_REFUSED}`);
      expectSaid(observed('slowmail.test', 'tls_rpt'), 'timeout', null, `${asked('slowmail.test')}; ${RESOLVER_SILENT}`);
    });
  });

  describe('mail_provider', () => {
    const asked = (domain: string): string => `Asked the DNS resolver for the MX records of ${domain} and compared their hosts with a list of known mail providers`;
    it('recognises providers from the MX hosts, in priority order, and lists the hosts it does not recognise', () => {
      expectSaid(observed('mailco.test', 'mail_provider'), 'observed', {
        nullMx: false,
        providers: [
          { name: 'Microsoft 365', matchedHost: 'mailco-test.mail.protection.outlook.com' },
          { name: 'Mimecast', matchedHost: 'eu-smtp-inbound-1.mimecast.com' },
        ],
        unrecognised: ['mx.mailco.test'],
      }, `${asked('mailco.test')}; mailco-test.mail.protection.outlook.com is Microsoft 365; eu-smtp-inbound-1.mimecast.com is Mimecast; not recognised: mx.mailco.test.`);
      expectSaid(observed('selfhosted.test', 'mail_provider'), 'observed', { nullMx: false, providers: [], unrecognised: ['smtp.selfhosted.test'] },
        `${asked('selfhosted.test')}; not recognised: smtp.selfhosted.test.`);
    });
    it('observes a null MX as no provider, and asks for the MX records once per run', () => {
      expectSaid(observed('nullmx.test', 'mail_provider'), 'observed', { nullMx: true, providers: [], unrecognised: [] },
        `${asked('nullmx.test')}; a null MX (0 .): the domain accepts no mail, so no provider handles it.`);
      for (const domain of ['mailco.test', 'nullmx.test']) expect(dns.queries.filter((q) => q === `MX ${domain}`), domain).to.have.length(1);
    });
    it('reports no MX records as not_found, as mx_records does', () => {
      expectSaid(observed('plain.test', 'mail_provider'), 'not_found', null, `${asked('plain.test')}; the name exists and has no such records (NODATA).`);
      expectOutcome(observed('plain.test', 'mx_records'), 'not_found');
      expectSaid(observed('nowhere.test', 'mail_provider'), 'not_found', null, `${asked('nowhere.test')}; the configured DNS resolver answered that the name does not exist (NXDOMAIN).`);
    });
    it('reports a refusing resolver as an error and a silent one as a timeout, naming it', () => {
      expectSaid(observed('refused.test', 'mail_provider'), 'error', null, `${asked('refused.test')}; ${RESOLVER_REFUSED}`);
      expectSaid(observed('slowmail.test', 'mail_provider'), 'timeout', null, `${asked('slowmail.test')}; ${RESOLVER_SILENT}`);
      expectSaid(observed('partial6.test', 'mail_provider'), 'timeout', null, `${asked('partial6.test')}; ${RESOLVER_SILENT}`);
    });
  });

  it('reports every mail observation as an error naming the resolver when it cannot be reached', async () => {
    const unreachable = await startFixtureDns({});
    closers.push(() => unreachable.close());
    unreachable.resolver.setServers([`${LOOPBACK}:${await closedPort('udp')}`]);
    const observations = await runProbes(context('mailco.test', unreachable));
    expectValid(observations);
    for (const name of MAIL_NAMES) {
      const o = pick(observations, name);
      expectOutcome(o, 'error');
      expect(o.value, name).to.equal(null);
      expect(o.evidence, name).to.match(/^Asked the DNS resolver for the (DS|AAAA|TXT|MX) records of /).and.to.include(`; ${RESOLVER_CLOSED}`);
    }
  });

  describe('spf and dmarc policies', () => {
    it('states the SPF result for other senders and a redirect', () => {
      expect(observed('mailco.test', 'spf').value).to.deep.equal({ record: 'v=spf1 redirect=_spf.mailco.test', allQualifier: null, policy: null, redirect: '_spf.mailco.test' });
      expect(observed('plain.test', 'spf').value).to.deep.equal({ record: 'v=spf1 ?all', allQualifier: '?all', policy: 'no_statement', redirect: null });
    });
    it('states the DMARC policies, the share as a number, the report addresses and the alignment modes', () => {
      expect(observed('mailco.test', 'dmarc').value).to.deep.equal({
        record: 'v=DMARC1; p=reject; sp=quarantine; pct=50; adkim=s; aspf=r; rua=mailto:a@mailco.test, mailto:b@dmarc.test',
        policy: 'reject', subdomainPolicy: 'quarantine', pct: 50, rua: ['mailto:a@mailco.test', 'mailto:b@dmarc.test'], adkim: 's', aspf: 'r',
      });
    });
  });

  describe('words', () => {
    const sentence = (domain: string, name: string): string => inWords(observed(domain, name)).summary;
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ['mailco.test', 'dnssec', 'The domain\'s DNS answers are signed (DNSSEC): its parent zone publishes 1 key record (DS) for it, using ECDSAP256SHA256, and the resolver that was asked confirmed the signatures.'],
      ['sts404.test', 'dnssec', 'The domain\'s DNS answers are signed (DNSSEC): its parent zone publishes 1 key record (DS) for it, using RSASHA256.'],
      ['plain.test', 'dnssec', 'The domain\'s DNS answers are not signed: its parent zone publishes no DNSSEC key record (DS) for it.'],
      ['mailco.test', 'ipv6', 'The domain has 1 IPv6 address (::1); 1 name server of 2 has one; 1 mail server of 3 has one.'],
      ['partial6.test', 'ipv6', 'The domain has 1 IPv6 address (::1); 0 name servers of 1 have one (1 could not be looked up); its mail servers could not be looked up.'],
      ['plain.test', 'ipv6', 'Neither the domain nor its name servers or mail servers have an IPv6 address.'],
      ['mailco.test', 'mta_sts', 'The domain publishes an MTA-STS policy that asks sending servers to deliver its e-mail only over verified encrypted connections (mode enforce); it names mailco-test.mail.protection.outlook.com, *.mimecast.com as its mail servers; senders keep it for 7 days.'],
      ['sts404.test', 'mta_sts', `The domain announces an MTA-STS policy, but https://mta-sts.sts404.test:{port}/.well-known/mta-sts.txt answered with status 404, so there is no policy to read.`],
      ['stsdown.test', 'mta_sts', 'No answer could be had, so nothing is known of this: the evidence says which host gave none.'],
      ['twosts.test', 'mta_sts', 'The domain publishes 2 such records; the standard treats more than one as an error, so none of them applies.'],
      ['mailco.test', 'tls_rpt', 'The domain asks sending servers to report problems with encrypted delivery of its e-mail to mailto:tls@mailco.test, https://reports.mailco.test/tlsrpt.'],
      ['mailco.test', 'mail_provider', 'The domain\'s e-mail is handled by Microsoft 365 and Mimecast, recognised from its mail servers; 1 other mail server (mx.mailco.test) is not on that list.'],
      ['selfhosted.test', 'mail_provider', 'None of the domain\'s mail servers (smtp.selfhosted.test) belongs to a provider on the list looked for.'],
      ['nullmx.test', 'mail_provider', 'The domain states that it accepts no e-mail (a null MX record), so no e-mail provider handles it.'],
      ['plain.test', 'mail_provider', 'The domain lists no mail servers, so no e-mail provider could be recognised.'],
      ['mailco.test', 'spf', 'The domain lists who may send its e-mail and leaves the rest to the record of _spf.mailco.test (redirect).'],
      ['plain.test', 'spf', 'The domain lists who may send its e-mail and says nothing of mail from any other sender (?all).'],
      ['mailco.test', 'dmarc', 'The domain asks receivers to reject e-mail sent in its name that cannot be confirmed as its own (p=reject), for 50% of such e-mail.'],
    ];
    for (const [domain, name, said] of cases) {
      it(`says what ${name} of ${domain} holds`, () => {
        expect(sentence(domain, name)).to.equal(said.replace('{port}', String(https.port)));
      });
    }
  });
});
