/**
 * The exact text of a JSON-RPC request's id when JSON.parse cannot hold it: an integer beyond
 * 2^53 comes back from JSON.parse rounded (…993 → …992), and a client matches answers by id.
 * An adapter over lossless-json, which keeps every number's source text (JSON.parse's
 * `context.source` needs Node 21).
 */
import { isLosslessNumber, parse } from 'lossless-json';
import { isObject } from '../json.js';

/** An integer as JSON writes it: no fraction, no exponent. */
const INTEGER = /^-?(?:0|[1-9]\d*)$/;

/**
 * Whether `id` (as JSON.parse read it) needs its source text to be echoed exactly: a number
 * that is not a safe integer.
 */
export function needsExactId(id: unknown): id is number {
  return typeof id === 'number' && !Number.isSafeInteger(id);
}

/**
 * The top-level `id` of the JSON object in `text` as written, when it is an integer; null when
 * it is not one as written (a fraction or an exponent), or the text cannot be read again.
 */
export function exactIdText(text: string): string | null {
  let message: unknown;
  try {
    message = parse(text);
  } catch {
    // lossless-json refuses what JSON.parse takes last (a duplicate key with another value), and recurses on nesting.
    return null;
  }
  const id = isObject(message) ? message.id : undefined;
  return isLosslessNumber(id) && INTEGER.test(id.value) ? id.value : null;
}
