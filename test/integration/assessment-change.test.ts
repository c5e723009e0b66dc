/**
 * A change between two looks at one domain, with the real probes: assess it, take its mail server
 * away and let its certificate expire, assess it again, and read the changes. Every server here
 * listens on 127.0.0.1 and the fixture DNS resolves every name to it.
 */
import { expect } from 'chai';
import { changesBetween } from '../../src/assessments/observation-changes.js';
import { rdapFromBootstrap, runProbes, type Observation, type ProbeContext } from '../../src/assessments/probes/index.js';
import { createNetClient, type NetClient } from '../../src/net/index.js';
import { createLeaf, createTestCa, type KeyAndCert } from '../support/probe-fixtures/certificates.js';
import { startFixtureDns, type FixtureDns, type Zone } from '../support/probe-fixtures/dns-server.js';
import { startRdapStub, type RdapStub } from '../support/probe-fixtures/rdap-stub.js';
import { LOOPBACK } from '../support/probe-fixtures/sites.js';
import { startHttp, startHttps, type WebFixture } from '../support/probe-fixtures/web-servers.js';

const DOMAIN = 'change.test';

describe('an assessment after the estate changed (real probes, loopback fixtures)', function () {
  this.timeout(60_000);
  let ca: KeyAndCert;
  let dns: FixtureDns;
  let net: NetClient;
  let rdap: RdapStub;
  const servers: WebFixture[] = [];
  // The zones the fixture DNS answers from; the test changes them between the two looks.
  const zones: Record<string, Zone> = {
    test: { ns: ['ns.test'] },
    [DOMAIN]: { a: [LOOPBACK], ns: ['ns1.change.test'], mx: [{ priority: 10, exchange: 'mail.change.test' }], txt: [['v=spf1 mx -all']] },
  };

  const site = (): ReturnType<typeof startHttp> => startHttp((_req, res) => void res.writeHead(301, { location: `https://${DOMAIN}/` }).end());
  const secure = (certificate: KeyAndCert): Promise<WebFixture> =>
    startHttps(new Map([[DOMAIN, certificate]]), certificate, (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Change Ltd</title>'));
  const look = (https: WebFixture, http: WebFixture): Promise<Observation[]> => {
    const ctx: ProbeContext = {
      domain: DOMAIN, net, dns: dns.resolver, allowPrivate: [`${LOOPBACK}/32`], resolveHost: dns.resolveHost, tlsCa: ca.cert,
      ports: { http: http.port, https: https.port }, rdapBaseUrl: rdapFromBootstrap(net, rdap.bootstrapUrl), timeoutMs: 5_000, now: () => new Date(),
    };
    return runProbes(ctx);
  };

  before(async () => {
    ca = await createTestCa();
    dns = await startFixtureDns(zones);
    net = createNetClient({ allowPrivate: [`${LOOPBACK}/32`], resolve: dns.resolveHost, tls: { ca: ca.cert } });
    rdap = await startRdapStub([DOMAIN]);
    servers.push(rdap);
  });
  after(async () => {
    await net.close();
    await Promise.all(servers.map((s) => s.close()));
    await dns.close();
  });

  it('tells the mail server that went away and the certificate that expired, with both sides in words, and nothing else', async () => {
    const before = await look(...(await Promise.all([secure(await createLeaf({ names: [DOMAIN], ca })), site()]).then((s) => (servers.push(...s), s)) as [WebFixture, WebFixture]));
    expect(before.find((o) => o.name === 'mx_records')?.outcome).to.equal('observed');
    // The estate changes: the MX record is removed and the site now presents an expired certificate.
    zones[DOMAIN] = { a: [LOOPBACK], ns: ['ns1.change.test'], txt: [['v=spf1 mx -all']] };
    const expired = await createLeaf({ names: [DOMAIN], ca, fromDays: -400, toDays: -3 });
    const after = await look(...(await Promise.all([secure(expired), site()]).then((s) => (servers.push(...s), s)) as [WebFixture, WebFixture]));

    const changes = changesBetween(before, after);
    const kinds = Object.fromEntries(changes.map((c) => [c.name, c.kind]));
    // The secure site now fails to verify: an observation without an answer says nothing of a change.
    expect(kinds).to.deep.equal({ mx_records: 'disappeared', mail_provider: 'disappeared', tls_certificate: 'changed', certificate_expiry: 'changed' });
    expect(after.find((o) => o.name === 'https_reachable')?.outcome).to.equal('error');
    const said = Object.fromEntries(changes.map((c) => [c.name, c]));
    expect(said.mx_records).to.deep.include({ label: 'Mail servers', after: null, afterSummary: 'The domain lists no mail servers.' });
    expect(said.mx_records?.beforeSummary).to.equal('E-mail for the domain goes to 1 mail server: mail.change.test.');
    expect(said.certificate_expiry?.afterSummary).to.match(/^The website certificate expired on \d{4}-\d\d-\d\d, 3 days ago\.$/);
    expect(said.certificate_expiry?.beforeSummary).to.match(/^The website certificate expires on \d{4}-\d\d-\d\d, in 90 days\.$/);
    expect((said.tls_certificate?.after as { authorized: boolean }).authorized).to.equal(false);
  });
});
