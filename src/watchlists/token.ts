/** The bearer token watchlist routes need (WATCHLIST_TOKEN), compared in constant time. */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether an `Authorization` header carries `token` as a Bearer token (RFC 6750). Both sides are
 * hashed first, so the comparison takes the same time whatever the lengths.
 */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer +([^\s]+) *$/i.exec(authorization ?? '')?.[1];
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), digest(token));
}

/** Whether a token typed into a form is `token`, compared as `bearerMatches` compares. */
export function tokenMatches(given: string, token: string): boolean {
  return timingSafeEqual(digest(given.trim()), digest(token));
}
