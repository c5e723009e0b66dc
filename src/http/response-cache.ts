/**
 * The bytes of catalog reads (issue 7): the response a GET of one of `operations` got, kept
 * per catalog generation under its exact request target, so the same request again skips
 * routing, validation, the handler, the credential scrub and JSON serialization.
 *
 * The request target is a sound key because these operations read nothing but their path and
 * query parameters (no header, cookie or body parameter: the dispatcher checks this at start)
 * and the catalog: the same target validates the same way and gets the same answer until the
 * catalog's generation changes. Only 200 answers are kept, so an invalid request, a 404 or a
 * failure is answered by the dispatcher every time. Headers of the request's own (X-Request-Id,
 * RateLimit) are set by the middlewares in front, hit or miss.
 */
import type Koa from 'koa';
import type { KeptResponses } from '../registry/read-cache.js';
import type { OperationId } from '../types.js';

/** What the dispatcher sent: status, the handler's own headers, and the JSON bytes (none for an empty body). */
export interface SentResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | undefined;
}

export interface ResponseCache {
  /** The operations whose responses are kept. */
  readonly operations: ReadonlySet<OperationId>;
  /** Answers the request from the cache when it can (true); otherwise notes the generation it was looked up in. */
  serve(ctx: Koa.Context): Promise<boolean>;
  /** Keeps what the dispatcher sent, if it is a 200 to a kept operation and the catalog did not change meanwhile. */
  offer(ctx: Koa.Context, operationId: OperationId, response: SentResponse): Promise<void>;
}

export interface ResponseCacheOptions {
  /** The budget responses are kept in (per catalog generation), in a space of their own named `rest`. */
  readonly kept: KeptResponses;
  readonly operations: readonly OperationId[];
}

/** What a kept response weighs beside its key: its body's bytes. */
const sentBytes = (response: SentResponse): number => response.body?.length ?? 0;

export function createResponseCache(options: ResponseCacheOptions): ResponseCache {
  const operations = new Set(options.operations);
  const kept = options.kept.space('rest', sentBytes);
  const { generation } = kept;
  /** The generation each pending request was looked up in. */
  const pending = new WeakMap<Koa.Context, string>();
  return {
    operations,
    async serve(ctx) {
      if (ctx.method !== 'GET') return false;
      const now = await generation();
      if (now === null) return false;
      const hit = kept.get(ctx.url);
      if (hit) {
        writeResponse(ctx, hit);
        return true;
      }
      pending.set(ctx, now);
      return false;
    },
    async offer(ctx, operationId, response) {
      const before = pending.get(ctx);
      pending.delete(ctx);
      if (before === undefined || response.status !== 200 || !operations.has(operationId)) return;
      // Only if the catalog did not change while the response was made.
      if ((await generation()) === before) kept.set(ctx.url, response);
    },
  };
}

/** Writes a dispatched response to Koa: the slow path and the cache both answer through here, so they cannot differ. */
export function writeResponse(ctx: Koa.Context, response: SentResponse): void {
  for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
  if (response.body === undefined) {
    // Koa turns a null body into 204 unless the status is set after it.
    ctx.body = null;
  } else {
    // What Koa does for an object body: JSON unless the handler declared a JSON flavour itself.
    if (!/\bjson\b/i.test(ctx.type)) ctx.type = 'json';
    ctx.body = response.body;
  }
  ctx.status = response.status;
}

/**
 * A 200 whose JSON body is kept in pieces (a kept MCP result inside its caller's envelope),
 * written as they are: Koa sends one body, and joining them would copy the kept bytes on
 * every request. The middlewares in front have set their headers on the response already.
 */
export function writeJsonPieces(ctx: Koa.Context, pieces: readonly Buffer[]): void {
  ctx.respond = false;
  const res = ctx.res;
  // What Koa would send for a JSON body, set on the response directly: Koa's type and length
  // setters (a MIME lookup, a header check each) cost more than the rest of a kept answer.
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', pieces.reduce((sum, piece) => sum + piece.length, 0));
  // One writev for the headers and every piece: end() uncorks.
  res.cork();
  for (const piece of pieces) res.write(piece);
  res.end();
}
