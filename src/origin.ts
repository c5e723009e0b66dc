/** Origins as browsers send them, and whether one is this service's own. */

/** `value` as a browser serializes an origin (lower case, no default port), or null (also for `null`). */
export function asOrigin(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Whether `origin` is the service's own: `PUBLIC_URL`'s, or that of the request's `Host` (which
 * the app has already checked) over http, or also over https where `https` is allowed (a
 * deployment behind a proxy that ends TLS, without PUBLIC_URL).
 */
export function isOwnOrigin(origin: string, host: string | undefined, publicOrigin: string | null, https = false): boolean {
  const given = asOrigin(origin);
  if (given === null) return false;
  if (given === publicOrigin) return true;
  if (host === undefined) return false;
  return given === asOrigin(`http://${host}`) || (https && given === asOrigin(`https://${host}`));
}
