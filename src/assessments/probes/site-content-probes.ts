/**
 * What the website's own pages state: the company's identifiers (`legal_identity`) and the dates
 * that show when the site was last touched (`site_activity`). Stated as found, never judged.
 */
import type { NetResponse } from '../../net/index.js';
import { findIdentifiers, legalLinks, textLines, type LegalIdentifier } from './legal-identifiers.js';
import { failure, observe } from './observation.js';
import { bodyText, fetchPage } from './shared.js';
import { isRead, SITE_ACTIVITY_PROBE } from './site-activity.js';
import type { Observation, Probe, ProbeContext } from './types.js';

/** Linked pages read besides the home page. */
const MAX_LINKED_PAGES = 2;

/** A page asked for: read (2xx), answered with another status, or not reached. */
type PageRead =
  | { readonly url: string; readonly identifiers: readonly LegalIdentifier[] }
  | { readonly url: string; readonly status: number }
  | { readonly url: string; readonly err: unknown };

async function readPage(ctx: ProbeContext, url: string): Promise<PageRead> {
  try {
    const res = await fetchPage(ctx, url);
    return isRead(res) ? { url: res.url, identifiers: findIdentifiers(textLines(bodyText(res)), res.url) } : { url, status: res.status };
  } catch (err) {
    return { url, err };
  }
}

/** What came of a linked page, for the evidence. */
function pageSaid(ctx: ProbeContext, page: PageRead): string {
  if ('identifiers' in page) return `read ${page.url}`;
  if ('status' in page) return `${page.url} answered ${page.status}`;
  return failure(ctx, 'http', 'legal_identity', page.err, `asking for ${page.url}`).evidence.replace(/\.$/, '');
}

function listed(identifiers: readonly LegalIdentifier[]): string {
  return identifiers.map((i) => `${i.kind} "${i.value}" on ${i.foundAt}`).join(', ');
}

/** The observation once the home page (read) and the linked pages were asked for. */
function legalObservation(ctx: ProbeContext, home: NetResponse, linked: readonly PageRead[]): Observation {
  const pages: PageRead[] = [{ url: home.url, identifiers: findIdentifiers(textLines(bodyText(home)), home.url) }, ...linked];
  const identifiers = pages.flatMap((page) => ('identifiers' in page ? page.identifiers : []));
  const pagesRead = pages.filter((page) => 'identifiers' in page).map((page) => page.url);
  const links = linked.length === 0 ? 'it links to no imprint, legal or about page' : linked.map((page) => pageSaid(ctx, page)).join('; ');
  const asked = `Read the home page ${home.url}; ${links}`;
  if (identifiers.length > 0) {
    return observe(ctx, 'http', 'legal_identity', 'observed', { identifiers, pagesRead }, `${asked}; found ${listed(identifiers)}.`);
  }
  const unread = linked.find((page): page is Extract<PageRead, { err: unknown }> => 'err' in page);
  if (unread !== undefined) return failure(ctx, 'http', 'legal_identity', unread.err, `Read the home page ${home.url}, which states no company identifier, then asked for ${unread.url}`);
  return observe(ctx, 'http', 'legal_identity', 'not_found', { identifiers: [], pagesRead }, `${asked}; none of the pages read states a company number, VAT ID or registered address.`);
}

/**
 * `legal_identity`: company numbers, VAT IDs and the registered address stated on the home page
 * or on up to two linked imprint, legal or about pages of the same host.
 */
const legalIdentity: Probe = {
  source: 'http',
  names: ['legal_identity'],
  needsAddresses: true,
  asked: (ctx) => `Asked for the home page of ${ctx.domain} and up to ${MAX_LINKED_PAGES} linked imprint, legal or about pages`,
  async run(ctx, shared) {
    const home = await shared.contentPage();
    if (!isRead(home)) {
      return [observe(ctx, 'http', 'legal_identity', 'error', { url: home.url, status: home.status }, `Asked for the home page of ${ctx.domain}; ${home.url} answered ${home.status}, so no page was read.`)];
    }
    const links = legalLinks(bodyText(home), home.url, MAX_LINKED_PAGES);
    const linked = await Promise.all(links.map((url) => readPage(ctx, url)));
    return [legalObservation(ctx, home, linked)];
  },
};

/** The site content probes, each run under its own time limit. */
export const SITE_CONTENT_PROBES: readonly Probe[] = [legalIdentity, SITE_ACTIVITY_PROBE];
