/**
 * Website observations from the home page: HTTPS reachability, HSTS, security headers, the
 * redirect from http://, the page title and a contact page. All requests go through the guarded
 * client; a domain resolving to a private address is never fetched.
 */
import type { NetResponse } from '../../net/index.js';
import { bodyText, fetchPage, siteUrl } from './shared.js';
import { pageLinks, pageTitle } from './html.js';
import { failure, observe } from './observation.js';
import type { Observation, Probe, ProbeContext } from './types.js';

const SECURITY_HEADERS: readonly string[] = [
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
];

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const CONTACT_WORDS = /contact|kontakt|impressum|imprint/i;

function hstsValue(header: string): { header: string; maxAge: number | null; includeSubDomains: boolean; preload: boolean } {
  const maxAge = /(?:^|;)\s*max-age\s*=\s*"?(\d+)"?/i.exec(header)?.[1];
  return {
    header,
    maxAge: maxAge === undefined ? null : Number(maxAge),
    includeSubDomains: /(?:^|;)\s*includesubdomains\s*(?:;|$)/i.test(header),
    preload: /(?:^|;)\s*preload\s*(?:;|$)/i.test(header),
  };
}

const httpsHeaders: Probe = {
  source: 'http',
  names: ['https_reachable', 'hsts', 'security_headers'],
  needsAddresses: true,
  asked: (ctx) => `Asked for ${siteUrl(ctx, 'https')} (GET, certificate verified)`,
  async run(ctx, shared) {
    const asked = this.asked(ctx);
    let home: NetResponse;
    try {
      home = await shared.httpsHome();
    } catch (err) {
      return this.names.map((name) => failure(ctx, 'http', name, err, asked));
    }
    const reachable = observe(ctx, 'http', 'https_reachable', 'observed', { url: home.url, status: home.status, remoteAddress: home.remoteAddress }, `${asked}; ${home.url} answered ${home.status}.`);
    const sts = home.headers['strict-transport-security'];
    const hsts = sts === undefined
      ? observe(ctx, 'http', 'hsts', 'not_found', null, `${asked}; the response has no Strict-Transport-Security header.`)
      : observe(ctx, 'http', 'hsts', 'observed', hstsValue(sts), `${asked}; Strict-Transport-Security: ${sts}.`);
    const present = SECURITY_HEADERS.filter((name) => home.headers[name] !== undefined);
    const missing = SECURITY_HEADERS.filter((name) => home.headers[name] === undefined);
    const values = Object.fromEntries(present.map((name) => [name, home.headers[name] ?? '']));
    const listed = present.length === 0 ? 'none of the five' : present.join(', ');
    const headers = observe(ctx, 'http', 'security_headers', 'observed', { present, missing, values }, `${asked}; present: ${listed}.`);
    return [reachable, hsts, headers];
  },
};

const httpRedirect: Probe = {
  source: 'http',
  names: ['http_to_https_redirect'],
  needsAddresses: true,
  asked: (ctx) => `Asked for ${siteUrl(ctx, 'http')} (GET, redirects not followed)`,
  async run(ctx) {
    const asked = this.asked(ctx);
    const res = await fetchPage(ctx, siteUrl(ctx, 'http'), 'manual');
    const location = res.headers.location;
    if (!REDIRECT_STATUSES.has(res.status) || location === undefined) {
      const value = { status: res.status, redirects: false, location: null, toHttps: false, sameHost: null };
      return [observe(ctx, 'http', 'http_to_https_redirect', 'observed', value, `${asked}; it answered ${res.status} without a redirect.`)];
    }
    let target: URL;
    try {
      target = new URL(location, res.url);
    } catch {
      const value = { status: res.status, redirects: true, location, toHttps: false, sameHost: null };
      return [observe(ctx, 'http', 'http_to_https_redirect', 'observed', value, `${asked}; it answered ${res.status} with an unparsable Location "${location}".`)];
    }
    const toHttps = target.protocol === 'https:';
    const sameHost = target.hostname.toLowerCase() === ctx.domain.toLowerCase();
    const value = { status: res.status, redirects: true, location: target.href, toHttps, sameHost };
    return [observe(ctx, 'http', 'http_to_https_redirect', 'observed', value, `${asked}; it answered ${res.status} redirecting to ${target.href}.`)];
  },
};

function contentAsked(ctx: ProbeContext): string {
  return `Asked for the home page of ${ctx.domain} (${siteUrl(ctx, 'https')}, or ${siteUrl(ctx, 'http')} when HTTPS failed to connect)`;
}

const title: Probe = {
  source: 'http',
  names: ['page_title'],
  needsAddresses: true,
  asked: contentAsked,
  async run(ctx, shared) {
    const page = await shared.contentPage();
    const text = pageTitle(bodyText(page));
    if (text === null) return [observe(ctx, 'http', 'page_title', 'not_found', null, `Read ${page.url} (status ${page.status}); it has no <title>.`)];
    return [observe(ctx, 'http', 'page_title', 'observed', { title: text, url: page.url }, `Read ${page.url} (status ${page.status}); its <title> is "${text}".`)];
  },
};

function contactLink(html: string, base: string): { url: string; text: string } | null {
  for (const link of pageLinks(html)) {
    if (!CONTACT_WORDS.test(link.href) && !CONTACT_WORDS.test(link.text)) continue;
    try {
      return { url: new URL(link.href, base).href, text: link.text };
    } catch {
      continue;
    }
  }
  return null;
}

const contact: Probe = {
  source: 'http',
  names: ['contact_page'],
  needsAddresses: true,
  asked: contentAsked,
  async run(ctx, shared): Promise<Observation[]> {
    const page = await shared.contentPage();
    const link = contactLink(bodyText(page), page.url);
    if (link !== null) {
      const value = { ...link, via: 'home_page_link' };
      return [observe(ctx, 'http', 'contact_page', 'observed', value, `Read ${page.url}; it links to ${link.url} ("${link.text}").`)];
    }
    const path = new URL('/contact', page.url).href;
    const asked = `Read ${page.url}, which has no contact, kontakt, impressum or imprint link, then asked for ${path}`;
    try {
      const res = await fetchPage(ctx, path);
      if (res.status === 200) return [observe(ctx, 'http', 'contact_page', 'observed', { url: res.url, text: null, via: 'contact_path' }, `${asked}; it answered 200.`)];
      return [observe(ctx, 'http', 'contact_page', 'not_found', null, `${asked}; it answered ${res.status}.`)];
    } catch (err) {
      return [failure(ctx, 'http', 'contact_page', err, asked)];
    }
  },
};

/** The home-page probes, each run under its own time limit. */
export const WEBSITE_PROBES: readonly Probe[] = [httpsHeaders, httpRedirect, title, contact];
