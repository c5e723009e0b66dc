/**
 * Cursors of the registry API's list: opaque to clients, URL-safe (VS Code appends them to the
 * URL unencoded), and stable while the catalog does not change: a cursor names the last entry of
 * the page before (its name and version), and the next page starts after it in the list's order
 * (a search's list by name, where it could not be ranked, says so: it goes on by name).
 */
import { AppError } from '../errors.js';

export interface CursorPosition {
  readonly name: string;
  readonly version: string;
  /** A search's list that went by name, not ranked: it goes on so. */
  readonly byName?: boolean;
}

/** The third element of a cursor of a search's list by name. */
const BY_NAME = 'name';

export function encodeCursor(position: CursorPosition): string {
  const fields = position.byName ? [position.name, position.version, BY_NAME] : [position.name, position.version];
  return Buffer.from(JSON.stringify(fields), 'utf8').toString('base64url');
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
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') throw bad();
  if (parsed.length === 3 && parsed[2] === BY_NAME) return { name: parsed[0], version: parsed[1], byName: true };
  if (parsed.length !== 2) throw bad();
  return { name: parsed[0], version: parsed[1] };
}
