/**
 * The HTTP edge's dispatcher: each request routed and validated against the contract
 * (contract-router.ts), handed to its typed handler, and the reply written to Koa. Field errors
 * of the services name their input field; here they get their place in the request
 * (`query.category`), and a not-found its hint in REST terms.
 */
import type Koa from 'koa';
import type { OpenApiDocument } from '../contract.js';
import { scrubValue } from '../catalog/secrets.js';
import { AppError, type Lookup } from '../errors.js';
import type { OperationId } from '../types.js';
import { connectionSignal } from './connection-signal.js';
import { encodedBody, type Body } from '../compression.js';
import { createContractRouter, type Routed } from './contract-router.js';
import type { HandlerInput, HandlerMap, OperationHandler, Reply, TextBody, UnvalidatedOperation } from './operation.js';

/** How a REST caller finds what it looked up and did not find. */
const FIND: Readonly<Record<Lookup, string>> = {
  server: 'Search with GET /api/v1/servers/search?q=…',
  tool: 'Search with GET /api/v1/tools/search?q=…',
};

/** Builds the router and a Koa middleware that dispatches to `handlers`. */
export async function createDispatcher(
  document: OpenApiDocument,
  handlers: HandlerMap,
  options: { unvalidated?: readonly UnvalidatedOperation[]; clientOf?: (ctx: Koa.Context) => string } = {},
): Promise<Koa.Middleware> {
  const router = await createContractRouter(document, { unvalidated: options.unvalidated });
  const clientOf = options.clientOf ?? ((ctx: Koa.Context) => ctx.req.socket.remoteAddress ?? 'unknown');
  return async (ctx) => {
    const headers = flatHeaders(ctx);
    const routed = router.route({ method: ctx.method, path: ctx.path, query: ctx.querystring, headers: () => headers, body: ctx.request.body });
    if (!isOperationId(handlers, routed.operationId)) throw new Error(`no handler for ${routed.operationId}`);
    try {
      writeReply(ctx, await call(handlers, routed.operationId, routed, ctx, headers, clientOf(ctx)));
    } catch (err) {
      throw err instanceof AppError ? inRequestTerms(err, routed) : err;
    }
  };
}

function call<O extends OperationId>(handlers: HandlerMap, operationId: O, routed: Routed, ctx: Koa.Context, headers: Record<string, string>, client: string): Promise<Reply<O>> {
  const handler: OperationHandler<O> = handlers[operationId];
  return handler(inputOf<O>(routed, ctx, headers, client));
}

function isOperationId(handlers: HandlerMap, key: string): key is OperationId {
  return Object.hasOwn(handlers, key);
}

/**
 * The parameters of a validated request. The router validated and coerced them against the
 * same contract the types are generated from, so the shapes hold (path parameters arrive decoded).
 */
function inputOf<O extends OperationId>(routed: Routed, ctx: Koa.Context, headers: Record<string, string>, client: string): HandlerInput<O> {
  // Plain data properties: with a getter for the headers here, under load the server's main
  // thread fell to 60% of its CPU with other threads busy, at half the req/s (measured, cause unknown).
  const input = { query: routed.query, path: routed.path, body: ctx.request.body, headers, client, signal: connectionSignal(ctx.req) };
  return input as unknown as HandlerInput<O>;
}

/** A service's error with each field placed in the request (`query.`, `path.`, `body.`), and a not-found's REST hint. */
function inRequestTerms(error: AppError, routed: Routed): AppError {
  const parameters = routed.operation.parameters ?? [];
  const placeOf = (field: string): string => {
    const name = field.split('.')[0];
    const parameter = parameters.find((p) => 'name' in p && p.name === name);
    if (parameter && 'in' in parameter) return `${parameter.in}.${field}`;
    return routed.operation.requestBody ? `body.${field}` : field;
  };
  const errors = error.errors.map((e) => ({ ...e, location: placeOf(e.location) }));
  const detail = error.code === 'not_found' && error.lookup ? `${error.detail} ${FIND[error.lookup]}` : error.detail;
  if (detail === error.detail && errors.every((e, i) => e.location === error.errors[i]?.location)) return error;
  return new AppError(error.code, detail, errors, error.headers, error.lookup);
}

/** Writes a handler's reply: an answer's bytes as they are, a body scrubbed and serialized here, composed pieces, or a page's text; compressed when the client accepts it. */
function writeReply(ctx: Koa.Context, reply: { readonly status: number; readonly headers?: Readonly<Record<string, string>>; readonly body?: unknown; readonly answer?: { readonly body: Body }; readonly raw?: readonly Buffer[]; readonly text?: TextBody }): void {
  for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.set(name, value);
  if (reply.raw !== undefined) return writeJsonPieces(ctx, reply.status, reply.raw);
  if (reply.text !== undefined) {
    ctx.type = reply.text.type;
    ctx.body = encodedBody(ctx, reply.text.bytes);
    ctx.status = reply.status;
    return;
  }
  const bytes = reply.answer?.body ?? (reply.body === undefined ? undefined : Buffer.from(JSON.stringify(scrubValue(reply.body))));
  if (bytes === undefined) {
    // Koa turns a null body into 204 unless the status is set after it.
    ctx.body = null;
  } else {
    // JSON unless the handler declared a JSON flavour itself.
    if (!/\bjson\b/i.test(ctx.type)) ctx.type = 'json';
    ctx.body = encodedBody(ctx, bytes);
  }
  ctx.status = reply.status;
}

/**
 * A JSON body kept in pieces (a kept MCP result inside its caller's envelope), written as they
 * are: joining them would copy the kept bytes on every request. The middlewares in front have
 * set their headers on the response already.
 */
function writeJsonPieces(ctx: Koa.Context, status: number, pieces: readonly Buffer[]): void {
  ctx.respond = false;
  const res = ctx.res;
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', pieces.reduce((sum, piece) => sum + piece.length, 0));
  // One writev for the headers and every piece: end() uncorks.
  res.cork();
  for (const piece of pieces) res.write(piece);
  res.end();
}

function flatHeaders(ctx: Koa.Context): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}
