/**
 * openapi-backend over the contract: it routes and validates every request (OpenAPI 3.1, so
 * JSON Schema 2020-12) and dispatches to the typed handlers.
 */
import type Koa from 'koa';
import { LRUCache } from 'lru-cache';
import { OpenAPIBackend, type Context, type Document, type Operation, type Request } from 'openapi-backend';
import { createAjv, isContract, type OpenApiDocument } from '../contract.js';
import { AppError } from '../errors.js';
import { scrubValue } from '../catalog/secrets.js';
import { clientAddress } from './client-address.js';
import { writeJsonPieces, writeResponse, type ResponseCache } from './response-cache.js';
import type { OperationId, ProblemFieldError } from '../types.js';
import type { HandlerInput, HandlerMap, OperationHandler, Reply, UnvalidatedOperation } from './operation.js';

/** Builds the openapi-backend router/validator and a Koa middleware that dispatches to `handlers`. */
export async function createDispatcher(
  document: OpenApiDocument,
  handlers: HandlerMap,
  options: {
    unvalidated?: readonly UnvalidatedOperation[];
    trustProxyHops?: number;
    responses?: ResponseCache;
    /** Answers a request before routing when it can (a kept MCP call): its JSON bytes in pieces, or null. */
    early?: (ctx: Koa.Context) => Promise<readonly Buffer[] | null>;
  } = {},
): Promise<{ api: OpenAPIBackend; middleware: Koa.Middleware }> {
  if (!isContract(document)) throw new Error('not an OpenAPI 3.1 document');
  const unvalidated = new Set<string>(options.unvalidated ?? []);
  const api = new OpenAPIBackend({
    definition: structuredClone(document),
    strict: true,
    coerceTypes: true,
    // Operations that answer malformed input in their own protocol (JSON-RPC at /mcp) validate it themselves.
    validate: (c: Context) => !unvalidated.has(c.operation.operationId ?? ''),
    customizeAjv: (_original, ajvOpts) => createAjv({ ...ajvOpts }),
  });
  // openapi-backend checks documents against the 3.0 meta-schema; ours is 3.1, linted by redocly in CI.
  api.validateDefinition = () => api.document;
  await api.init();
  memoizeRouting(api);

  api.register({
    notFound: (c: Context) => {
      throw new AppError('route_not_found', `No route ${c.request.method.toUpperCase()} ${c.request.path}.`);
    },
    methodNotAllowed: (c: Context) => {
      const allowed = allowedMethods(api, c.request.path);
      throw new AppError('method_not_allowed', `${c.request.method.toUpperCase()} is not allowed on ${c.request.path}; use ${allowed}.`, [], { Allow: allowed });
    },
    validationFail: (c: Context) => {
      const errors = fieldErrors(c);
      throw new AppError('validation_failed', `The request has ${errors.length} invalid ${errors.length === 1 ? 'part' : 'parts'}.`, errors);
    },
  });
  if (options.responses) assertKeyedByTarget(api, options.responses.operations);
  const registerOne = <O extends OperationId>(operationId: O): void => {
    api.register(operationId, bind<O>(operationId, handlers[operationId], options.trustProxyHops ?? 0, options.responses));
  };
  for (const operationId of Object.keys(handlers).filter(isOperationId(handlers))) registerOne(operationId);

  const middleware: Koa.Middleware = async (ctx) => {
    if (await options.responses?.serve(ctx)) return;
    const early = await options.early?.(ctx);
    if (early) return writeJsonPieces(ctx, early);
    assertDecodablePath(ctx.path);
    await api.handleRequest({ method: ctx.method, path: ctx.path, query: ctx.querystring, headers: flatHeaders(ctx), body: ctx.request.body }, ctx);
  };
  return { api, middleware };
}

/** How many (method, path) pairs keep their matched operation: paths carry ids, so they are many. */
const ROUTE_MEMO_SIZE = 10_000;

/**
 * openapi-backend rebuilds its list of operations from the document (lodash over every path)
 * several times per request, and compiles a RegExp per path template to match one. The
 * document does not change after init, so the list is built once, and the operation a method
 * and path matched is remembered; failures (404, 405) are not, they throw as before.
 */
function memoizeRouting(api: OpenAPIBackend): void {
  const router = api.router;
  const operations = router.getOperations();
  router.getOperations = () => operations;
  const match = router.matchOperation.bind(router);
  const matched = new LRUCache<string, Operation>({ max: ROUTE_MEMO_SIZE });
  function matchOperation(req: Request): Operation | undefined;
  function matchOperation(req: Request, strict: boolean): Operation;
  function matchOperation(req: Request, strict = false): Operation | undefined {
    const key = `${req.method} ${req.path}`;
    const known = matched.get(key);
    if (known) return known;
    const operation = match(req, strict);
    if (operation) matched.set(key, operation);
    return operation;
  }
  router.matchOperation = matchOperation;
}

function isOperationId(handlers: HandlerMap) {
  return (key: string): key is OperationId => Object.hasOwn(handlers, key);
}

/** Adapts a typed handler to openapi-backend: validated parameters in, reply written to Koa (and offered to the response cache). */
function bind<O extends OperationId>(operationId: O, handler: OperationHandler<O>, trustProxyHops: number, responses: ResponseCache | undefined) {
  return async (c: Context, ctx: Koa.Context): Promise<void> => {
    const reply: Reply<O> = await handler(inputOf<O>(c, ctx, clientAddress(ctx, trustProxyHops)));
    const sent = { status: Number(reply.status), headers: reply.headers ?? {}, body: serialize(reply) };
    writeResponse(ctx, sent);
    await responses?.offer(ctx, operationId, sent);
  };
}

/** The reply's body as JSON bytes, scrubbed: credentials were removed at ingest; removed again here, at the edge, whatever the route. */
function serialize(reply: { readonly body?: unknown; readonly json?: string; readonly raw?: Buffer }): Buffer | undefined {
  if (reply.raw !== undefined) return reply.raw;
  if (reply.body === undefined) return undefined;
  const scrubbed = scrubValue(reply.body);
  // The handler's own JSON stands only for a body scrubValue leaves as it is (one it made).
  return Buffer.from(reply.json !== undefined && scrubbed === reply.body ? reply.json : JSON.stringify(scrubbed));
}

/**
 * The response cache keys a request by its target alone: refuse at start an operation whose
 * answer could also depend on a header, a cookie or a body.
 */
function assertKeyedByTarget(api: OpenAPIBackend, operationIds: ReadonlySet<OperationId>): void {
  for (const operationId of operationIds) {
    const operation = api.router.getOperation(operationId);
    const onlyPathAndQuery = (operation?.parameters ?? []).every((p) => 'in' in p && (p.in === 'path' || p.in === 'query'));
    if (operation?.method !== 'get' || operation.requestBody !== undefined || !onlyPathAndQuery) {
      throw new Error(`${operationId} cannot have its responses cached: it is not a GET of path and query parameters only`);
    }
  }
}

/**
 * The parameters of a validated request. openapi-backend validated and coerced them against the
 * same contract the types are generated from, so the shapes hold (path parameters arrive decoded).
 */
function inputOf<O extends OperationId>(c: Context, ctx: Koa.Context, client: string): HandlerInput<O> {
  const query: unknown = c.validation?.coerced?.query ?? c.request.query;
  const input = { query, path: c.request.params, body: ctx.request.body, headers: flatHeaders(ctx), client };
  return input as unknown as HandlerInput<O>;
}

/** Rejects a path that is not valid percent-encoding before the router tries to decode it. */
function assertDecodablePath(path: string): void {
  try {
    decodeURIComponent(path);
  } catch {
    throw new AppError('validation_failed', 'The request path is not valid percent-encoded UTF-8.', [{ location: 'path', message: 'is not valid percent-encoding' }]);
  }
}

function flatHeaders(ctx: Koa.Context): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

function allowedMethods(api: OpenAPIBackend, path: string): string {
  const methods = api.router
    .getOperations()
    .filter((op) => new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`).test(path))
    .map((op) => op.method.toUpperCase());
  return [...new Set(methods)].join(', ');
}

/** Ajv errors as `{ location: "query.limit", message }`. */
function fieldErrors(c: Context): ProblemFieldError[] {
  return (c.validation?.errors ?? []).map((error) => {
    // openapi-backend names the body `requestBody`; callers know it as `body`.
    const segments = error.instancePath.split('/').filter(Boolean).map((segment, i) => (i === 0 && segment === 'requestBody' ? 'body' : segment));
    const missing = typeof error.params.missingProperty === 'string' ? error.params.missingProperty : null;
    const unknown = typeof error.params.additionalProperty === 'string' ? error.params.additionalProperty : null;
    if (missing ?? unknown) segments.push(missing ?? unknown ?? '');
    const location = segments.join('.') || 'request';
    const allowed = Array.isArray(error.params.allowedValues) ? `must be one of: ${error.params.allowedValues.join(', ')}` : null;
    return { location, message: unknown ? 'is not a parameter of this operation' : (allowed ?? error.message ?? 'is invalid') };
  });
}
