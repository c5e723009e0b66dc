/**
 * Per-client rate limit of a surface (the discovery routes, the pages, the proxy: DESIGN.md
 * "Errors, limits, headers"), with the IETF `RateLimit-Policy` / `RateLimit` headers and
 * `Retry-After` on 429.
 */
import type Koa from 'koa';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Limiter, RateLimiterSpec } from '../store/index.js';
import { AppError } from '../errors.js';

const WINDOW_SECONDS = 60;

export interface RateLimitOptions {
  /** The policy's name in the headers, e.g. `discovery`. */
  readonly policy: string;
  /** Requests per minute per client; 0 turns the limit off. */
  readonly perMinute: number;
  /** Who a request counts against (client-address.ts). */
  readonly clientOf: (ctx: Koa.Context) => string;
  /** Which requests count, by path. */
  readonly applies: (path: string) => boolean;
  /** Makes the limiter: the store's, so instances on one database share the counts. */
  readonly limiter: (spec: RateLimiterSpec) => Limiter;
}

export function rateLimit(options: RateLimitOptions): Koa.Middleware {
  if (options.perMinute <= 0) return (_ctx, next) => next();
  const name = options.policy;
  const limiter = options.limiter({ keyPrefix: name, points: options.perMinute, duration: WINDOW_SECONDS });
  const policy = `"${name}";q=${options.perMinute};w=${WINDOW_SECONDS}`;
  return async (ctx, next) => {
    if (!options.applies(ctx.path)) return next();
    let result: RateLimiterRes;
    try {
      result = await limiter.consume(options.clientOf(ctx));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new AppError('rate_limited', `The ${name} rate limit of ${options.perMinute} requests a minute is reached; retry in ${seconds} s.`, [], {
        'Retry-After': String(seconds),
        'RateLimit-Policy': policy,
        RateLimit: `"${name}";r=0;t=${seconds}`,
      });
    }
    // Several policies may apply to one route (discovery and proxy): each adds its own list member.
    ctx.append('RateLimit-Policy', policy);
    ctx.append('RateLimit', `"${name}";r=${result.remainingPoints};t=${Math.ceil(result.msBeforeNext / 1000)}`);
    return next();
  };
}
