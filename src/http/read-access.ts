/**
 * Reads behind a token (READ_ACCESS=token), before any route is dispatched: every request needs
 * an access token with the `read` scope, as `Authorization: Bearer` or through a browser session
 * opened at /login, but for the few stated here. A page asked for without one answers the
 * sign-in form (401); an API route a problem (401, 403 for a token without `read`, 429 for a
 * client that keeps sending wrong tokens).
 */
import type Koa from 'koa';
import type { AccessTokens } from '../auth/access-tokens.js';
import { sessionCookieOf } from '../auth/session-cookie.js';
import { readRefusal } from '../auth/sign-in.js';
import { AppError } from '../errors.js';
import { isPagePath } from '../web/security.js';
import type { WebPages } from '../web/web-pages.js';
import { writeReply } from './reply.js';

/** What needs no token while reads do, stated once. */
export const OPEN_WHILE_PRIVATE: ReadonlyArray<{ readonly rule: string; readonly open: (method: string, path: string) => boolean }> = [
  { rule: 'CORS preflights, which carry no credentials', open: (method) => method === 'OPTIONS' },
  { rule: 'health: /healthz and /readyz', open: (_m, path) => path === '/healthz' || path === '/readyz' },
  { rule: 'signing in and out', open: (_m, path) => path === '/login' || path === '/logout' },
  { rule: "the pages' static files (styles, scripts, icons): nothing of the catalog", open: (_m, path) => path.startsWith('/assets/') },
  { rule: 'publishing and status changes, which check a token with a publish scope themselves', open: (method, path) => (method === 'POST' && path === '/v0.1/publish') || (method === 'PATCH' && /^\/v0\.1\/servers\/[^/]+(\/versions\/[^/]+)?\/status$/.test(path)) },
  { rule: 'the watchlist API, which checks WATCHLIST_TOKEN itself', open: (_m, path) => /^\/api\/v1\/watchlists(\/|$)/.test(path) },
];

export interface ReadAccessOptions {
  readonly mode: 'open' | 'token';
  readonly access: AccessTokens;
  readonly pages: WebPages;
  readonly clientOf: (ctx: Koa.Context) => string;
}

export function readAccess(options: ReadAccessOptions): Koa.Middleware<{ caller?: string }> {
  if (options.mode === 'open') return (_ctx, next) => next();
  const { access, pages } = options;
  return async (ctx, next) => {
    if (OPEN_WHILE_PRIVATE.some((rule) => rule.open(ctx.method, ctx.path))) return next();
    const authorization = ctx.get('authorization');
    const caller = authorization
      ? await access.authenticate(authorization, options.clientOf(ctx))
      : await access.sessionCaller(sessionCookieOf(ctx.get('cookie')));
    const unscoped = caller === null ? null : readRefusal(caller);
    if (caller === null || unscoped !== null) {
      if (!isPagePath(ctx.path)) {
        if (unscoped !== null) throw new AppError('forbidden_scope', unscoped);
        throw new AppError('unauthorized', 'This registry is private: send Authorization: Bearer <token>, with an access token that has the read scope.', [], { 'WWW-Authenticate': 'Bearer' });
      }
      // A page answers the sign-in form itself, so a reader signs in where they are and goes on.
      const next = ctx.method === 'GET' || ctx.method === 'HEAD' ? ctx.originalUrl : '/';
      const page = pages.login(unscoped === null ? { next } : { next, error: unscoped }, 401);
      writeReply(ctx, { status: page.status, text: page.text });
      return;
    }
    ctx.state.caller = caller.name;
    await next();
    // What a reader with a token sees is theirs: no shared cache may keep it for the next one.
    ctx.set('Cache-Control', 'private, no-store');
  };
}
