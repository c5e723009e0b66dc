/**
 * `site_activity`: the dates a site states about itself: the latest year of the home page's
 * copyright notice, its Last-Modified header and the newest <lastmod> of one sitemap. Stated as
 * found; what they mean for the business is for the reader to weigh.
 */
import type { NetResponse } from '../../net/index.js';
import { visibleText } from './html.js';
import { failure, observe } from './observation.js';
import { bodyText, fetchPage } from './shared.js';
import type { Observation, Probe, ProbeContext } from './types.js';

/** A page answered with its content (2xx); other answers are not read as the page. */
export function isRead(res: NetResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

/** The value; each date is ISO 8601, null when the site does not state it. */
export interface SiteActivity {
  readonly copyrightYear: number | null;
  readonly lastModified: string | null;
  readonly sitemapNewest: string | null;
  readonly sitemapUrl: string | null;
}

/** Years before the web, or after next year, are not read as a copyright year. */
const FIRST_YEAR = 1990;
const MAX_SITEMAP_CHARS = 1_048_576;
const MAX_LASTMODS = 50_000;
const MAX_QUOTE_CHARS = 80;

/** "© 2019", "Copyright 2015–2024", "(c) Acme 2020": a copyright mark, a few words, then a year or a range of years. */
const COPYRIGHT = /(?:©|\(c\)|\bcopyright\b)[^\d.!?|]{0,40}?(?:(?:19|20)\d{2}\s*(?:[-–—/]|to|bis)\s*)?((?:19|20)\d{2})\b/gi;
const LASTMOD = /<(?:\w+:)?lastmod\b[^>]*>\s*([^<]{4,40}?)\s*<\//gi;

/** The latest year any copyright notice in the text gives, with the notice as written. */
export function copyrightOf(text: string, now: Date): { readonly year: number; readonly text: string } | null {
  let latest: { year: number; text: string } | null = null;
  // The page's text decodes only the commonest entities; these two are frequent in copyright notices.
  const decoded = text.replace(/&copy;/gi, '©').replace(/&[nm]dash;/gi, '–');
  for (const match of decoded.matchAll(COPYRIGHT)) {
    const year = Number(match[1]);
    if (year < FIRST_YEAR || year > now.getUTCFullYear() + 1) continue;
    // Quoted in the evidence: cut short, and no angle brackets from decoded markup.
    if (latest === null || year > latest.year) latest = { year, text: match[0].replace(/[<>]/g, ' ').slice(0, MAX_QUOTE_CHARS) };
  }
  return latest;
}

function isoDate(text: string | undefined): string | null {
  const time = Date.parse(text ?? '');
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** The newest date among a sitemap's <lastmod> entries (a sitemap index's too). */
export function newestLastmod(xml: string): string | null {
  let newest: string | null = null;
  let seen = 0;
  for (const match of xml.slice(0, MAX_SITEMAP_CHARS).matchAll(LASTMOD)) {
    const date = isoDate(match[1]);
    if (date !== null && (newest === null || date > newest)) newest = date;
    if ((seen += 1) >= MAX_LASTMODS) break;
  }
  return newest;
}

/** What came of the sitemap: its URL and newest date when read; `failed` or `unanswered` when nothing is known. */
interface SitemapDates {
  readonly url: string | null;
  readonly newest: string | null;
  readonly said: string;
  readonly failed?: unknown;
  readonly unanswered?: boolean;
}

/** `text` as a URL when it is an http(s) one on the host of `origin`: a sitemap elsewhere is not read. */
function sameHost(text: string | undefined, origin: URL): string | null {
  try {
    const url = new URL(text ?? '');
    return url.hostname === origin.hostname && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : null;
  } catch {
    return null;
  }
}

/** The sitemap robots.txt names on this host, else /sitemap.xml. */
async function sitemapUrl(ctx: ProbeContext, origin: URL): Promise<{ url: string; said: string }> {
  const robots = new URL('/robots.txt', origin).href;
  const fallback = new URL('/sitemap.xml', origin).href;
  try {
    const res = await fetchPage(ctx, robots);
    const lines = res.status === 200 ? [...bodyText(res).matchAll(/^\s*sitemap\s*:\s*(\S+)/gim)] : [];
    const named = lines.map(([, text]) => sameHost(text, origin)).find((url) => url !== null);
    if (named !== undefined && named !== null) return { url: named, said: `${robots} names the sitemap ${named}` };
    return { url: fallback, said: `${robots} (status ${res.status}) names no sitemap on this host, so asked for ${fallback}` };
  } catch {
    return { url: fallback, said: `${robots} could not be read, so asked for ${fallback}` };
  }
}

/** Reads one sitemap document (the client caps its size) and finds its newest <lastmod>. */
async function sitemapDates(ctx: ProbeContext, origin: URL): Promise<SitemapDates> {
  const { url, said } = await sitemapUrl(ctx, origin);
  try {
    const res = await fetchPage(ctx, url);
    const xml = bodyText(res);
    if (res.status >= 500) return { url: null, newest: null, said: `${said}; it answered ${res.status}`, unanswered: true };
    if (!isRead(res) || !/<(urlset|sitemapindex)\b/i.test(xml.slice(0, MAX_SITEMAP_CHARS))) {
      return { url: null, newest: null, said: `${said}; it answered ${res.status} without a sitemap document` };
    }
    const newest = newestLastmod(xml);
    return { url: res.url, newest, said: `${said}; ${newest === null ? 'it has no <lastmod> date' : `its newest <lastmod> is ${newest}`}` };
  } catch (err) {
    return { url: null, newest: null, said, failed: err };
  }
}

function homeSaid(home: NetResponse, copyright: { text: string } | null, lastModified: string | null): string {
  if (!isRead(home)) return `Asked for ${home.url}; it answered ${home.status}, so its text and headers were not read`;
  const notice = copyright === null ? 'no copyright year' : `the copyright notice "${copyright.text}"`;
  return `Read ${home.url}: ${notice}, ${lastModified === null ? 'no Last-Modified header' : `a Last-Modified header dated ${lastModified}`}`;
}

/** `site_activity`: observed when any of the three dates is stated, `not_found` when the pages were read and none is. */
export const SITE_ACTIVITY_PROBE: Probe = {
  source: 'http',
  names: ['site_activity'],
  needsAddresses: true,
  asked: (ctx) => `Asked for the home page of ${ctx.domain}, its robots.txt and one sitemap`,
  async run(ctx, shared): Promise<Observation[]> {
    const home = await shared.contentPage();
    const read = isRead(home);
    const copyright = read ? copyrightOf(visibleText(bodyText(home)), ctx.now()) : null;
    const lastModified = read ? isoDate(home.headers['last-modified']) : null;
    const sitemap = await sitemapDates(ctx, new URL('/', home.url));
    const value: SiteActivity = { copyrightYear: copyright?.year ?? null, lastModified, sitemapNewest: sitemap.newest, sitemapUrl: sitemap.url };
    const evidence = `${homeSaid(home, copyright, lastModified)}; ${sitemap.said}`;
    if (value.copyrightYear !== null || lastModified !== null || sitemap.newest !== null) return [observe(ctx, 'http', 'site_activity', 'observed', value, `${evidence}.`)];
    if (sitemap.failed !== undefined) return [failure(ctx, 'http', 'site_activity', sitemap.failed, evidence)];
    if (!read || sitemap.unanswered === true) return [observe(ctx, 'http', 'site_activity', 'error', null, `${evidence}.`)];
    return [observe(ctx, 'http', 'site_activity', 'not_found', value, `${evidence}; none of the three states a date.`)];
  },
};
