/**
 * The web pages over HTTP, no browser needed: each page route answers HTML as the
 * contract says (every response is checked against it), with the security headers; catalog
 * text is escaped and never a script, style or event handler; links are ours or http(s);
 * unknown pages are 404 pages while API paths stay JSON; the assessment form posts and redirects.
 */
import { expect } from 'chai';
import { fixture, startHarness, type Harness } from '../support/harness.js';

const PAGES = [
  '/',
  '/servers',
  '/servers?q=github&sort=relevance',
  '/servers?category=databases&offset=0',
  '/servers?compare=com.notion~mcp',
  // A form's "any" choices arrive empty: not given.
  '/servers?q=github&category=&trust=&sort=relevance',
  '/tools?q=issue&authentication=&sort=a-z',
  '/tools?q=issue&authentication=oauth&sort=a-z',
  '/servers/com.notion~mcp',
  '/servers/io.github.hostile~xss-probe',
  '/compare?ids=com.notion~mcp,app.linear~linear',
  '/compare?ids=com.notion~mcp&ids=app.linear~linear',
  '/compare?ids=com.notion~mcp',
  '/compare',
  '/assess',
  '/docs',
];

/** The start tags of a page, quoted values whole (text between tags is escaped, so `<` there is `&lt;`). */
const tagsOf = (html: string): string[] => html.match(/<[a-zA-Z](?:[^>"]|"[^"]*")*>/g) ?? [];

describe('web pages over HTTP', function () {
  this.timeout(30_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: true, inputs: [fixture('hostile-web.json')] });
  });
  after(async () => h.close());

  const page = async (path: string, init?: RequestInit) => {
    const response = await h.request(path, init);
    return { ...response, html: typeof response.body === 'string' ? response.body : JSON.stringify(response.body) };
  };

  for (const path of PAGES) {
    it(`serves ${path} as HTML with the security headers, no inline script or style, and only safe links`, async () => {
      const { status, headers, html } = await page(path);
      expect(status).to.equal(200);
      expect(headers.get('content-type')).to.equal('text/html; charset=utf-8');
      const csp = headers.get('content-security-policy') ?? '';
      expect(csp).to.include("script-src 'self'").and.include("frame-ancestors 'none'").and.include("default-src 'none'");
      expect(csp).not.to.include('unsafe-inline');
      expect(headers.get('x-content-type-options')).to.equal('nosniff');
      expect(headers.get('referrer-policy')).to.equal('strict-origin-when-cross-origin');
      expect(html.startsWith('<!doctype html><html lang="en">')).to.equal(true);
      expect(html).to.match(/<title>[^<]+<\/title>/).and.match(/<meta name="description" content="[^"]+"/);
      const tags = tagsOf(html);
      for (const tag of tags) {
        // Attribute names only: values are quoted, and a quote inside one is &quot;.
        const names = tag.replace(/"[^"]*"/g, '""');
        expect(names, 'no event handler attribute').not.to.match(/\son[a-z]+=/i);
        expect(names, 'no style attribute').not.to.match(/\sstyle=/i);
        if (tag.startsWith('<script')) expect(tag, 'scripts are files').to.match(/^<script src="\/assets\/[a-z-]+-[0-9a-f]{10}\.js"/);
      }
      expect(tags.filter((t) => t.startsWith('<style'))).to.deep.equal([]);
      const hrefs = tags.flatMap((t) => [...t.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1] ?? ''));
      for (const href of hrefs) expect(href, 'a link of ours, http(s), or an install deep link').to.match(/^(\/|#|https?:\/\/|cursor:\/\/anysphere\.cursor-deeplink\/|vscode:mcp\/install\?)/);
    });
  }

  it('shows hostile catalog text escaped: scripts, handlers and javascript: URLs stay text', async () => {
    const { html } = await page('/servers/io.github.hostile~xss-probe');
    expect(html).not.to.include('<script>window');
    expect(html).not.to.include('<img src=x');
    expect(html).not.to.include('<svg onload');
    expect(html).to.include('<title>Hostile &lt;script>window.__pwned=1&lt;/script> · Sextant</title>');
    expect(html).to.include('Description &lt;img src=x onerror=&quot;window.__pwned=2&quot;>');
    expect(html).to.include('id="tool-&lt;svg onload=window.__pwned=5>"');
    expect(html).to.include('&quot;>&lt;script>window.__pwned=6&lt;/script>');
    expect(html).not.to.match(/href="javascript:/i);
    const search = await page('/servers?q=hostile');
    expect(search.html).to.include('Hostile &lt;script>window.__pwned=1&lt;/script>').and.not.include('<script>window');
  });

  it('links every result to its page and pages through results', async () => {
    const { html } = await page('/servers?sort=a-z');
    expect(html).to.include('href="/servers/com.notion~mcp"');
    expect(html).to.include('href="/servers?sort=a-z&amp;offset=20" rel="next"');
    const second = await page('/servers?sort=a-z&offset=20');
    expect(second.html).to.include('href="/servers?sort=a-z" rel="prev"');
  });

  it('answers a bad parameter, an unknown server and unknown compare ids with error pages', async () => {
    const bad = await page('/servers?sort=sideways');
    expect(bad.status).to.equal(400);
    expect(bad.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(bad.html).to.include('<code>query.sort</code>');
    const missing = await page('/servers/no.such~server');
    expect(missing.status).to.equal(404);
    expect(missing.html).to.include('No server has the id or name “no.such~server”.');
    const compare = await page('/compare?ids=no.such~one,no.such~two');
    expect(compare.status).to.equal(404);
    expect(compare.html).to.include('no.such~one');
  });

  it('answers unknown pages with a 404 page and keeps API paths in JSON', async () => {
    const unknown = await page('/no/such/page');
    expect(unknown.status).to.equal(404);
    expect(unknown.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(unknown.html).to.include('<h1 id="error-title">Page not found</h1>');
    for (const path of ['/api/no-such', '/api/v1/no-such', '/v0.1/no/such/route', '/mcp/no-such']) {
      const api = await h.request(path);
      expect(api.status, path).to.equal(404);
      expect(api.headers.get('content-type'), path).to.match(/^application\/problem\+json/);
      expect(api.body.code, path).to.equal('route_not_found');
    }
    const contract = await h.request('/openapi.json');
    expect(contract.headers.get('content-type')).to.match(/^application\/json/);
    expect(contract.headers.get('content-security-policy')).to.equal(null);
  });

  it('serves the static files under hashed names, cached for a year; an unknown file is a 404 page', async () => {
    const { html } = await page('/docs');
    const files = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1] ?? '');
    expect(files.length).to.equal(6);
    for (const file of files) {
      const response = await h.request(file);
      expect(response.status, file).to.equal(200);
      expect(response.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(response.headers.get('content-type')).to.match(/^(text\/css|text\/javascript|image\/svg\+xml)/);
    }
    const missing = await page('/assets/app-0000000000.css');
    expect(missing.status).to.equal(404);
    expect(missing.html).to.include('<h1 id="error-title">Page not found</h1>');
  });

  it('keeps the home page and its files small', async () => {
    const { html } = await page('/');
    let bytes = Buffer.byteLength(html);
    for (const match of html.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)) {
      const response = await fetch(`${h.baseUrl}${match[1]}`);
      bytes += (await response.arrayBuffer()).byteLength;
    }
    expect(bytes).to.be.below(100 * 1024);
  });

  describe('the assessment form', () => {
    const submit = (fields: Record<string, string>) =>
      page('/assess', { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });

    it('shows the reason when the domain is refused, keeping what was typed', async () => {
      const { status, html } = await submit({ domain: 'https://acme-widgets.co.uk/about', exposure: '' });
      expect(status).to.equal(400);
      expect(html).to.include('aria-invalid="true"').and.include('id="assess-domain-error"');
      expect(html).to.include('value="https://acme-widgets.co.uk/about"');
    });

    it('asks for a domain when none is given, and for a number as exposure', async () => {
      expect((await submit({ domain: '' })).html).to.include('Enter the business’s domain');
      expect((await submit({ domain: 'acme-widgets.co.uk', exposure: 'lots' })).html).to.include('Exposure must be a number');
    });

    it('queues a good domain and redirects to its page, which states the notice', async () => {
      const response = await submit({ domain: 'acme-widgets.co.uk', exposure: '25,000' });
      expect(response.status).to.equal(303);
      const location = response.headers.get('location') ?? '';
      expect(location).to.match(/^\/assessments\/[^/]+$/);
      const { status, html } = await page(location);
      expect(status).to.equal(200);
      expect(html).to.include('not a score, rating, recommendation or credit decision');
      expect(html).to.include('data-finished="no"').and.include('25,000');
      const unknown = await page('/assessments/no-such-id');
      expect(unknown.status).to.equal(404);
      expect(unknown.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(unknown.html).to.include('no-such-id');
    });
  });
});
