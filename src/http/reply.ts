/**
 * The one writer at the edge: a reply's status, headers and body to Koa. A JSON body goes
 * through the read model's encoder (an answer's bytes as they are, any other value scrubbed and
 * serialized); a page or a static file as its bytes. Compression is the middleware's, after.
 */
import type Koa from 'koa';
import { encode } from '../read/answer.js';
import type { TextBody } from '../read/answer-cache.js';

export interface WrittenReply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body: an answer, or a value. */
  readonly body?: unknown;
  /** The JSON body's media type when it is not plain JSON (problem+json). */
  readonly type?: string;
  /** A body in another media type (a page, a static file). */
  readonly text?: TextBody | undefined;
}

export function writeReply(ctx: Koa.Context, reply: WrittenReply): void {
  ctx.set({ ...reply.headers });
  if (reply.text !== undefined) {
    ctx.type = reply.text.type;
    ctx.body = reply.text.bytes;
  } else if (reply.body === undefined) {
    // Koa turns a null body into 204 unless the status is set after it.
    ctx.body = null;
  } else {
    ctx.set('Content-Type', reply.type === undefined ? 'application/json; charset=utf-8' : `${reply.type}; charset=utf-8`);
    ctx.body = encode(reply.body);
  }
  ctx.status = reply.status;
}
