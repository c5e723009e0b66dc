/**
 * Dispatch: each request routed and validated against the contract (contract-router.ts), handed
 * to its typed handler, and the value it returns written by the one writer (reply.ts). A
 * service's error is put in the request's terms (request-terms.ts) on its way to the error
 * middleware.
 */
import { setMaxListeners } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type Koa from 'koa';
import type { OpenApiDocument } from '../contract.js';
import { AppError } from '../errors.js';
import type { OperationId } from '../types.js';
import { createContractRouter, type Routed } from './contract-router.js';
import type { HandlerInput, HandlerMap, OperationHandler, Reply, UnvalidatedOperation } from './operation.js';
import { writeReply } from './reply.js';
import { inRequestTerms } from './request-terms.js';

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
    const routed = router.route({ method: ctx.method, path: ctx.path, query: ctx.querystring, headers: () => headers, body: ctx.request.body }, (operationId) => {
      ctx.state.operation = operationId;
    });
    if (!isOperationId(handlers, routed.operationId)) throw new Error(`no handler for ${routed.operationId}`);
    ctx.state.operation = routed.operationId;
    try {
      writeReply(ctx, await call(handlers, routed.operationId, routed, ctx, headers, clientOf(ctx)));
    } catch (err) {
      throw err instanceof AppError ? inRequestTerms(err, routed.operation) : err;
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
  const input = { query: routed.query, path: routed.path, body: ctx.request.body, headers, client, signal: connectionSignal(ctx.req) };
  return input as unknown as HandlerInput<O>;
}

function flatHeaders(ctx: Koa.Context): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

const signals = new WeakMap<Socket, AbortSignal>();

/**
 * A signal that aborts when a request's connection closes: its client has gone, so work not yet
 * started for it need not start. One per connection (pipelined requests share it), so a
 * connection that sends many requests adds one listener, not one each.
 */
function connectionSignal(req: IncomingMessage): AbortSignal {
  const socket = req.socket;
  let signal = signals.get(socket);
  if (!signal) {
    const controller = new AbortController();
    // A listener per request waiting on this connection (pipelined ones too), each removed when its work is done.
    setMaxListeners(0, controller.signal);
    if (socket.destroyed) controller.abort();
    else socket.once('close', () => controller.abort());
    signals.set(socket, (signal = controller.signal));
  }
  return signal;
}
