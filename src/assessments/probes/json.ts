/** Reading untyped JSON (RDAP answers, the IANA bootstrap) without casts. */

/** A JSON object. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** Whether `value` is a (non-array) object. */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` if it is an array, else an empty one. */
export function arrayOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The strings of `value` if it is an array (other items dropped), else an empty array. */
export function stringsOf(value: unknown): string[] {
  return arrayOf(value).filter((item): item is string => typeof item === 'string');
}

/** `object[key]` if it is a string, else null. */
export function stringAt(object: unknown, key: string): string | null {
  if (!isObject(object)) return null;
  const value = object[key];
  return typeof value === 'string' ? value : null;
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
