/**
 * READ_ACCESS=token, on both databases: every operation of the contract (the list is made from
 * openapi.yaml, so a new route cannot slip through) refuses a request without a token, but for
 * the few read-access.ts states; a token with the read scope opens each, one without it is 403;
 * pages answer the sign-in form, whose session cookie opens them and whose header then offers
 * Sign out (an open registry's never does); health stays open; preflights still answer.
 */
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { loadContract } from '../../src/contract.js';
import { OPEN_WHILE_PRIVATE } from '../../src/http/read-access.js';
import { isPagePath } from '../../src/web/security.js';
import { startHarness, type Harness } from '../support/harness.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation of the contract as a request: path parameters filled with a sample value. */
function everyOperation(): Array<{ method: string; path: string; operationId: string }> {
  const { paths } = loadContract() as unknown as { paths: Record<string, Record<string, { operationId?: string }>> };
  return Object.entries(paths).flatMap(([template, item]) => METHODS.flatMap((method) => {
    const operation = item[method];
    if (!operation?.operationId) return [];
    const path = template.replace(/\{serverName\}/g, encodeURIComponent('io.github.github/github-mcp-server')).replace(/\{[^}]+\}/g, 'sample');
    return [{ method: method.toUpperCase(), path, operationId: operation.operationId }];
  }));
}

const isOpen = (method: string, path: string): boolean => OPEN_WHILE_PRIVATE.some((rule) => rule.open(method, path));

describe('reads behind a token (READ_ACCESS=token)', function () {
  this.timeout(120_000);
  let h: Harness;
  let reader: string;
  let publisher: string;
  const operations = everyOperation();
  const gated = operations.filter((op) => !isOpen(op.method, op.path));

  const logged: string[] = [];

  before(async () => {
    h = await startHarness({ readAccess: 'token', logger: pino({ level: 'info' }, { write: (line: string) => void logged.push(line) }) });
    reader = (await h.service.access.create('reader', ['read'], null)).token;
    publisher = (await h.service.access.create('publisher-only', ['publish:io.acme/*'], null)).token;
  });
  after(async () => h.close());

  const send = (op: { method: string; path: string }, headers: Record<string, string> = {}) => h.request(op.path, {
    method: op.method,
    headers: { ...(op.method === 'GET' ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(op.method === 'GET' ? {} : { body: '{}' }),
  });

  it('lists the operations it checks from the contract', () => {
    assert.ok(operations.length >= 45, `only ${operations.length} operations`);
    assert.deepEqual(operations.filter((op) => isOpen(op.method, op.path)).map((op) => op.operationId).sort(), [
      'getAsset', 'getHealth', 'getLoginPage', 'getReadiness', 'submitLoginPage', 'submitLogoutPage',
      ...operations.filter((op) => /^\/api\/v1\/watchlists/.test(op.path) || op.path === '/v0.1/publish' || /\/status$/.test(op.path) && op.path.startsWith('/v0.1')).map((op) => op.operationId),
    ].sort());
  });

  it('refuses every other operation without a token: 401 problem on the APIs, the sign-in form on pages', async () => {
    const wrong: string[] = [];
    for (const op of gated) {
      const res = await send(op);
      const page = isPagePath(op.path);
      const ok = res.status === 401 && (page ? String(res.body).includes('action="/login"') : res.body.code === 'unauthorized' && res.headers.get('www-authenticate') === 'Bearer');
      if (!ok) wrong.push(`${op.method} ${op.path} (${op.operationId}) → ${res.status}`);
    }
    assert.deepEqual(wrong, [], `${wrong.length} of ${gated.length} operations answered without a token`);
  });

  it('lets every operation through with a read token; one without the read scope is 403 on the APIs, the sign-in form on pages', async () => {
    const refused: string[] = [];
    const unscoped: string[] = [];
    for (const op of gated) {
      const withRead = await send(op, { authorization: `Bearer ${reader}` });
      if (withRead.status === 401 || withRead.status === 403) refused.push(`${op.method} ${op.path} → ${withRead.status}`);
      const withPublish = await send(op, { authorization: `Bearer ${publisher}` });
      const refusedAsIs = isPagePath(op.path) ? withPublish.status === 401 && String(withPublish.body).includes('lacks the read scope') : withPublish.status === 403 && withPublish.body.code === 'forbidden_scope';
      if (!refusedAsIs) unscoped.push(`${op.method} ${op.path} → ${withPublish.status}`);
    }
    assert.deepEqual(refused, []);
    assert.deepEqual(unscoped, []);
  });

  it('answers reads with a token in full, and tells no shared cache to keep them', async () => {
    const res = await h.request('/api/v1/servers/search?q=github', { headers: { authorization: `Bearer ${reader}` } });
    assert.equal(res.status, 200);
    assert.ok(res.body.items.some((s: { name: string }) => s.name === 'io.github.github/github-mcp-server'));
    assert.equal(res.headers.get('cache-control'), 'private, no-store');
    const registry = await h.request('/v0.1/servers?search=github', { headers: { authorization: `Bearer ${reader}` } });
    assert.ok(registry.body.servers.length > 0);
  });

  it('keeps health and preflights open', async () => {
    assert.equal((await h.request('/healthz')).body.status, 'ok');
    const preflight = await fetch(`${h.baseUrl}/v0.1/servers`, { method: 'OPTIONS', headers: { origin: 'https://vscode.dev', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Authorization/);
  });

  it('opens pages with a session from the sign-in form, and ends it on sign-out', async () => {
    const form = await h.request('/servers?q=github');
    assert.equal(form.status, 401);
    assert.match(String(form.body), /name="next" value="\/servers\?q=github"/);
    const refused = await h.request('/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=sxt_nope&next=%2Fservers' });
    assert.equal(refused.status, 401);
    assert.match(String(refused.body), /not one this registry knows/);
    const signIn = await h.request('/login', { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${encodeURIComponent(reader)}&next=${encodeURIComponent('/servers?q=github')}` });
    assert.equal(signIn.status, 303, String(signIn.body));
    assert.equal(signIn.headers.get('location'), '/servers?q=github');
    const cookie = signIn.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^sextant_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    const session = cookie.split(';')[0]!;
    const page = await h.request('/servers?q=github', { headers: { cookie: session } });
    assert.equal(page.status, 200);
    assert.match(String(page.body), /github/i);
    const elsewhere = await h.request('/login', { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${encodeURIComponent(reader)}&next=${encodeURIComponent('//evil.example/')}` });
    assert.equal(elsewhere.headers.get('location'), '/');
    const out = await h.request('/logout', { method: 'POST', redirect: 'manual', headers: { cookie: session, 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    assert.equal(out.status, 303);
    assert.equal((await h.request('/servers', { headers: { cookie: session } })).status, 401);
  });

  const SIGN_OUT = /<form class="sign-out" method="post" action="\/logout"><button type="submit">Sign out<\/button><\/form>/;
  const signedIn = async (): Promise<string> => {
    const res = await h.request('/login', { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${encodeURIComponent(reader)}&next=%2F` });
    assert.equal(res.status, 303, String(res.body));
    return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  };

  it('offers Sign out in the header of every page a reader is let into, but not on the sign-in form', async () => {
    const session = await signedIn();
    for (const path of ['/', '/servers?q=github', '/tools?q=issue', '/servers/io.github.github~github-mcp-server', '/assess', '/docs', '/no-such-page']) {
      const page = await h.request(path, { headers: { cookie: session } });
      assert.ok(page.status === 200 || (path === '/no-such-page' && page.status === 404), `${path} → ${page.status}`);
      assert.match(String(page.body), SIGN_OUT, `${path} has no sign-out form`);
      assert.match(String(page.body), /<nav aria-label="Main">/);
    }
    // The page the read model keeps is one for every reader: a program's Bearer token is served the same bytes.
    const kept = await h.request('/servers?q=github', { headers: { authorization: `Bearer ${reader}` } });
    assert.match(String(kept.body), SIGN_OUT);
    assert.equal(kept.headers.get('cache-control'), 'private, no-store');
    for (const form of [await h.request('/servers?q=github'), await h.request('/login')]) {
      assert.match(String(form.body), /action="\/login"/);
      assert.doesNotMatch(String(form.body), /action="\/logout"/);
    }
  });

  it('signs out from the header\'s form: the cookie is cleared and the next page is the sign-in form', async () => {
    const session = await signedIn();
    const before = await h.request('/tools', { headers: { cookie: session } });
    assert.equal(before.status, 200);
    assert.match(String(before.body), SIGN_OUT);
    // What a browser sends for the form of a page of this site.
    const out = await h.request('/logout', { method: 'POST', redirect: 'manual', headers: { cookie: session, origin: h.baseUrl, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    assert.equal(out.status, 303);
    assert.equal(out.headers.get('location'), '/login');
    assert.equal(out.headers.get('set-cookie'), 'sextant_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict');
    const after = await h.request('/tools', { headers: { cookie: session } });
    assert.equal(after.status, 401);
    assert.match(String(after.body), /<h1>Sign in<\/h1>/);
    assert.match(String(after.body), /name="next" value="\/tools"/);
    assert.doesNotMatch(String(after.body), /action="\/logout"/);
  });

  it('refuses a sign-out sent from another site, and the session goes on', async () => {
    const session = await signedIn();
    const forged = await h.request('/logout', { method: 'POST', redirect: 'manual', headers: { cookie: session, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    assert.equal(forged.status, 403);
    assert.match(String(forged.body), /Sent from another site/);
    assert.equal(forged.headers.get('set-cookie'), null);
    const page = await h.request('/tools', { headers: { cookie: session } });
    assert.equal(page.status, 200);
    assert.match(String(page.body), SIGN_OUT);
  });

  it('logs the token\'s name, never the token: not in logs, problems or pages', async () => {
    const secretOf = (token: string): string => token.split('_').slice(2).join('_');
    const answers = [
      await h.request('/api/v1/categories', { headers: { authorization: `Bearer ${reader}` } }),
      await h.request('/api/v1/categories', { headers: { authorization: `Bearer ${reader.slice(0, -2)}zz` } }),
      await h.request('/servers', { headers: { authorization: `Bearer ${publisher}` } }),
      await h.request('/login', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `token=${encodeURIComponent(publisher)}` }),
    ];
    const text = [...logged, ...answers.map((a) => JSON.stringify(a.body) + JSON.stringify([...a.headers]))].join('\n');
    for (const token of [reader, publisher]) {
      assert.ok(!text.includes(secretOf(token)), 'a token\'s secret was logged or answered');
    }
    assert.ok(logged.some((line) => JSON.parse(line).caller === 'reader'), 'no request line names the caller');
  });

  it('refuses a revoked token at once', async () => {
    const { token } = await h.service.access.create('short-lived', ['read'], null);
    assert.equal((await h.request('/api/v1/categories', { headers: { authorization: `Bearer ${token}` } })).status, 200);
    await h.service.access.revoke('short-lived');
    const res = await h.request('/api/v1/categories', { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'unauthorized');
  });
});

describe('reads open to all (READ_ACCESS unset)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h.close());

  it('serves reads without a token and has no sign-in page', async () => {
    assert.equal((await h.request('/api/v1/categories')).status, 200);
    const login = await h.request('/login');
    assert.equal(login.status, 404);
    assert.match(String(login.body), /nothing to sign in to/);
  });

  it('offers no sign-out on its pages', async () => {
    for (const path of ['/', '/servers?q=github', '/assess', '/no-such-page']) {
      const page = await h.request(path);
      assert.ok(page.status === 200 || (path === '/no-such-page' && page.status === 404), `${path} → ${page.status}`);
      assert.match(String(page.body), /<nav aria-label="Main">/);
      assert.doesNotMatch(String(page.body), /action="\/logout"|Sign out/, `${path} offers a sign-out`);
    }
  });
});
