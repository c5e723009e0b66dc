/**
 * The web edge, in front of routing: every response outside the API paths (pages, static
 * files, unknown pages) carries the pages' security headers (koa-helmet), and any error there is
 * a page, not problem+json: an unknown page is a 404 page; `/api`, `/v0.1`, `/mcp` and
 * `/openapi.json` are left to the JSON error handling.
 */
import type Koa from 'koa';
import helmet from 'koa-helmet';
import type { Logger } from 'pino';
import { AppError, ERROR_TABLE } from '../errors.js';
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

export function webEdge(pages: WebPages, logger: Logger): Koa.Middleware<{ requestId: string }> {
  const securityHeaders = helmet(PAGE_SECURITY);
  return async (ctx, next) => {
    if (!isPagePath(ctx.path)) return next();
    await securityHeaders(ctx, async () => undefined);
    try {
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
