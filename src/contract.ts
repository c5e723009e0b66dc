/**
 * The contract at run time: `openapi.yaml` loaded once (served at /openapi.json, routed and
 * validated by the HTTP edge, the source of the MCP tools' schemas), a JSON Schema 2020-12
 * validator as OpenAPI 3.1 needs, and the parameter types every edge derives from it.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';
import type { components, operations } from '../generated/openapi.js';
import type { OperationId } from './types.js';

export type OpenApiDocument = components['schemas']['OpenApiDocument'];

const CONTRACT = new URL('../openapi.yaml', import.meta.url);
const addFormats = addFormatsModule.default;

/** Reads and parses `openapi.yaml` from the package root. */
export function loadContract(): OpenApiDocument {
  const document: unknown = parse(readFileSync(CONTRACT, 'utf8'));
  if (!isContract(document)) throw new Error(`${CONTRACT.pathname} is not an OpenAPI 3.1 document`);
  return document;
}

/** Whether `value` looks like an OpenAPI 3.1 document. */
export function isContract(value: unknown): value is OpenApiDocument {
  if (typeof value !== 'object' || value === null) return false;
  const doc: Record<string, unknown> = { ...value };
  return typeof doc.openapi === 'string' && doc.openapi.startsWith('3.1') && typeof doc.paths === 'object' && typeof doc.info === 'object';
}

/** A JSON Schema 2020-12 validator with formats, as OpenAPI 3.1 needs. */
export function createAjv(options: Record<string, unknown> = {}): Ajv2020 {
  const ajv = new Ajv2020({ ...options, strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

type Parameters<O extends OperationId> = operations[O]['parameters'];
/** No parameters of a kind: an object with no keys. */
type Nothing = Record<never, never>;
type OrNothing<T> = [NonNullable<T>] extends [never] ? Nothing : NonNullable<T>;
/** An operation's validated query parameters. */
export type QueryOf<O extends OperationId> = Parameters<O> extends { query?: infer Q } ? OrNothing<Q> : Nothing;
/** An operation's validated path parameters. */
export type PathOf<O extends OperationId> = Parameters<O> extends { path?: infer P } ? OrNothing<P> : Nothing;
