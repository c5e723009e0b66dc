/**
 * The web edge, in front of routing: every response outside the API paths (pages, static
 * files, unknown pages) carries the security headers, and any error there is a page, not
 * problem+json: an unknown page is a 404 page; `/api`, `/v0.1`, `/mcp` and `/openapi.json` are
 * left to the JSON error handling.
 */
import type Koa from 'koa';
import { AppError, ERROR_TABLE } from '../errors.js';
import { encodedBody } from '../compression.js';
import type { Logger } from 'pino';
import { isPagePath, SECURITY_HEADERS } from './security.js';
import type { WebPages } from './web-pages.js';

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
  return async (ctx, next) => {
    if (!isPagePath(ctx.path)) return next();
    ctx.set(SECURITY_HEADERS);
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
      ctx.set(error.headers);
      ctx.status = page.status;
      ctx.type = page.text.type;
      ctx.body = encodedBody(ctx, page.text.bytes);
    }
  };
}
