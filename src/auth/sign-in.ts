/**
 * Whether a token typed into the sign-in form (operation submitLoginPage) may open a browser
 * session, and if not, why in words a person reads: the rule is stated here, the handler only
 * shows the answer.
 */
import { AppError } from '../errors.js';
import { mayRead, type AccessTokens, type Caller } from './access-tokens.js';

export type SignIn =
  | { readonly kind: 'session'; readonly value: string; readonly expiresAt: string }
  | { readonly kind: 'refused'; readonly reason: string };

/** Why a known token may not read, or null when it may; read-access.ts says the same to a reader of a page or the API. */
export function readRefusal(caller: Caller): string | null {
  return mayRead(caller) ? null : `The token "${caller.name}" may not read this registry: it lacks the read scope.`;
}

/**
 * Opens a session for a token with the read scope; refuses an unknown, revoked, expired or
 * unscoped one. A client that keeps sending wrong tokens is refused as `authenticate` does
 * (AppError `too_many_failures`, thrown).
 */
export async function signIn(access: AccessTokens, token: string, client: string): Promise<SignIn> {
  const caller = await access.authenticateToken(token, client).catch((err: unknown) => {
    if (err instanceof AppError && err.code === 'unauthorized') return null;
    throw err;
  });
  if (caller === null) return { kind: 'refused', reason: 'That token is not one this registry knows, or it was revoked or has expired.' };
  const refusal = readRefusal(caller);
  if (refusal !== null) return { kind: 'refused', reason: refusal };
  return { kind: 'session', ...(await access.openSession(caller)) };
}
