/** Reading untyped JSON (RDAP answers, the IANA bootstrap) without casts. */

import { asArray, isObject } from '../../json.js';

export { isObject, parseJson, type JsonObject } from '../../json.js';

/** `value` if it is an array, else an empty one. */
export const arrayOf: (value: unknown) => readonly unknown[] = asArray;

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
