/**
 * The sign-in page of a registry that needs a token to read (READ_ACCESS=token): the access
 * token, sent once with this form, opens a session kept in an HttpOnly cookie. It is what every
 * page answers until then, so `next` brings the reader back to the page they asked for.
 */
import type { AssetCatalog } from '../assets.js';
import { Layout } from '../layout.js';

export interface LoginData {
  /** The page to go on to, a path of this site. */
  readonly next: string;
  /** Why the last token was refused. */
  readonly error?: string;
}

export function LoginPage({ assets, data }: { readonly assets: AssetCatalog; readonly data: LoginData }) {
  const described = data.error === undefined ? 'login-token-hint' : 'login-token-error login-token-hint';
  return (
    <Layout assets={assets} section="none" title="Sign in" description="This registry is private: sign in with an access token to read it.">
      <h1>Sign in</h1>
      <p>This registry is private. Sign in with an access token that may read it.</p>
      <form class="assess-form" action="/login" method="post" novalidate>
        {data.error === undefined ? null : <p class="error-text" role="alert" id="login-token-error">{data.error}</p>}
        <input type="hidden" name="next" value={data.next} />
        <div class="field">
          <label for="login-token">Access token</label>
          <input id="login-token" name="token" type="password" autocomplete="current-password" required aria-describedby={described} aria-invalid={data.error === undefined ? undefined : 'true'} />
          <p class="hint" id="login-token-hint">A token with the read scope, from your registry's operator (<code>sextant tokens create</code>). It is sent with this form only; the session it opens lasts at most 12 hours.</p>
        </div>
        <button type="submit">Sign in</button>
      </form>
    </Layout>
  );
}
