/**
 * Access tokens on the real store, both databases: scopes rule by rule, what authenticates and
 * what is refused (slowed, then 429), that only hashes are stored, and browser sessions.
 */
import assert from 'node:assert/strict';
import { createAccessTokens, createAudit, mayPublish, parseScope, TokenError, type AccessTokens } from '../../src/auth/access-tokens.js';
import { AppError } from '../../src/errors.js';
import { createStore, type Store } from '../../src/store/index.js';
import { freshDatabase, type TestDatabase } from '../support/database.js';

const codeOf = async (work: Promise<unknown>): Promise<string> => {
  const err = await work.then(() => null, (e: unknown) => e);
  assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
  return `${err.code}`;
};

describe('access tokens', () => {
  describe('scopes, rule by rule', () => {
    it('read, publish:<namespace>/*, publish:<namespace>/<name>; nothing else', () => {
      assert.deepEqual(parseScope('read'), { kind: 'read' });
      assert.deepEqual(parseScope('publish:io.acme/*'), { kind: 'publish', namespace: 'io.acme', server: null });
      assert.deepEqual(parseScope('publish:io.acme/weather'), { kind: 'publish', namespace: 'io.acme', server: 'weather' });
      for (const bad of ['write', 'publish:*', 'publish:io.acme', 'publish:io..acme/*', 'publish:io.acme./*', 'publish:.io.acme/*', 'publish:io.acme/a/b', 'publish:*/*', 'publish:іо.acme/*', 'READ']) {
        assert.equal(parseScope(bad), null, bad);
      }
    });

    it('a namespace scope covers that namespace exactly: no case, look-alike, dot or path escape', () => {
      const caller = { name: 'acme', scopes: ['publish:io.acme/*', 'publish:com.other/one'] };
      assert.equal(mayPublish(caller, 'io.acme/weather'), true);
      assert.equal(mayPublish(caller, 'com.other/one'), true);
      const escapes = ['IO.ACME/weather', 'Io.acme/weather', 'іо.acme/weather', 'io.acme../weather', 'io.acme./weather', 'io.acme.evil/weather', 'evil.io.acme/weather', 'io/acme/weather', 'io.acme/../x', 'io.acme/', 'io.acme', 'com.other/two', 'io.acme/weather\u200b', 'io.acme/weather '];
      for (const name of escapes) assert.equal(mayPublish(caller, name), false, name);
      assert.equal(mayPublish({ name: 'reader', scopes: ['read'] }, 'io.acme/weather'), false);
    });
  });

  describe('on the store', () => {
    let db: TestDatabase;
    let store: Store;
    let clock = new Date('2026-11-01T00:00:00Z');
    let access: AccessTokens;

    before(async () => {
      db = await freshDatabase();
      store = createStore(db.url);
      await store.migrate();
      access = createAccessTokens({ store: store.access, limiter: store.rateLimiter, now: () => clock, failures: 3, failureWindowSeconds: 60, failureDelayMs: 20 });
    });
    after(async () => {
      await store.close();
      await db.drop();
    });

    it('gives a token once and keeps only its hash', async () => {
      const { token, info } = await access.create('publisher', ['publish:io.acme/*', 'read', 'read'], null);
      assert.match(token, /^sxt_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
      assert.deepEqual(info.scopes, ['publish:io.acme/*', 'read']);
      const caller = await access.authenticate(`Bearer ${token}`, 'client-a');
      assert.deepEqual(caller, { name: 'publisher', scopes: ['publish:io.acme/*', 'read'] });
      const secret = token.split('_').slice(2).join('_');
      const stored = (await db.storedText()).join('\n');
      assert.ok(!stored.includes(secret), 'the secret is stored');
      assert.deepEqual((await access.list()).map((t) => Object.keys(t).sort()), [['createdAt', 'expiresAt', 'lastUsedAt', 'name', 'revokedAt', 'scopes']]);
    });

    it('refuses a bad name, a bad scope, no scope and a name in use', async () => {
      await assert.rejects(access.create('has space', ['read'], null), TokenError);
      await assert.rejects(access.create('x', ['publish:io.acme'], null), /is not a scope/);
      await assert.rejects(access.create('x', [], null), /at least one --scope/);
      await assert.rejects(access.create('publisher', ['read'], null), /exists already/);
    });

    it('answers 401 for a missing, malformed, unknown, revoked or expired token', async () => {
      const { token: doomed } = await access.create('doomed', ['read'], null);
      const { token: brief } = await access.create('brief', ['read'], '2026-11-02T00:00:00.000Z');
      assert.equal(await codeOf(access.authenticate(undefined, 'c1')), 'unauthorized');
      assert.equal(await codeOf(access.authenticate('Basic abc', 'c1')), 'unauthorized');
      assert.equal(await codeOf(access.authenticate(`Bearer ${doomed.slice(0, -1)}x`, 'c2')), 'unauthorized');
      assert.equal((await access.authenticate(`Bearer ${doomed}`, 'c3')).name, 'doomed');
      assert.equal(await access.revoke('doomed'), true);
      assert.equal(await access.revoke('doomed'), false);
      assert.equal(await codeOf(access.authenticate(`Bearer ${doomed}`, 'c3')), 'unauthorized');
      assert.equal((await access.authenticate(`Bearer ${brief}`, 'c4')).name, 'brief');
      clock = new Date('2026-11-03T00:00:00Z');
      assert.equal(await codeOf(access.authenticate(`Bearer ${brief}`, 'c4')), 'unauthorized');
    });

    it('slows a client that sends wrong tokens, then refuses it with 429 and Retry-After; others are not affected', async () => {
      const wrong = `Bearer sxt_0123456789abcdef_${'A'.repeat(43)}`;
      const times: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const started = performance.now();
        assert.equal(await codeOf(access.authenticate(wrong, 'guesser')), 'unauthorized');
        times.push(performance.now() - started);
      }
      assert.ok(times[2]! >= 55, `the third wrong token waited ${times[2]} ms`);
      const refused = await access.authenticate(wrong, 'guesser').catch((e: unknown) => e);
      assert.ok(refused instanceof AppError && refused.code === 'too_many_failures');
      assert.match(refused.headers['Retry-After'] ?? '', /^\d+$/);
      const { token } = await access.create('other', ['read'], null);
      assert.equal((await access.authenticate(`Bearer ${token}`, 'someone-else')).name, 'other');
    });

    it('opens a session for a caller, ends it with the token or on logout', async () => {
      const { token } = await access.create('browser', ['read'], null);
      const caller = await access.authenticateToken(` ${token} `, 'b');
      const session = await access.openSession(caller);
      assert.deepEqual(await access.sessionCaller(session.value), caller);
      assert.equal(await access.sessionCaller('forged'), null);
      assert.ok(!(await db.storedText()).join('\n').includes(session.value), 'the session value is stored');
      await access.closeSession(session.value);
      assert.equal(await access.sessionCaller(session.value), null);
      const again = await access.openSession(caller);
      await access.revoke('browser');
      assert.equal(await access.sessionCaller(again.value), null);
    });

    it('writes the audit log newest first', async () => {
      const audit = createAudit(store.access, () => clock);
      await audit.record({ actor: 'publisher', action: 'publish', target: 'io.acme/weather@1.0.0', detail: { status: 'active' } });
      await audit.record({ actor: 'cli', action: 'token_revoke', target: 'browser' });
      const [newest, older] = await audit.entries(2);
      assert.deepEqual(newest, { at: clock.toISOString(), actor: 'cli', action: 'token_revoke', target: 'browser', detail: null });
      assert.deepEqual(older, { at: clock.toISOString(), actor: 'publisher', action: 'publish', target: 'io.acme/weather@1.0.0', detail: { status: 'active' } });
    });
  });
});
