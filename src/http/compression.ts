/**
 * Response compression, one middleware for every response: koa-compress negotiates and
 * compresses (gzip; brotli for large bodies) bodies of a kilobyte or more, with
 * `Vary: Accept-Encoding`. Around it, the compressed body is held whole so it goes with a
 * Content-Length, a kept answer's compressed form is made once, and a HEAD is told the encoding
 * and length its GET would get.
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

/** Compressed forms kept of one body, each for the `Accept-Encoding` it was made for: a few at most. */
const FORMS_PER_BODY = 4;

interface Form {
  readonly encoding: string;
  readonly bytes: Buffer;
}

export function compression(): Koa.Middleware {
  const negotiated = compress({
    threshold: THRESHOLD,
    br: (_type, size) => (size >= BROTLI_FROM ? BROTLI : false),
    deflate: false,
    zstd: false,
  });
  /**
   * A kept answer's body is the same Buffer each time it is sent (the read model's cache holds
   * it), so its compressed form is made once and lives exactly as long as the answer does.
   */
  const forms = new WeakMap<Buffer, Map<string, Form>>();
  return async (ctx, next) => {
    const accepted = ctx.get('Accept-Encoding');
    // A client that accepts no encoding gets none (koa-compress's default): it skips the negotiation.
    if (!accepted) {
      ctx.vary('Accept-Encoding');
      return next();
    }
    const head = ctx.method === 'HEAD';
    let body: Buffer | null = null;
    // koa-compress leaves HEAD alone; compressed as its GET, it carries the GET's headers.
    await negotiated(ctx, async () => {
      await next();
      if (head) ctx.method = 'GET';
      if (!Buffer.isBuffer(ctx.body)) return;
      const form = forms.get(ctx.body)?.get(accepted);
      if (form) {
        ctx.compress = false;
        ctx.set('Content-Encoding', form.encoding);
        ctx.body = form.bytes;
      } else {
        body = ctx.body;
      }
    });
    if (head) ctx.method = 'HEAD';
    const encoding = ctx.response.get('Content-Encoding');
    if (!encoding || !isStream(ctx.body)) return;
    const bytes = await buffer(ctx.body);
    ctx.body = bytes;
    if (body === null) return;
    const kept = forms.get(body) ?? new Map<string, Form>();
    if (kept.size < FORMS_PER_BODY) kept.set(accepted, { encoding, bytes });
    forms.set(body, kept);
  };
}

function isStream(body: unknown): body is Readable {
  return typeof body === 'object' && body !== null && 'pipe' in body;
}
