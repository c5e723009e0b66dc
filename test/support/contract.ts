/**
 * Validates every response the tests receive against openapi.yaml: the status must be declared
 * for the operation (or `default`), the media type must be one it declares, the body must match
 * its schema and required headers must be present. Unrouted responses must be problems, but
 * for unknown pages outside the API paths, which are the web's 404 page.
 */
import type { ValidateFunction } from 'ajv';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { createAjv, loadContract } from '../../src/contract.js';
import { isPagePath } from '../../src/web/security.js';

export interface ObservedResponse {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

interface MediaObject { schema?: unknown }
interface HeaderObject { required?: boolean; schema?: { type?: string } }
interface ResponseObject { content?: Record<string, MediaObject>; headers?: Record<string, HeaderObject> }

const document = loadContract();
const api = new OpenAPIBackend({ definition: structuredClone(document) as unknown as Document, validate: false });
api.validateDefinition = () => api.document;
const ready = api.init();
const ajv = createAjv();
const compiled = new Map<string, ValidateFunction>();

function validatorFor(key: string, schema: unknown): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema as object);
    compiled.set(key, validate);
  }
  return validate;
}

/** Returns the list of mismatches; empty when the response honours the contract. */
export async function contractViolations(res: ObservedResponse): Promise<string[]> {
  await ready;
  const problems: string[] = [];
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  if (!res.headers.get('x-request-id')) problems.push('X-Request-Id header is missing');
  // HEAD is answered as the GET of the same target, without content (RFC 9110; the contract's description).
  const head = res.method.toUpperCase() === 'HEAD';
  if (head && res.body !== null && res.body !== '') problems.push('HEAD answered with content');
  const operation = api.router.matchOperation({ method: head ? 'GET' : res.method, path: res.path, headers: {} });
  // A Host the deployment does not answer to is refused before any route or page: a problem everywhere.
  if (!operation && isPagePath(res.path) && !(res.status === 403 && mediaType === 'application/problem+json')) {
    // An unknown page (outside /api, /v0.1, /mcp, /openapi.json): the web tag's 404 page.
    if (res.status !== 404 && res.status !== 405) problems.push(`unrouted page answered ${res.status}, not 404`);
    if (mediaType !== 'text/html') problems.push(`unrouted page has media type ${mediaType}, not text/html`);
    if (!res.headers.get('content-security-policy')) problems.push('unrouted page has no Content-Security-Policy');
    return problems;
  }
  if (!operation) {
    if (mediaType !== 'application/problem+json') problems.push(`unrouted response has media type ${mediaType}, not problem+json`);
    const validate = validatorFor('Problem', (api.definition as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas.Problem);
    if (!head && !validate(res.body)) problems.push(`unrouted problem body: ${ajv.errorsText(validate.errors)}`);
    return problems;
  }
  const responses = operation.responses as Record<string, ResponseObject>;
  const declared = responses[String(res.status)] ?? responses.default;
  if (!declared) return [`${operation.operationId} does not declare status ${res.status}`];
  const media = declared.content?.[mediaType];
  if (declared.content === undefined) {
    if (res.body !== null && res.body !== '') problems.push(`${operation.operationId} ${res.status} declares no body but one was sent`);
  } else if (!media) {
    problems.push(`${operation.operationId} ${res.status} does not declare media type "${mediaType}"`);
  } else if (!head) {
    const validate = validatorFor(`${operation.operationId}:${res.status}:${mediaType}`, media.schema);
    if (!validate(res.body)) problems.push(`${operation.operationId} ${res.status} body: ${ajv.errorsText(validate.errors)}`);
  }
  for (const [name, header] of Object.entries(declared.headers ?? {})) {
    const value = res.headers.get(name);
    if (value === null) {
      if (header.required) problems.push(`${operation.operationId} ${res.status} is missing required header ${name}`);
    } else if (header.schema?.type === 'integer' && !/^\d+$/.test(value)) {
      problems.push(`${operation.operationId} ${res.status} header ${name} is not an integer: ${value}`);
    }
  }
  return problems;
}
