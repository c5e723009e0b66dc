/** Manual redirect handling: same host only, upgrades to https allowed, downgrades refused. */
import { NetError } from './errors.js';
import { parseHttpUrl } from './http-url.js';

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** One request on the way to the final response. */
export interface Hop {
  readonly url: URL;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** Whether `status` is a redirect this client follows (when it carries a Location). */
export function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/**
 * The URL a redirect from `current` points to. Throws `redirect_refused` unless it is an http(s)
 * URL on the same host (and port) as `first`, with the same scheme as `current` or http→https.
 */
export function redirectTarget(location: string, current: URL, first: URL): URL {
  const parsed = parseHttpUrl(location, current);
  if ('problem' in parsed) throw new NetError('redirect_refused', `redirect refused: ${parsed.problem}`);
  const { url } = parsed;
  if (url.host !== first.host) throw new NetError('redirect_refused', `redirect from ${first.host} to another host (${url.host}) refused`);
  const upgrade = current.protocol === 'http:' && url.protocol === 'https:';
  if (url.protocol !== current.protocol && !upgrade) throw new NetError('redirect_refused', `redirect from ${current.protocol} to ${url.protocol} refused`);
  return url;
}

const BODY_HEADERS: ReadonlySet<string> = new Set(['content-type', 'content-length', 'content-encoding', 'transfer-encoding']);

/**
 * The hop after a redirect, as browsers do it (Fetch §4.4): 303 turns any method into GET, 301/302
 * turn POST into GET, both dropping the body and its headers; 307/308 repeat the request as is.
 */
export function redirectedHop(hop: Hop, status: number, target: URL): Hop {
  const toGet = status === 303 || ((status === 301 || status === 302) && hop.method === 'POST');
  if (!toGet) return { ...hop, url: target };
  const headers = Object.fromEntries(Object.entries(hop.headers).filter(([name]) => !BODY_HEADERS.has(name.toLowerCase())));
  return { url: target, method: 'GET', headers, body: undefined };
}
