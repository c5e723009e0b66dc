/**
 * Signing in to a private registry (READ_ACCESS=token): the form, the session it opens, and
 * signing out. While reads are open to all there is nothing to sign in to: a 404 page.
 */
import type { AccessTokens } from '../../auth/access-tokens.js';
import { clearedSessionCookie, localPath, sessionCookie, sessionCookieOf } from '../../auth/session-cookie.js';
import { signIn } from '../../auth/sign-in.js';
import { AppError } from '../../errors.js';
import type { WebPages } from '../../web/web-pages.js';
import type { HandlerMap } from '../operation.js';

export interface LoginOptions {
  readonly mode: 'open' | 'token';
  /** Whether the deployment is HTTPS (PUBLIC_URL): the cookie is then Secure. */
  readonly secure: boolean;
}

export function loginHandlers(access: AccessTokens, pages: WebPages, options: LoginOptions): Pick<HandlerMap, 'getLoginPage' | 'submitLoginPage' | 'submitLogoutPage'> {
  const private_ = (): void => {
    if (options.mode === 'open') throw new AppError('not_found', 'This registry is open to read: there is nothing to sign in to.');
  };
  return {
    getLoginPage: async ({ query }) => {
      private_();
      return { status: 200, text: pages.login({ next: localPath(query.next) }, 200).text };
    },
    submitLoginPage: async ({ body, client }) => {
      private_();
      const next = localPath(body.next);
      const session = await signIn(access, body.token ?? '', client);
      if (session.kind === 'refused') return { status: 401, text: pages.login({ next, error: session.reason }, 401).text };
      return { status: 303, headers: { Location: next, 'Set-Cookie': sessionCookie(session.value, session.expiresAt, new Date(), options.secure), 'Cache-Control': 'no-store' } };
    },
    submitLogoutPage: async ({ headers }) => {
      private_();
      await access.closeSession(sessionCookieOf(headers.cookie));
      return { status: 303, headers: { Location: '/login', 'Set-Cookie': clearedSessionCookie(options.secure) } };
    },
  };
}
