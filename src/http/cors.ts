/**
 * CORS (DESIGN.md "Registry API"): every public GET route (`/v0.1`, the GET routes of `/api`,
 * `/openapi.json`) may be read from any origin, as GitHub documents for registries that Copilot
 * reads; @koa/cors sets `Access-Control-Allow-Origin: *` on those answers, errors included. Their
 * preflights are the contract's `preflight…` operations (validated and rate limited like any
 * route), answered with PREFLIGHT_HEADERS. Everything else (the proxy and assessment POSTs,
 * `/mcp`, the pages) sends no CORS header, so browsers keep other origins out.
 */
import cors from '@koa/cors';
import type { Middleware } from 'koa';

/** The public GET routes' paths. */
const PUBLIC_READS = /^\/(v0\.1\/|api\/|openapi\.json$)/;

/** What a preflight of a public GET route answers. */
export const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Max-Age': '86400',
} as const;

/** `Access-Control-Allow-Origin: *` on every answer to a GET (or HEAD) of a public route; the headers it sets stay on an error's answer. */
export function corsReads(): Middleware {
  return cors({
    origin: (ctx) => ((ctx.method === 'GET' || ctx.method === 'HEAD') && PUBLIC_READS.test(ctx.path) ? '*' : ''),
    keepHeadersOnError: false,
  });
}
