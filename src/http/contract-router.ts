/**
 * openapi-backend behind an adapter we own: it routes a request to its operation in the
 * contract and validates and coerces its parameters and body, as `OpenAPIBackend.handleRequest`
 * would (test/unit/contract-router.test.ts checks the two agree). openapi-backend rebuilds its
 * list of operations with lodash several times per request and compiles a RegExp per path
 * template to route one; here the list is read once and each template compiled once. Handlers
 * are ours to call.
 */
import { LRUCache } from 'lru-cache';
import { OpenAPIBackend, type Document, type Operation, type Request, type ValidationResult } from 'openapi-backend';
import { createAjv, type OpenApiDocument } from '../contract.js';
import { AppError, ERROR_TABLE } from '../errors.js';
import type { ErrorCode, ProblemFieldError } from '../types.js';

/** A request as the router reads it: the raw query string; its headers (lower-case names) read only when it must be validated. */
export interface RouterRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  headers(): Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** A routed, validated request: its operation and its coerced parameters. */
export interface Routed {
  readonly operation: Operation;
  readonly operationId: string;
  readonly path: Readonly<Record<string, unknown>>;
  readonly query: Readonly<Record<string, unknown>>;
}

export interface ContractRouter {
  /**
   * Routes and validates `request`: 404, 405 and 400 are thrown as AppErrors. `matched` hears the
   * operation once the route is known, before validation can throw (the log and metrics name it).
   */
  route(request: RouterRequest, matched?: (operationId: string) => void): Routed;
  /** The operation with this id (for the edge's own checks). */
  operation(operationId: string): Operation | undefined;
}

/** openapi-backend checks documents against the 3.0 meta-schema; ours is 3.1, linted by redocly in CI. */
class ContractBackend extends OpenAPIBackend {
  override validateDefinition(): Document {
    return this.document;
  }
}

/**
 * GET targets whose validation is kept: validating a request costs more than answering it from
 * a kept answer, and a GET of an operation that reads no header is validated from its target
 * alone, so the same target is validated once.
 */
const KEPT_TARGETS = 4096;

interface Template {
  readonly operation: Operation;
  readonly pattern: RegExp;
  /** The template's length without its parameters: the more specific template wins. */
  readonly specificity: number;
}

/** openapi-backend over the contract, its request validators compiled. */
async function backendOf(document: OpenApiDocument): Promise<OpenAPIBackend> {
  const api = new ContractBackend({
    definition: documentOf(structuredClone(document)),
    strict: true,
    coerceTypes: true,
    customizeAjv: (_original, ajvOpts) => createAjv({ ...ajvOpts }),
    // Quick: validators are compiled when first used, not all at init. Only the request
    // validators are ever used here (the tests validate responses), so only those are compiled.
    quick: true,
  });
  await api.init();
  api.validator.preCompileRequestValidators();
  return api;
}

export async function createContractRouter(document: OpenApiDocument, options: { readonly unvalidated?: readonly string[] } = {}): Promise<ContractRouter> {
  const unvalidated = new Set(options.unvalidated ?? []);
  const api = await backendOf(document);
  const operations = api.router.getOperations();
  const match = matcherOf(operations);
  const byId = new Map(operations.map((operation) => [operation.operationId ?? '', operation]));

  const validate = (request: RouterRequest, operation: Operation): Routed => {
    const operationId = operation.operationId ?? '';
    // An operation that reads its body in its own protocol and its headers itself (MCP), without
    // path or query parameters: nothing to parse.
    if (unvalidated.has(operationId) && (operation.parameters ?? []).every((p) => 'in' in p && p.in === 'header')) return { operation, operationId, path: {}, query: {} };
    const given = operation.tags?.includes('web') ? withoutEmptyValues(request.query) : request.query;
    const req: Request = { method: request.method, path: request.path, query: given, headers: { ...request.headers() }, body: asBody(request.body) };
    if (unvalidated.has(operationId)) {
      const parsed = api.router.parseRequest(req, operation);
      return { operation, operationId, path: parsed.params, query: parsed.query };
    }
    const validation: ValidationResult<Request> = api.validator.validateRequest(req, operation);
    if (validation.errors) {
      const errors = fieldErrors(validation);
      const parts = `${errors.length} invalid ${errors.length === 1 ? 'part' : 'parts'}`;
      const bodyCode = bodyErrorCode(operation);
      if (bodyCode !== null && errors.every((e) => e.location.startsWith('body'))) throw new AppError(bodyCode, `The request body has ${parts}.`, errors);
      throw new AppError('validation_failed', `The request has ${parts}.`, errors);
    }
    // The validator hands back what it parsed and coerced; an operation it had nothing to check is parsed here.
    const coerced = validation.coerced ?? req;
    if (isRecord(coerced.params) && isRecord(coerced.query)) return { operation, operationId, path: coerced.params, query: coerced.query };
    const parsed = api.router.parseRequest(coerced, operation);
    const query: unknown = typeof coerced.query === 'object' ? coerced.query : parsed.query;
    return { operation, operationId, path: parsed.params, query: isRecord(query) ? query : {} };
  };

  const kept = new LRUCache<string, Routed>({ max: KEPT_TARGETS });
  return {
    route(request, matched) {
      // HEAD is the GET of the same target, its content left out (Koa sends none for HEAD).
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const target = method === 'GET' ? `${request.path}?${request.query}` : null;
      const known = target === null ? undefined : kept.get(target);
      if (known) return known;
      assertDecodablePath(request.path);
      const operation = match(method.toLowerCase(), request.path, request.method);
      matched?.(operation.operationId ?? '');
      const routed = validate(request, operation);
      if (target !== null && !readsHeaders(operation)) kept.set(target, frozen(routed));
      return routed;
    },
    operation: (operationId) => byId.get(operationId),
  };
}

/**
 * A query string less its parameters with an empty value: a page's form sends its "any" choice
 * (`category=`) that way, which means the parameter is not given (the contract says so of pages).
 */
function withoutEmptyValues(query: string): string {
  if (!/(?:^|&)[^&=]+=?(?:&|$)/.test(query)) return query;
  return query.split('&').filter((part) => part !== '' && !/^[^=]*=?$/.test(part)).join('&');
}

/** The operation of `method` (lower case) on `path`, each template compiled once; `asked` is the request's own method, as errors name it. */
function matcherOf(operations: readonly Operation[]): (method: string, path: string, asked: string) => Operation {
  const templates: Template[] = operations
    .map((operation) => ({ operation, pattern: patternOf(operation.path), specificity: operation.path.replace(/\{.*?\}/g, '').length }))
    .sort((a, b) => b.specificity - a.specificity);
  return (method, path, asked) => {
    const normalized = normalizePath(path);
    const exact = operations.find((op) => op.path === normalized && op.method === method);
    if (exact) return exact;
    const matching = templates.filter((t) => t.pattern.test(normalized));
    if (matching.length === 0) throw new AppError('route_not_found', `Nothing is served at ${path}.`);
    const found = matching.find((t) => t.operation.method === method);
    if (found) return found.operation;
    const allowed = [...new Set(matching.flatMap((t) => (t.operation.method === 'get' ? ['GET', 'HEAD'] : [t.operation.method.toUpperCase()])))].join(', ');
    throw new AppError('method_not_allowed', `${asked} is not allowed on ${path}; use ${allowed}.`, [], { Allow: allowed });
  };
}

/** Whether an operation reads request headers (`Prefer`): its validation depends on more than the target. */
function readsHeaders(operation: Operation): boolean {
  return (operation.parameters ?? []).some((p) => 'in' in p && (p.in === 'header' || p.in === 'cookie'));
}

/** A kept result is shared by every request of its target: no handler may change it. */
function frozen(routed: Routed): Routed {
  for (const params of [routed.path, routed.query]) {
    for (const value of Object.values(params)) if (typeof value === 'object' && value !== null) Object.freeze(value);
    Object.freeze(params);
  }
  return Object.freeze(routed);
}

/** Rejects a path that is not valid percent-encoding before the router decodes it. */
function assertDecodablePath(path: string): void {
  try {
    decodeURIComponent(path);
  } catch {
    throw new AppError('validation_failed', 'The request path is not valid percent-encoded UTF-8.', [{ location: 'path', message: 'is not valid percent-encoding' }]);
  }
}

/** As openapi-backend normalizes a path for matching: a leading slash, no trailing ones. */
function normalizePath(path: string): string {
  let out = path.trim();
  if (!out.startsWith('/')) out = `/${out}`;
  while (out.length > 1 && out.endsWith('/')) out = out.slice(0, -1);
  return out;
}

/** A path template as a RegExp: each `{parameter}` one segment. */
function patternOf(template: string): RegExp {
  const literal = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${literal.join('[^/]+')}$`);
}

/** The contract as openapi-backend types it. */
function documentOf(value: unknown): Document {
  if (typeof value !== 'object' || value === null || !('openapi' in value) || !('paths' in value)) throw new Error('not an OpenAPI document');
  return value as Document;
}

/** The body as openapi-backend takes it: parsed JSON, the raw text, or none. */
function asBody(body: unknown): Request['body'] {
  if (body === undefined || body === null || typeof body === 'string' || typeof body === 'object') return body ?? undefined;
  return String(body);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The code of a body that breaks its schema, where the operation's request body names one
 * (`x-invalid-body-code`: a published document, e.g. a server.json, is refused as that document).
 */
function bodyErrorCode(operation: Operation): ErrorCode | null {
  const body: unknown = operation.requestBody;
  if (typeof body !== 'object' || body === null || !('x-invalid-body-code' in body)) return null;
  const code = body['x-invalid-body-code'];
  return typeof code === 'string' && isErrorCode(code) ? code : null;
}

function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_TABLE, value);
}

/** Ajv errors as `{ location: "query.limit", message }`. */
function fieldErrors(validation: ValidationResult): ProblemFieldError[] {
  return (validation.errors ?? []).map((error) => {
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
