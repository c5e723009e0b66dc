/**
 * How a watchlist's webhook is signed (the contract's `watchlistRun` webhook): HMAC-SHA256,
 * keyed with the watchlist's secret, of `<unix seconds>.<raw body>`, sent as `sha256=<hex>`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new signing secret: 32 random bytes, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The `X-Sextant-Signature` value of `body` sent at `timestamp` (Unix seconds). */
export function signatureOf(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** Whether `signature` is the one of `body` at `timestamp`, compared in constant time (what a receiver does). */
export function signatureMatches(secret: string, timestamp: number, body: string, signature: string): boolean {
  const expected = Buffer.from(signatureOf(secret, timestamp, body));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
