/**
 * JSON Schemas for the MCP tools, derived from the OpenAPI contract so the two cannot drift:
 * a tool's input schema is its operation's parameters, its output schema the operation's 200
 * body, each standalone (JSON Schema 2020-12, declared in `$schema`, with the components it
 * needs under `$defs`).
 */
import type { OpenApiDocument } from '../contract.js';
import { asArray, asObject, type JsonObject } from '../json.js';
import type { JsonSchemaObject, OperationId } from '../types.js';

type Json = JsonObject;

const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;
/**
 * The dialect every tool schema declares: OpenAPI 3.1's own (it uses `unevaluatedProperties`
 * and `$defs`), and the default of MCP 2025-11-25 ("JSON Schema Usage"); a client that honours
 * `$schema` picks a 2020-12 validator instead of guessing draft-07.
 */
export const TOOL_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export interface OperationSchemas {
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema: JsonSchemaObject;
}

/**
 * The input and output schemas of one operation of the contract: its input is its request body
 * when it has one, else its query and path parameters (headers are the transport's, not the
 * tool's); its output is the body of its success answer.
 */
export function operationSchemas(document: OpenApiDocument, operationId: OperationId): OperationSchemas {
  const operation = findOperation(document, operationId);
  const components = asObject(asObject(document).components);
  const requestBody = asObject(asObject(asObject(asObject(operation.requestBody).content)['application/json']).schema);
  const input: Json = Object.keys(requestBody).length > 0 ? rewriteRefs(inlined(requestBody, components)) : parameterSchema(operation, components);
  const responses = asObject(operation.responses);
  const success = asObject(responses['200'] ?? responses['201']);
  const body = asObject(asObject(asObject(success.content)['application/json']).schema);
  const output: Json = { type: 'object', ...rewriteRefs(body) };
  const schemas = asObject(components.schemas);
  return { inputSchema: withDefs(input, schemas), outputSchema: withDefs(output, schemas) };
}

/** A schema that is only a reference to a component, as the component itself (a tool's input is an object at its root). */
function inlined(schema: Json, components: Json): Json {
  const name = typeof schema.$ref === 'string' ? COMPONENT_REF.exec(schema.$ref)?.[1] : undefined;
  return name === undefined ? schema : asObject(asObject(components.schemas)[name]);
}

function parameterSchema(operation: Json, components: Json): Json {
  const parameters = asArray(operation.parameters).map((parameter) => resolveParameter(parameter, components)).filter((parameter) => parameter.in !== 'header');
  const properties: Json = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    const name = String(parameter.name);
    properties[name] = { ...rewriteRefs(asObject(parameter.schema)), ...(parameter.description ? { description: parameter.description } : {}) };
    if (parameter.required === true) required.push(name);
  }
  return { type: 'object', properties, additionalProperties: false, ...(required.length > 0 ? { required } : {}) };
}

function findOperation(document: OpenApiDocument, operationId: OperationId): Json {
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(asObject(item))) {
      if (asObject(operation).operationId === operationId) return asObject(operation);
    }
  }
  throw new Error(`operation ${operationId} is not in the contract`);
}

function resolveParameter(parameter: unknown, components: Json): Json {
  const ref = asObject(parameter).$ref;
  if (typeof ref !== 'string') return asObject(parameter);
  const name = ref.replace('#/components/parameters/', '');
  return asObject(asObject(components.parameters)[name]);
}

/** `#/components/schemas/X` → `#/$defs/X`, throughout a schema. */
function rewriteRefs(value: unknown): Json {
  return asObject(rewrite(value));
}

function rewrite(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewrite);
  if (typeof value !== 'object' || value === null) return value;
  const out: Json = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof field === 'string' ? field.replace(COMPONENT_REF, '#/$defs/$1') : rewrite(field);
  }
  return out;
}

/** Adds the component schemas a schema reaches, and only those, under `$defs`. */
function withDefs(schema: Json, components: Json): JsonSchemaObject {
  const defs: Json = {};
  const pending = refsIn(schema);
  while (pending.length > 0) {
    const name = pending.pop();
    if (name === undefined || name in defs) continue;
    const component = rewriteRefs(components[name]);
    defs[name] = component;
    pending.push(...refsIn(component));
  }
  return { $schema: TOOL_SCHEMA_DIALECT, type: 'object', ...schema, ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}) };
}

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, field]) =>
    key === '$ref' && typeof field === 'string' && field.startsWith('#/$defs/') ? [field.slice('#/$defs/'.length)] : refsIn(field),
  );
}

