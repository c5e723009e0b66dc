/**
 * Cursors of the registry API's list: opaque to clients, URL-safe (VS Code appends them to the
 * URL unencoded), and stable while the catalog does not change: a cursor names the last entry of
 * the page before (its name and version), and the next page starts after it in the list's order.
 */
import { AppError } from '../errors.js';

export interface CursorPosition {
  readonly name: string;
  readonly version: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.name, position.version]), 'utf8').toString('base64url');
}

/** The position a cursor names; a 400 for anything this service did not give out. */
export function decodeCursor(cursor: string): CursorPosition {
  const bad = (): AppError => new AppError('validation_failed', 'The cursor is not one this registry gave out; start again without it.', [{ location: 'cursor', message: 'must be a nextCursor value from a previous page' }]);
  if (!/^[A-Za-z0-9_-]{1,800}$/.test(cursor)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') throw bad();
  return { name: parsed[0], version: parsed[1] };
}
