/**
 * The fixture estate the mail policy probes observe (DNSSEC, IPv6, MTA-STS, TLS-RPT, mail
 * provider): DNS zones, the MTA-STS policy hosts' certificate and their answers. Every name that
 * is connected to resolves to 127.0.0.1; the IPv6 addresses are ::1 and are never connected to.
 * MX hosts named after real providers exist only in these zones (or not at all): they are compared
 * by name, never asked anything outside the fixture DNS.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLeaf, type KeyAndCert } from './certificates.js';
import type { DsFixture, Zones } from './dns-server.js';
import { hostOf, type Handler } from './web-servers.js';

export const LOOPBACK = '127.0.0.1';

export const MAILCO_DS: DsFixture = { keyTag: 2371, algorithm: 13, digestType: 2, digest: '4f'.repeat(32) };

export const MAILCO_POLICY = 'version: STSv1\r\nmode: enforce\r\nmx: mailco-test.mail.protection.outlook.com\r\nmx: *.mimecast.com\r\nmax_age: 604800\r\n';

const STS_RECORD = (id: string): string[] => [`v=STSv1; id=${id};`];

/**
 * `mailco.test` has everything (a signed zone, IPv6, MTA-STS enforce, TLS-RPT, Microsoft 365 and
 * Mimecast MX); `plain.test` has none of it and no MX; `selfhosted.test` has one unrecognised MX;
 * `nullmx.test` a null MX; `sts404.test` announces a policy its host answers 404 for;
 * `stsdown.test`'s policy host does not exist; `stshost.test`'s policy host exists and is pointed
 * at a refused or a silent port by the tests; `twosts.test` has two MTA-STS records;
 * `refused.test` is refused by the resolver, `slowmail.test` never answered; `partial6.test`
 * answers its own AAAA but not those of its servers. The TLD `test` exists, so NXDOMAIN below it
 * (as for `nowhere.test`) is believed.
 */
export const MAIL_ZONES: Zones = {
  test: { ns: ['ns.test'] },
  'mailco.test': {
    aaaa: ['::1'],
    ns: ['ns2.dns-host.test', 'ns1.mailco.test'],
    mx: [
      { priority: 30, exchange: 'mx.mailco.test' },
      { priority: 10, exchange: 'mailco-test.mail.protection.outlook.com' },
      { priority: 20, exchange: 'eu-smtp-inbound-1.mimecast.com' },
    ],
    txt: [['v=spf1 redirect=_spf.mailco.test']],
    ds: [MAILCO_DS],
    authenticated: true,
  },
  '_dmarc.mailco.test': { txt: [['v=DMARC1; p=reject; sp=quarantine; pct=50; adkim=s; aspf=r; rua=mailto:a@mailco.test, mailto:b@dmarc.test']] },
  '_mta-sts.mailco.test': { txt: [STS_RECORD('20240501T120000')] },
  '_smtp._tls.mailco.test': { txt: [['v=TLSRPTv1; rua=mailto:tls@mailco.test,https://reports.mailco.test/tlsrpt']] },
  'mta-sts.mailco.test': { a: [LOOPBACK] },
  'ns1.mailco.test': { aaaa: ['::1'] },
  'ns2.dns-host.test': { a: [LOOPBACK] },
  'mx.mailco.test': { aaaa: ['::1'] },
  'plain.test': { ns: ['ns1.plain.test'], txt: [['v=spf1 ?all']] },
  'ns1.plain.test': { a: [LOOPBACK] },
  'selfhosted.test': { ns: ['ns1.plain.test'], mx: [{ priority: 10, exchange: 'smtp.selfhosted.test' }] },
  'nullmx.test': { ns: ['ns1.plain.test'], mx: [{ priority: 0, exchange: '' }] },
  'sts404.test': { ds: [{ keyTag: 60485, algorithm: 8, digestType: 1, digest: 'ab'.repeat(20) }] },
  '_mta-sts.sts404.test': { txt: [STS_RECORD('404')] },
  'mta-sts.sts404.test': { a: [LOOPBACK] },
  'stsdown.test': {},
  '_mta-sts.stsdown.test': { txt: [STS_RECORD('down')] },
  'stshost.test': {},
  '_mta-sts.stshost.test': { txt: [STS_RECORD('host')] },
  'mta-sts.stshost.test': { a: [LOOPBACK] },
  'twosts.test': {},
  '_mta-sts.twosts.test': { txt: [STS_RECORD('one'), STS_RECORD('two')] },
  '_smtp._tls.twosts.test': { txt: [['v=TLSRPTv1; rua=mailto:a@twosts.test'], ['v=TLSRPTv1; rua=mailto:b@twosts.test']] },
  'refused.test': { refused: ['A', 'AAAA', 'NS', 'MX', 'TXT', 'CAA', 'DS'] },
  '_dmarc.refused.test': { refused: ['TXT'] },
  '_mta-sts.refused.test': { refused: ['TXT'] },
  '_smtp._tls.refused.test': { refused: ['TXT'] },
  'slowmail.test': { silent: ['A', 'AAAA', 'NS', 'MX', 'TXT', 'CAA', 'DS'] },
  '_dmarc.slowmail.test': { silent: ['TXT'] },
  '_mta-sts.slowmail.test': { silent: ['TXT'] },
  '_smtp._tls.slowmail.test': { silent: ['TXT'] },
  'partial6.test': { aaaa: ['::1'], ns: ['ns1.partial6.test'], silent: ['MX'] },
  'ns1.partial6.test': { silent: ['AAAA'] },
};

/** One certificate, signed by the test CA, for every MTA-STS policy host. */
export function policyHostCertificate(ca: KeyAndCert): Promise<KeyAndCert> {
  return createLeaf({ names: ['mta-sts.mailco.test', 'mta-sts.sts404.test', 'mta-sts.stshost.test'], ca });
}

/** The policy hosts: mailco.test's answers its policy, every other path and host answers 404. */
export function policyHosts(): Handler {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (hostOf(req) === 'mta-sts.mailco.test' && req.url === '/.well-known/mta-sts.txt') {
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(MAILCO_POLICY);
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  };
}
