/** Reading untyped JSON without casts: the few guards every module that parses JSON needs. */

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** Whether `value` is a (non-array) object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` if it is an object, else an empty one. */
export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

/** `value` if it is an array, else an empty one. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Parses JSON text, or returns undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    return undefined;
  }
}

/**
 * The JSON text of a `T`, made from parts each scrubbed of credentials as it entered (the stored
 * documents and blocks of the registry API): an answer sends it as it is, not parsed and written again.
 */
export class JsonText<T> {
  /** Never set: it ties the text to its type. */
  declare private readonly of?: T;

  constructor(readonly text: string) {}
}
