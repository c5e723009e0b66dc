/**
 * The fixture estate the probe tests observe: DNS zones, certificates and web content per domain.
 * Every name resolves to 127.0.0.1 (or ::1); nothing here points anywhere else.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLeaf, type KeyAndCert } from './certificates.js';
import type { Zones } from './dns-server.js';
import { hostOf, type Handler } from './web-servers.js';

export const LOOPBACK = '127.0.0.1';

/**
 * DNS zones; `hang.test` never answers MX queries, `nowhere.test` does not exist, `mailonly.test`
 * has no address. The TLD `test` exists (as a real TLD does), so NXDOMAIN below it is believed.
 */
export const ZONES: Zones = {
  test: { ns: ['ns.test'] },
  'mailonly.test': { ns: ['ns1.mailonly.test'], mx: [{ priority: 10, exchange: 'mx.elsewhere.test' }] },
  'acme.test': {
    a: [LOOPBACK],
    ns: ['ns2.acme-dns.test', 'ns1.acme-dns.test'],
    mx: [{ priority: 20, exchange: 'backup-mx.acme.test' }, { priority: 10, exchange: 'mail.acme.test' }],
    txt: [['v=spf1 include:_spf.acme.test ', '-all'], ['google-site-verification=fixture']],
    caa: [{ flags: 0, tag: 'issue', value: 'letsencrypt.org' }, { flags: 0, tag: 'iodef', value: 'mailto:security@acme.test' }],
  },
  '_dmarc.acme.test': { txt: [['v=DMARC1; p=quarantine; rua=mailto:dmarc@acme.test; pct=100']] },
  'parked.test': {
    a: [LOOPBACK],
    ns: ['ns1.sedoparking.com', 'ns2.sedoparking.com'],
    mx: [{ priority: 0, exchange: '' }],
    txt: [['v=spf1 -all']],
  },
  'bare.test': {
    a: [LOOPBACK],
    ns: ['ns1.bare-dns.test'],
    txt: [['v=spf1 a -all'], ['v=spf1 mx ~all']],
  },
  'expired.test': { a: [LOOPBACK] },
  'wrongname.test': { a: [LOOPBACK] },
  'selfsigned.test': { a: [LOOPBACK] },
  'loopback.test': { a: [LOOPBACK], aaaa: ['::1'], ns: ['ns1.loopback.test'] },
  'hang.test': { a: [LOOPBACK], silent: ['MX'] },
};

/** Server certificates by SNI name. */
export async function siteCertificates(ca: KeyAndCert): Promise<Map<string, KeyAndCert>> {
  const valid = (names: string[]): Promise<KeyAndCert> => createLeaf({ names, ca });
  return new Map([
    ['acme.test', await valid(['acme.test', 'www.acme.test'])],
    ['parked.test', await valid(['parked.test'])],
    ['bare.test', await valid(['bare.test'])],
    ['loopback.test', await valid(['loopback.test'])],
    ['expired.test', await createLeaf({ names: ['expired.test'], ca, fromDays: -400, toDays: -10.5 })],
    ['wrongname.test', await valid(['other-name.test'])],
    ['selfsigned.test', await createLeaf({ names: ['selfsigned.test'] })],
  ]);
}

const ACME_HOME = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>
  ACME Widgets &amp; Sons &#8211; Home
</title></head>
<body><nav><a href="/">Home</a> <a href="/about">About us</a> <a href='/kontakt'>Get in <b>touch</b></a></nav>
<p>Quality widgets since 1982.</p></body></html>`;

const PARKED_HOME = `<html><head><title>parked.test</title></head>
<body><h1>This domain is for sale!</h1><p>Make an offer on this domain today.</p>
<a href="https://sedo.com/search/details/?domain=parked.test">Buy via Sedo</a></body></html>`;

const BARE_HOME = '<html><body><p>Welcome.</p></body></html>';

const SITEMAP = '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://bare.test/</loc></url></urlset>';

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
}

function acme(req: IncomingMessage, res: ServerResponse): void {
  if (req.url === '/') {
    return send(res, 200, ACME_HOME, {
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'content-security-policy': "default-src 'self'",
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
    });
  }
  if (req.url === '/robots.txt') return send(res, 200, 'User-agent: *\nDisallow: /admin\n\nSitemap: https://acme.test/sitemap.xml\n', { 'content-type': 'text/plain' });
  send(res, 404, 'not found');
}

function bare(req: IncomingMessage, res: ServerResponse): void {
  if (req.url === '/') return send(res, 200, BARE_HOME);
  if (req.url === '/contact') return send(res, 200, '<html><body>Write to us.</body></html>');
  if (req.url === '/sitemap.xml') return send(res, 200, SITEMAP, { 'content-type': 'application/xml' });
  send(res, 404, 'not found');
}

/** The HTTPS sites, by Host. */
export function httpsSites(): Handler {
  return (req, res) => {
    switch (hostOf(req)) {
      case 'acme.test': return acme(req, res);
      case 'bare.test': return bare(req, res);
      case 'parked.test': return req.url === '/' ? send(res, 200, PARKED_HOME) : send(res, 404, 'not found');
      default: return send(res, 200, '<html><title>Hello</title></html>');
    }
  };
}

/** The HTTP sites: most redirect to HTTPS on the same host; bare.test answers itself; wrongname.test redirects to www. */
export function httpSites(httpsPort: () => number): Handler {
  return (req, res) => {
    const host = hostOf(req);
    if (host === 'bare.test') return bare(req, res);
    const target = host === 'wrongname.test' ? `www.${host}` : host;
    res.writeHead(host === 'parked.test' ? 302 : 301, { location: `https://${target}:${httpsPort()}${req.url ?? '/'}` }).end();
  };
}
