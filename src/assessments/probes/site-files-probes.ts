/**
 * robots.txt and the sitemap, and the signs of a parked domain. Read from the origin that served
 * the home page; parked-domain signs are listed as found, never summed into a judgement.
 */
import type { NetResponse } from '../../net/index.js';
import { visibleText } from './html.js';
import { failure, observe } from './observation.js';
import { bodyText, fetchPage } from './shared.js';
import type { Observation, Probe, ProbeContext } from './types.js';

function looksLikeHtml(text: string): boolean {
  return /<(!doctype\s+html|html|head|body)\b/i.test(text.slice(0, 2048));
}

function sitemapLines(robots: string): string[] {
  return robots
    .split(/\r?\n/)
    .map((line) => /^\s*sitemap\s*:\s*(\S+)/i.exec(line)?.[1])
    .filter((url): url is string => url !== undefined);
}

interface RobotsResult {
  readonly observation: Observation;
  readonly sitemaps: readonly string[];
}

async function readRobots(ctx: ProbeContext, url: string): Promise<RobotsResult> {
  const asked = `Asked for ${url}`;
  try {
    const res = await fetchPage(ctx, url);
    const text = bodyText(res);
    if (res.status !== 200 || looksLikeHtml(text)) {
      const why = res.status === 200 ? 'an HTML page, not a robots.txt' : `status ${res.status}`;
      return { observation: observe(ctx, 'http', 'robots_txt', 'not_found', null, `${asked}; it answered ${why}.`), sitemaps: [] };
    }
    const sitemaps = sitemapLines(text);
    const value = { url: res.url, bytes: res.body.length, sitemaps };
    return { observation: observe(ctx, 'http', 'robots_txt', 'observed', value, `${asked}; it answered 200 with ${res.body.length} bytes and ${sitemaps.length} Sitemap line(s).`), sitemaps };
  } catch (err) {
    return { observation: failure(ctx, 'http', 'robots_txt', err, asked), sitemaps: [] };
  }
}

async function readSitemap(ctx: ProbeContext, origin: string, fromRobots: readonly string[]): Promise<Observation> {
  if (fromRobots.length > 0) {
    return observe(ctx, 'http', 'sitemap', 'observed', { urls: fromRobots, foundIn: 'robots.txt' }, `Read robots.txt of ${origin}; it names the sitemap(s) ${fromRobots.join(', ')}.`);
  }
  const url = new URL('/sitemap.xml', origin).href;
  const asked = `Found no Sitemap line in robots.txt, then asked for ${url}`;
  try {
    const res = await fetchPage(ctx, url);
    if (res.status === 200 && /<(urlset|sitemapindex)\b/i.test(bodyText(res))) {
      return observe(ctx, 'http', 'sitemap', 'observed', { urls: [res.url], foundIn: '/sitemap.xml' }, `${asked}; it answered 200 with a sitemap document.`);
    }
    return observe(ctx, 'http', 'sitemap', 'not_found', null, `${asked}; it answered ${res.status} without a <urlset> or <sitemapindex>.`);
  } catch (err) {
    return failure(ctx, 'http', 'sitemap', err, asked);
  }
}

const robotsAndSitemap: Probe = {
  source: 'http',
  names: ['robots_txt', 'sitemap'],
  needsAddresses: true,
  asked: (ctx) => `Asked the site serving the home page of ${ctx.domain} for /robots.txt and /sitemap.xml`,
  async run(ctx, shared) {
    const origin = new URL('/', (await shared.contentPage()).url).href;
    const robots = await readRobots(ctx, new URL('/robots.txt', origin).href);
    return [robots.observation, await readSitemap(ctx, origin, robots.sitemaps)];
  },
};

/** Phrases parking pages show (matched case-insensitively in the visible text). */
const PARKING_PHRASES: readonly string[] = [
  'domain is for sale',
  'domain may be for sale',
  'buy this domain',
  'this domain is parked',
  'domain parking',
  'parked free',
  'make an offer on this domain',
  'inquire about this domain',
];

/** Parking and domain-sale services, as they appear in page text or links. */
const PARKING_SERVICES: readonly string[] = ['sedo', 'bodis', 'parkingcrew', 'above.com', 'dan.com', 'afternic', 'hugedomains', 'undeveloped.com', 'parklogic', 'domainmarket'];

/** Nameserver domains of parking services. */
const PARKING_NAMESERVERS: readonly string[] = ['sedoparking.com', 'bodis.com', 'parkingcrew.net', 'above.com', 'dan.com', 'afternic.com', 'hugedomains.com', 'parklogic.com', 'undeveloped.com'];

/** One sign that a domain may be parked, as found. */
interface ParkingSign {
  readonly kind: 'page_text' | 'parking_service' | 'nameserver';
  readonly match: string;
}

function pageSigns(page: NetResponse): ParkingSign[] {
  const html = bodyText(page).toLowerCase();
  const text = visibleText(html);
  const phrases = PARKING_PHRASES.filter((phrase) => text.includes(phrase)).map((match): ParkingSign => ({ kind: 'page_text', match }));
  const services = PARKING_SERVICES.filter((name) => new RegExp(`\\b${name.replace('.', '\\.')}\\b`).test(html)).map((match): ParkingSign => ({ kind: 'parking_service', match }));
  return [...phrases, ...services];
}

function nameserverSigns(nameservers: readonly string[]): ParkingSign[] {
  return nameservers
    .map((ns) => ns.toLowerCase().replace(/\.$/, ''))
    .filter((ns) => PARKING_NAMESERVERS.some((zone) => ns === zone || ns.endsWith(`.${zone}`)))
    .map((match) => ({ kind: 'nameserver', match }));
}

const parked: Probe = {
  source: 'http',
  names: ['parked_domain'],
  needsAddresses: true,
  asked: (ctx) => `Looked for parking signs in the home page and the NS records of ${ctx.domain}`,
  async run(ctx, shared) {
    const asked = this.asked(ctx);
    const [page, ns] = await Promise.allSettled([shared.contentPage(), shared.nameservers()]);
    const signs = [...(page.status === 'fulfilled' ? pageSigns(page.value) : []), ...(ns.status === 'fulfilled' ? nameserverSigns(ns.value) : [])];
    if (page.status === 'rejected' && signs.length === 0) return [failure(ctx, 'http', 'parked_domain', page.reason, asked)];
    const read = page.status === 'fulfilled' ? `read ${page.value.url}` : 'the home page could not be read';
    if (signs.length === 0) return [observe(ctx, 'http', 'parked_domain', 'not_found', { signs }, `${asked}; ${read}, no sign found.`)];
    const listed = signs.map((s) => `${s.kind} "${s.match}"`).join(', ');
    return [observe(ctx, 'http', 'parked_domain', 'observed', { signs }, `${asked}; ${read}, found: ${listed}.`)];
  },
};

/** robots.txt/sitemap and parked-domain probes, each run under its own time limit. */
export const SITE_FILE_PROBES: readonly Probe[] = [robotsAndSitemap, parked];
