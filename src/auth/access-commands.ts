/**
 * `sextant tokens …` and `sextant audit`: an operator's commands over the access tokens and the
 * audit log. A token is printed once, when made; lists never show one.
 */
import type { Store } from '../store/index.js';
import { createAccessTokens, createAudit, expiryOf, TokenError } from './access-tokens.js';

export interface TokenArgs {
  readonly scopes: readonly string[];
  readonly expires: string | undefined;
}

/** `tokens create NAME --scope S… [--expires 90d]`, `tokens list`, `tokens revoke NAME`; the exit code. */
export async function tokensCommand(store: Store, args: readonly string[], options: TokenArgs): Promise<number> {
  const access = createAccessTokens({ store: store.access, limiter: store.rateLimiter });
  const audit = createAudit(store.access);
  const [action, name, ...extra] = args;
  try {
    if (action === 'create' && name !== undefined && extra.length === 0) {
      const expiresAt = options.expires === undefined ? null : expiryOf(options.expires, new Date());
      const { token, info } = await access.create(name, options.scopes, expiresAt);
      await audit.record({ actor: 'cli', action: 'token_create', target: name, detail: { scopes: info.scopes, expiresAt } });
      console.error(`token "${name}" made (${info.scopes.join(', ')}${expiresAt ? `; expires ${expiresAt}` : '; never expires'}). It is shown this once:`);
      console.log(token);
      return 0;
    }
    if (action === 'list' && name === undefined) {
      const tokens = await access.list();
      if (tokens.length === 0) console.log('no tokens');
      for (const t of tokens) {
        const state = t.revokedAt ? `revoked ${t.revokedAt}` : t.expiresAt && t.expiresAt <= new Date().toISOString() ? `expired ${t.expiresAt}` : `live${t.expiresAt ? ` until ${t.expiresAt}` : ''}`;
        console.log(`${t.name}\t${t.scopes.join(',')}\t${state}\tmade ${t.createdAt}\tlast used ${t.lastUsedAt ?? 'never'}`);
      }
      return 0;
    }
    if (action === 'revoke' && name !== undefined && extra.length === 0) {
      if (!(await access.revoke(name))) {
        console.error(`no live token is named "${name}"`);
        return 2;
      }
      await audit.record({ actor: 'cli', action: 'token_revoke', target: name });
      console.log(`token "${name}" revoked; its sessions are closed`);
      return 0;
    }
  } catch (err) {
    if (!(err instanceof TokenError)) throw err;
    console.error(`tokens ${action}: ${err.message}`);
    return 2;
  }
  console.error('usage: sextant tokens create NAME --scope SCOPE [--scope SCOPE…] [--expires 90d] | tokens list | tokens revoke NAME');
  return 2;
}

/** `audit [--limit N]`: the newest entries first, one a line. */
export async function auditCommand(store: Store, limit: string | undefined): Promise<number> {
  const count = limit === undefined ? 100 : Number(limit);
  if (!Number.isInteger(count) || count < 1 || count > 100_000) {
    console.error('audit --limit takes a whole number from 1 to 100000');
    return 2;
  }
  const entries = await createAudit(store.access).entries(count);
  if (entries.length === 0) console.log('the audit log is empty');
  for (const e of entries) console.log(`${e.at}\t${e.actor}\t${e.action}\t${e.target}${e.detail ? `\t${JSON.stringify(e.detail)}` : ''}`);
  return 0;
}
