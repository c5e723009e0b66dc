/**
 * Who may use watchlists, before a watchlist request is routed or its body read: while
 * WATCHLIST_TOKEN is unset every watchlist route (API and page) is a 404 `watchlists_off`;
 * otherwise the API routes need `Authorization: Bearer <token>` (401 `unauthorized`). The page
 * needs no token: a browser cannot send one from a link, so its random id is what admits a reader.
 */
import type Koa from 'koa';
import { AppError } from '../errors.js';
import { bearerMatches } from '../watchlists/token.js';

const API = /^\/api\/v1\/watchlists(\/|$)/;
const PAGE = /^\/watchlists(\/|$)/;

export function watchlistGate(token: string | null): Koa.Middleware {
  return async (ctx, next) => {
    const api = API.test(ctx.path);
    if (!api && !PAGE.test(ctx.path)) return next();
    if (token === null) {
      throw new AppError('watchlists_off', 'Watchlists are off on this deployment. An operator turns them on by setting WATCHLIST_TOKEN (16 characters or more) and restarting; callers then send it as Authorization: Bearer <token>.');
    }
    if (api && !bearerMatches(ctx.get('authorization'), token)) {
      throw new AppError('unauthorized', 'Watchlist routes need Authorization: Bearer <token>, with the token the operator set in WATCHLIST_TOKEN.', [], { 'WWW-Authenticate': 'Bearer' });
    }
    return next();
  };
}
