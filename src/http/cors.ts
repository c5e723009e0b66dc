/**
 * CORS (DESIGN.md "Registry API"): every public GET route (`/v0.1`, the GET routes of `/api`,
 * `/openapi.json`) may be read from any origin, as GitHub documents for registries that Copilot
 * reads; their preflights (the contract's `preflight…` operations) allow `GET` with the
 * `Authorization` and `Content-Type` headers. Everything else (the proxy and assessment POSTs,
 * `/mcp`, the pages) sends no CORS header, so browsers keep other origins out.
 */
import type { Middleware } from 'koa';

/** The public GET routes' paths. */
export const PUBLIC_READS = /^\/(v0\.1\/|api\/|openapi\.json$)/;

/** What a preflight of a public GET route answers. */
export const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Max-Age': '86400',
} as const;

/** `Access-Control-Allow-Origin: *` on every answer to a GET of a public route (errors included). */
export function corsReads(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      if ((ctx.method === 'GET' || ctx.method === 'HEAD') && PUBLIC_READS.test(ctx.path)) ctx.set('Access-Control-Allow-Origin', '*');
    }
  };
}
