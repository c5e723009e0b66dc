/** The browser session's cookie (`sextant_session`) and the pages a sign-in may go on to. */
import { parse } from 'cookie';

export const SESSION_COOKIE = 'sextant_session';

/** The cookie that holds a session until `expiresAt`: never readable by scripts, never sent from another site. */
export function sessionCookie(value: string, expiresAt: string, now: Date, secure: boolean): string {
  const seconds = Math.max(0, Math.floor((Date.parse(expiresAt) - now.getTime()) / 1000));
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${seconds}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The session cookie's value in a `Cookie` header, if any. */
export function sessionCookieOf(header: string | undefined): string | undefined {
  return header === undefined ? undefined : parse(header)[SESSION_COOKIE];
}

/** A path of this site to go on to after signing in; `/` for anything else (another site, `//host`, `/\host`). */
export function localPath(next: string | undefined): string {
  return next !== undefined && /^\/(?![/\\])[^\s\\]*$/.test(next) && next.length <= 2000 ? next : '/';
}
