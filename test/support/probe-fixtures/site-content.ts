/**
 * Fixture sites for the site-content, certificate-expiry and registration-expiry observations.
 * Every name resolves to 127.0.0.1; nothing here points anywhere else.
 *
 * - firm.test: states its company details (home page and imprint) and its dates; certificate 36 days from expiry.
 * - plain.test: states neither; its certificate expired, so its pages are read over http://.
 * - brittle.test: the home page answers, the linked imprint and the sitemap drop the connection.
 * - broken.test: every page answers 503.
 * - closed.test: nothing listens on its ports; silent.test: its ports never answer.
 * - gone.test: has no address (only DNS and RDAP are asked).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLeaf, type KeyAndCert } from './certificates.js';
import type { Zones } from './dns-server.js';
import { hostOf, type Handler } from './web-servers.js';

export const LOOPBACK = '127.0.0.1';

export const SITE_ZONES: Zones = {
  test: { ns: ['ns.test'] },
  'firm.test': { a: [LOOPBACK], ns: ['ns1.firm.test'] },
  'plain.test': { a: [LOOPBACK], ns: ['ns1.plain.test'] },
  'brittle.test': { a: [LOOPBACK], ns: ['ns1.brittle.test'] },
  'broken.test': { a: [LOOPBACK], ns: ['ns1.broken.test'] },
  'closed.test': { a: [LOOPBACK], ns: ['ns1.closed.test'] },
  'silent.test': { a: [LOOPBACK], ns: ['ns1.silent.test'] },
  'gone.test': { ns: ['ns1.gone.test'] },
};

/** Server certificates by SNI name: firm.test's expires in 36.5 days, plain.test's expired 10.5 days ago. */
export async function siteContentCertificates(ca: KeyAndCert): Promise<Map<string, KeyAndCert>> {
  return new Map([
    ['firm.test', await createLeaf({ names: ['firm.test'], ca, toDays: 36.5 })],
    ['plain.test', await createLeaf({ names: ['plain.test'], ca, fromDays: -400, toDays: -10.5 })],
    ['brittle.test', await createLeaf({ names: ['brittle.test'], ca })],
    ['broken.test', await createLeaf({ names: ['broken.test'], ca })],
  ]);
}

/** Identifiers in script and style text, which must never be reported. */
const HIDDEN = `<script>var fake = "VAT GB999999999 Company No. 99999999 © 2031";</script>
<style>.x::after { content: "HRB 99999"; }</style>`;

export const FIRM_HOME = `<!doctype html>
<html><head><title>Firm Ltd</title>${HIDDEN}</head>
<body><nav><a href="/">Home</a> <a href="/impressum">Impressum</a> <a href="/about-us">About us</a>
<a href="https://elsewhere.test/legal">Legal notice (group)</a></nav>
<main><p>Widgets for the trade.</p></main>
<footer><p>&copy; 2015&ndash;2024 Firm Ltd. All rights reserved.</p>
<p>Registered in England and Wales no. 01234567. Registered office: 1 High St. Albans Road, London EC1A 1BB. VAT No. GB 123 4567 89</p></footer>
</body></html>`;

const FIRM_IMPRESSUM = `<html><body><h1>Impressum</h1>
<p>Firm GmbH<br>Musterstraße 1<br>10115 Berlin</p>
<p>Sitz: Berlin, Amtsgericht Charlottenburg HRB 123456 B</p>
<p>USt-IdNr.: DE123456789</p></body></html>`;

const FIRM_ABOUT = '<html><body><h1>About us</h1><p>Firm Pty trades in Australia as ABN 51 824 753 556.</p></body></html>';

const FIRM_SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://firm.test/</loc><lastmod>2024-06-01T10:00:00+02:00</lastmod></url>
<url><loc>https://firm.test/impressum</loc><lastmod>2024-06-02</lastmod></url>
<url><loc>https://firm.test/about-us</loc><lastmod>2023-01-01</lastmod></url>
</urlset>`;

const PLAIN_HOME = `<html><head><title>Plain</title>${HIDDEN}</head>
<body><p>Welcome to our shop. We have sold things since 2019.</p><a href="/about">About</a> <a href="/legal">Legal</a></body></html>`;

const BRITTLE_HOME = '<html><body><p>Hello.</p><a href="/imprint">Imprint</a></body></html>';

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
}

function firm(req: IncomingMessage, res: ServerResponse, httpsPort: number): void {
  switch (req.url) {
    case '/': return send(res, 200, FIRM_HOME, { 'last-modified': 'Tue, 14 May 2024 08:00:00 GMT' });
    case '/impressum': return send(res, 200, FIRM_IMPRESSUM);
    case '/about-us': return send(res, 200, FIRM_ABOUT);
    case '/robots.txt': return send(res, 200, `User-agent: *\nSitemap: https://cdn.elsewhere.test/sitemap.xml\nSitemap: https://firm.test:${httpsPort}/sitemap-main.xml\n`, { 'content-type': 'text/plain' });
    case '/sitemap-main.xml': return send(res, 200, FIRM_SITEMAP, { 'content-type': 'application/xml' });
    default: return send(res, 404, 'not found');
  }
}

function plain(req: IncomingMessage, res: ServerResponse): void {
  switch (req.url) {
    case '/': return send(res, 200, PLAIN_HOME);
    case '/about': return send(res, 200, '<html><body><p>We are a small shop.</p></body></html>');
    default: return send(res, 404, 'not found');
  }
}

function brittle(req: IncomingMessage, res: ServerResponse, httpsPort: number): void {
  switch (req.url) {
    case '/': return send(res, 200, BRITTLE_HOME);
    case '/robots.txt': return send(res, 200, `Sitemap: https://brittle.test:${httpsPort}/sitemap.xml\n`, { 'content-type': 'text/plain' });
    case '/imprint':
    case '/sitemap.xml': return void req.socket.destroy();
    default: return send(res, 404, 'not found');
  }
}

/** The HTTPS sites, by Host; `httpsPort` is where they are served (for the robots.txt Sitemap lines). */
export function siteContentHttps(httpsPort: () => number): Handler {
  return (req, res) => {
    switch (hostOf(req)) {
      case 'firm.test': return firm(req, res, httpsPort());
      case 'brittle.test': return brittle(req, res, httpsPort());
      case 'broken.test': return send(res, 503, 'Service unavailable');
      default: return send(res, 404, 'not found');
    }
  };
}

/** The HTTP sites: plain.test answers itself (its certificate expired); the others redirect to HTTPS. */
export function siteContentHttp(httpsPort: () => number): Handler {
  return (req, res) => {
    const host = hostOf(req);
    if (host === 'plain.test') return plain(req, res);
    res.writeHead(301, { location: `https://${host}:${httpsPort()}${req.url ?? '/'}` }).end();
  };
}
