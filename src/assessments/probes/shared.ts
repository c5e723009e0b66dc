/**
 * Lookups several probes read (the NS and MX records, the home page), made at most once per run, and the
 * URLs of the site under assessment.
 */
import { NetError, type NetResponse } from '../../net/index.js';
import { isNoSuchName } from './dns-answers.js';
import type { ProbeContext, SharedLookups } from './types.js';

const USER_AGENT = 'Sextant-Assessment/1.0 (read-only observations)';

/** `scheme://domain[:port]path` for the site under assessment (ports from `ctx.ports` in tests). */
export function siteUrl(ctx: ProbeContext, scheme: 'http' | 'https', path = '/'): string {
  const url = new URL(`${scheme}://${ctx.domain}/`);
  url.port = String(scheme === 'https' ? (ctx.ports?.https ?? 443) : (ctx.ports?.http ?? 80));
  url.pathname = path;
  return url.href;
}

/** A GET through the guarded client, bounded by the probe time limit. */
export function fetchPage(ctx: ProbeContext, url: string, redirect: 'follow' | 'manual' = 'follow'): Promise<NetResponse> {
  return ctx.net.request({
    method: 'GET',
    url,
    headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' },
    timeoutMs: ctx.timeoutMs,
    redirect,
  });
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/** The lookups of one run; nothing is asked until a probe needs it. */
export function createSharedLookups(ctx: ProbeContext): SharedLookups {
  const httpsHome = once(() => fetchPage(ctx, siteUrl(ctx, 'https')));
  const contentPage = once(() =>
    httpsHome().catch((err: unknown) => {
      // Only a failed HTTPS connection (refused port, invalid certificate) is worth trying over HTTP.
      if (err instanceof NetError && err.code === 'connect_failed') return fetchPage(ctx, siteUrl(ctx, 'http'));
      throw err;
    }),
  );
  const deniedTld = once(async () => {
    const tld = ctx.domain.replace(/\.$/, '').split('.').pop() ?? '';
    const denied = await ctx.dns.resolveNs(tld).then(() => false, isNoSuchName);
    return denied ? tld : null;
  });
  return { nameservers: once(() => ctx.dns.resolveNs(ctx.domain)), mx: once(() => ctx.dns.resolveMx(ctx.domain)), deniedTld, httpsHome, contentPage };
}

/** The response body as text (UTF-8), for HTML and plain-text parsing. */
export function bodyText(response: NetResponse): string {
  return response.body.toString('utf8');
}
