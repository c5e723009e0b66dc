/**
 * Response compression, one middleware for every response. Every body the service writes is a
 * Buffer (reply.ts), so it is compressed in one synchronous pass: through a zlib stream, as
 * koa-compress does it, the same bytes cost three to five times the CPU
 * (docs/decisions/read-path.md). A kept answer's compressed form is made once, and a HEAD gets
 * the encoding and length its GET would get. `Vary: Accept-Encoding` goes on every response.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import compressible from 'compressible';
import type Koa from 'koa';

/** Bodies below this size go as they are: compressing them saves less than it costs. */
const THRESHOLD = 1024;
/** Brotli pays for itself on large bodies (registry API pages); gzip serves the rest. */
const BROTLI_FROM = 32 * 1024;
/** Brotli's fastest quality: it still beats gzip's default on size, at a fraction of its time. */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };

const COMPRESS: Readonly<Record<string, (body: Buffer) => Buffer>> = {
  br: (body) => brotliCompressSync(body, BROTLI),
  gzip: (body) => gzipSync(body),
};

/** Compressed forms kept of one body, each for the `Accept-Encoding` it was made for: a few at most. */
const FORMS_PER_BODY = 4;

interface Form {
  readonly encoding: string;
  readonly bytes: Buffer;
}

/** Whether a response may be compressed at all: a body of a compressible type, not yet encoded. */
function compressibleBody(ctx: Koa.Context): ctx is Koa.Context & { body: Buffer } {
  return Buffer.isBuffer(ctx.body) && ctx.body.length >= THRESHOLD && !ctx.response.get('Content-Encoding') && compressible(ctx.response.type) === true;
}

export function compression(): Koa.Middleware {
  /**
   * A kept answer's body is the same Buffer each time it is sent (the read model's cache holds
   * it), so its compressed form is made once and lives exactly as long as the answer does.
   */
  const forms = new WeakMap<Buffer, Map<string, Form>>();
  return async (ctx, next) => {
    await next();
    ctx.vary('Accept-Encoding');
    const accepted = ctx.get('Accept-Encoding');
    if (!accepted || !compressibleBody(ctx)) return;
    const body = ctx.body;
    let form = forms.get(body)?.get(accepted);
    if (!form) {
      // Ours is the order of preference among what the client accepts at all.
      const encoding = (body.length >= BROTLI_FROM ? ['br', 'gzip'] : ['gzip']).find((offer) => ctx.acceptsEncodings(offer) === offer);
      const compress = encoding === undefined ? undefined : COMPRESS[encoding];
      if (encoding === undefined || !compress) return;
      form = { encoding, bytes: compress(body) };
      const kept = forms.get(body) ?? new Map<string, Form>();
      if (kept.size < FORMS_PER_BODY) kept.set(accepted, form);
      forms.set(body, kept);
    }
    ctx.set('Content-Encoding', form.encoding);
    ctx.body = form.bytes;
  };
}
