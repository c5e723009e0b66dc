/**
 * Forms are same-origin (DESIGN.md: the proxy and assessment POSTs are same-origin only): a
 * POST, or any other unsafe method, to a page path is refused with a 403 page, before its body is
 * read, when the browser says it comes from another site: `Sec-Fetch-Site` other than
 * `same-origin` or `none`, or an `Origin` that is not this service's own (`null` included).
 * A request with neither header is let through: browsers send `Origin` with every cross-origin
 * POST, so such a request comes from a program (curl, a script), which no other site can make
 * a visitor's browser send, and a forgery needs a visitor's browser.
 */
import type Koa from 'koa';
import { AppError } from '../errors.js';
import { isOwnOrigin } from '../origin.js';
import { isPagePath } from './security.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A navigation the user made (`none`: typed, bookmarked) or a page of this origin. */
const SAME_SITE_FETCH = new Set(['same-origin', 'none']);

/** `publicOrigin`: PUBLIC_URL, the origin the deployment answers as, or null. */
export function sameOriginForms(publicOrigin: string | null): Koa.Middleware {
  return async (ctx, next) => {
    if (SAFE.has(ctx.method) || !isPagePath(ctx.path)) return next();
    const fetchSite = ctx.get('sec-fetch-site').toLowerCase();
    const origin = ctx.get('origin');
    const crossSite = (fetchSite !== '' && !SAME_SITE_FETCH.has(fetchSite)) || (origin !== '' && !isOwnOrigin(origin, ctx.req.headers.host, publicOrigin, true));
    if (crossSite) {
      throw new AppError('origin_not_allowed', 'This form was sent from another site, so nothing was done. To use it, open it on this site and send it from there.');
    }
    return next();
  };
}
