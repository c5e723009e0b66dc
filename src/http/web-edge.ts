/**
 * The web edge, in front of routing: every response outside the API paths (pages, static
 * files, unknown pages) carries the pages' security headers (koa-helmet), a form sent from
 * another site is refused, and any error there is a page, not problem+json: an unknown page is a
 * 404 page; `/api`, `/v0.1`, `/mcp` and `/openapi.json` are left to the JSON error handling.
 */
import type Koa from 'koa';
import helmet from 'koa-helmet';
import type { Logger } from 'pino';
import { AppError, ERROR_TABLE } from '../errors.js';
import { isOwnOrigin } from '../origin.js';
import { isPagePath, PAGE_SECURITY } from '../web/security.js';
import type { WebPages } from '../web/web-pages.js';
import { writeReply } from './reply.js';

/** How each error reads as a page title. */
const TITLES: Partial<Record<AppError['code'], string>> = {
  route_not_found: 'Page not found',
  not_found: 'Not found',
  validation_failed: 'Check the address',
  method_not_allowed: 'Not allowed here',
  rate_limited: 'Too many requests',
  internal_error: 'Something went wrong',
  database_unavailable: 'The catalog is unavailable',
  service_unavailable: 'Busy',
  origin_not_allowed: 'Sent from another site',
};

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A navigation the user made (`none`: typed, bookmarked) or a page of this origin. */
const SAME_SITE_FETCH = new Set(['same-origin', 'none']);

/** `publicOrigin`: PUBLIC_URL, the origin the deployment answers as, or null. */
export function webEdge(pages: WebPages, logger: Logger, publicOrigin: string | null): Koa.Middleware<{ requestId: string }> {
  const securityHeaders = helmet(PAGE_SECURITY);
  return async (ctx, next) => {
    if (!isPagePath(ctx.path)) return next();
    await securityHeaders(ctx, async () => undefined);
    try {
      if (!SAFE.has(ctx.method) && sentFromAnotherSite(ctx, publicOrigin)) {
        throw new AppError('origin_not_allowed', 'This form was sent from another site, so nothing was done. To use it, open it on this site and send it from there.');
      }
      await next();
    } catch (err) {
      const error = err instanceof AppError ? err : new AppError('internal_error', 'Something went wrong on our side. Quote the request id if you report it.');
      if (!(err instanceof AppError)) logger.error({ err, requestId: ctx.state.requestId }, 'page failed');
      // Nobody is there to read a page (a flood's closed connections): none is made.
      if (ctx.req.socket.destroyed) return;
      const status = ERROR_TABLE[error.code].status;
      const detail = error.code === 'route_not_found' ? `There is no page at ${ctx.path}.` : error.detail;
      const page = pages.error({ status, title: TITLES[error.code] ?? ERROR_TABLE[error.code].title, detail, requestId: ctx.state.requestId, errors: error.errors });
      writeReply(ctx, { status: page.status, headers: error.headers, text: page.text });
    }
  };
}

/**
 * Forms are same-origin (DESIGN.md: the proxy and assessment POSTs are same-origin only): an
 * unsafe method on a page path is refused, before its body is read, when the browser says it
 * comes from another site: `Sec-Fetch-Site` other than `same-origin` or `none`, or an `Origin`
 * that is not this service's own (`null` included). A request with neither header is let
 * through: browsers send `Origin` with every cross-origin POST, so it comes from a program
 * (curl, a script), which no other site can make a visitor's browser send.
 */
function sentFromAnotherSite(ctx: Koa.Context, publicOrigin: string | null): boolean {
  const fetchSite = ctx.get('sec-fetch-site').toLowerCase();
  const origin = ctx.get('origin');
  return (fetchSite !== '' && !SAME_SITE_FETCH.has(fetchSite)) || (origin !== '' && !isOwnOrigin(origin, ctx.req.headers.host, publicOrigin, true));
}
