/**
 * Response compression, one middleware for every response: koa-compress negotiates and
 * compresses (gzip; brotli for large bodies) bodies of a kilobyte or more, with
 * `Vary: Accept-Encoding`. Around it, the compressed body is held whole so it goes with a
 * Content-Length, and a HEAD is told the encoding and length its GET would get.
 */
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { constants } from 'node:zlib';
import type Koa from 'koa';
import compress from 'koa-compress';

/** Bodies below this size go as they are: compressing them saves less than it costs. */
const THRESHOLD = 1024;
/** Brotli pays for itself on large bodies (registry API pages); gzip serves the rest. */
const BROTLI_FROM = 32 * 1024;
/** Brotli's fastest quality: every response is compressed as it goes, and it still beats gzip's default on size. */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };

export function compression(): Koa.Middleware {
  const negotiated = compress({
    threshold: THRESHOLD,
    br: (_type, size) => (size >= BROTLI_FROM ? BROTLI : false),
    deflate: false,
    zstd: false,
  });
  return async (ctx, next) => {
    // A client that accepts no encoding gets none (koa-compress's default): it skips the negotiation.
    if (!ctx.get('Accept-Encoding')) {
      ctx.vary('Accept-Encoding');
      return next();
    }
    const head = ctx.method === 'HEAD';
    // koa-compress leaves HEAD alone; compressed as its GET, it carries the GET's headers.
    await negotiated(ctx, async () => {
      await next();
      if (head) ctx.method = 'GET';
    });
    if (head) ctx.method = 'HEAD';
    if (ctx.response.get('Content-Encoding') && isStream(ctx.body)) ctx.body = await buffer(ctx.body);
  };
}

function isStream(body: unknown): body is Readable {
  return typeof body === 'object' && body !== null && 'pipe' in body;
}
