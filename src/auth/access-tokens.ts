/**
 * Bearer tokens of an organisation's own registry (DESIGN.md "An organisation's own registry"):
 * made by `sextant tokens create`, shown once, stored as a SHA-256 of their secret part and
 * compared in constant time. A token carries scopes: `read` (every read route while
 * READ_ACCESS=token) and `publish:<namespace>/*` or `publish:<namespace>/<name>` (publish and
 * status changes on the registry API for those names).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';
import type { AccessStore, AuditEntry, StoredToken } from '../store/access-store.js';
import type { Limiter, RateLimiterSpec } from '../store/index.js';

/** Who called: the token's name (what logs and the audit say, never the token) and its scopes. */
export interface Caller {
  readonly name: string;
  readonly scopes: readonly string[];
}

/** A token as `sextant tokens list` shows it: never its secret. */
export type TokenInfo = Omit<StoredToken, 'tokenId' | 'secretHash'>;

export interface Audit {
  record(entry: { readonly actor: string; readonly action: string; readonly target: string; readonly detail?: Readonly<Record<string, unknown>> }): Promise<void>;
  /** The newest entries first. */
  entries(limit: number): Promise<AuditEntry[]>;
}

export interface AccessTokens {
  /** Makes a token; `token` is its only copy. Throws a TokenError for a bad name or scope, or a name in use. */
  create(name: string, scopes: readonly string[], expiresAt: string | null): Promise<{ readonly token: string; readonly info: TokenInfo }>;
  list(): Promise<TokenInfo[]>;
  /** False when no live token has the name. */
  revoke(name: string): Promise<boolean>;
  /**
   * The caller a request's `Authorization` header names. Throws AppError 401 `unauthorized` for a
   * missing, malformed, unknown, expired or revoked token; a client that keeps sending wrong
   * ones is answered more slowly each time and then refused with 429 `too_many_failures`.
   */
  authenticate(authorization: string | undefined, client: string): Promise<Caller>;
  /** The same check for a token typed into the login form. */
  authenticateToken(token: string, client: string): Promise<Caller>;
  /** Opens a browser session for a caller: the cookie's value, and when it ends. */
  openSession(caller: Caller): Promise<{ readonly value: string; readonly expiresAt: string }>;
  /** The caller of a live session cookie, or null. */
  sessionCaller(value: string | undefined): Promise<Caller | null>;
  closeSession(value: string | undefined): Promise<void>;
}

/** Raised by the CLI-facing calls for input an operator must change. */
export class TokenError extends Error {
  override name = 'TokenError';
}

const TOKEN = /^sxt_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;
const TOKEN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A namespace as the registry's name pattern allows, with no empty label: `io..acme` or `io.acme.` name nothing. */
const NAMESPACE = /^[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)*$/;
const SERVER_PART = /^[a-zA-Z0-9._-]+$/;

/**
 * What a scope may be, stated once:
 * - `read`: every read route while READ_ACCESS=token;
 * - `publish:<namespace>/*`: publish and change the status of every name in that namespace, the
 *   part before `/`, exactly as written (case and every byte: no folding, so look-alikes differ);
 * - `publish:<namespace>/<name>`: the same for that one name.
 */
export function parseScope(scope: string): { readonly kind: 'read' } | { readonly kind: 'publish'; readonly namespace: string; readonly server: string | null } | null {
  if (scope === 'read') return { kind: 'read' };
  const match = /^publish:([^/]+)\/([^/]+)$/.exec(scope);
  if (!match) return null;
  const [, namespace = '', server = ''] = match;
  if (!NAMESPACE.test(namespace)) return null;
  if (server === '*') return { kind: 'publish', namespace, server: null };
  return SERVER_PART.test(server) ? { kind: 'publish', namespace, server } : null;
}

/** Whether the caller may publish or change the status of this registry name. */
export function mayPublish(caller: Caller, serverName: string): boolean {
  const slash = serverName.indexOf('/');
  if (slash < 0) return false;
  const namespace = serverName.slice(0, slash);
  const server = serverName.slice(slash + 1);
  if (!NAMESPACE.test(namespace) || !SERVER_PART.test(server)) return false;
  return caller.scopes.some((text) => {
    const scope = parseScope(text);
    return scope?.kind === 'publish' && scope.namespace === namespace && (scope.server === null || scope.server === server);
  });
}

export const mayRead = (caller: Caller): boolean => caller.scopes.includes('read');

/** `90d`, `12h`, `30m`, or a date: when a token made now ends. */
export function expiryOf(text: string, now: Date): string {
  const span = /^(\d{1,5})([dhm])$/.exec(text);
  if (span) {
    const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[span[2] as 'd' | 'h' | 'm'];
    return new Date(now.getTime() + Number(span[1]) * unit).toISOString();
  }
  const at = Date.parse(text);
  if (!Number.isFinite(at) || at <= now.getTime()) throw new TokenError(`--expires takes a span like 90d, 12h or 30m, or a date in the future; "${text}" is neither`);
  return new Date(at).toISOString();
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
/** Compared against when no token has the presented id, so an unknown id takes as long as a wrong secret. */
const NO_HASH = sha256('no such token').toString('hex');

export interface AccessOptions {
  readonly store: AccessStore;
  /** The store's limiter factory: failed attempts are counted where every instance sees them. */
  readonly limiter: (spec: RateLimiterSpec) => Limiter;
  readonly now?: () => Date;
  /** Wrong tokens a client may send in `failureWindowSeconds` before it is refused. */
  readonly failures?: number;
  readonly failureWindowSeconds?: number;
  /** How much longer each wrong token waits before its answer: the wait grows with the count, so guessing slows down. */
  readonly failureDelayMs?: number;
}

/** How long a browser session lasts, at most (never beyond its token). */
const SESSION_MS = 12 * 3_600_000;

export function createAccessTokens(options: AccessOptions): AccessTokens {
  const { store } = options;
  const now = options.now ?? (() => new Date());
  const failures = options.failures ?? 10;
  const window = options.failureWindowSeconds ?? 600;
  const delayMs = options.failureDelayMs ?? 250;
  const limiter = options.limiter({ keyPrefix: 'auth-failures', points: failures, duration: window });

  const refuse = async (client: string, why: string): Promise<never> => {
    let count: number;
    try {
      count = (await limiter.consume(client)).consumedPoints;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new AppError('too_many_failures', `Too many requests with a wrong token from this client; retry in ${seconds} s.`, [], { 'Retry-After': String(seconds) });
    }
    await sleep(Math.min(delayMs * count, 4 * delayMs * failures));
    throw new AppError('unauthorized', why, [], { 'WWW-Authenticate': 'Bearer' });
  };

  const verify = async (token: string, client: string): Promise<Caller> => {
    const match = TOKEN.exec(token);
    if (!match) return refuse(client, 'The token is not one this registry issues (sxt_…). An operator makes one with `sextant tokens create`.');
    const [, tokenId = '', secret = ''] = match;
    const stored = await store.tokenById(tokenId);
    const same = timingSafeEqual(sha256(secret), Buffer.from(stored?.secretHash ?? NO_HASH, 'hex'));
    if (!stored || !same) return refuse(client, 'The token is not known here.');
    const at = now().toISOString();
    if (stored.revokedAt !== null) return refuse(client, 'The token was revoked.');
    if (stored.expiresAt !== null && stored.expiresAt <= at) return refuse(client, 'The token has expired.');
    await store.touchToken(stored.name, at);
    return { name: stored.name, scopes: stored.scopes };
  };

  return {
    async create(name, scopes, expiresAt) {
      if (!TOKEN_NAME.test(name)) throw new TokenError(`a token's name is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit; "${name}" is not`);
      if (scopes.length === 0) throw new TokenError('a token needs at least one --scope: read, publish:<namespace>/* or publish:<namespace>/<name>');
      const bad = scopes.find((scope) => parseScope(scope) === null);
      if (bad !== undefined) throw new TokenError(`"${bad}" is not a scope: use read, publish:<namespace>/* (e.g. publish:io.acme/*) or publish:<namespace>/<name>`);
      const tokenId = randomBytes(8).toString('hex');
      const secret = randomBytes(32).toString('base64url');
      const createdAt = now().toISOString();
      const unique = [...new Set(scopes)];
      if (!(await store.addToken({ name, tokenId, secretHash: sha256(secret).toString('hex'), scopes: unique, createdAt, expiresAt }))) {
        throw new TokenError(`a token named "${name}" exists already (revoked tokens keep their names)`);
      }
      return { token: `sxt_${tokenId}_${secret}`, info: { name, scopes: unique, createdAt, expiresAt, revokedAt: null, lastUsedAt: null } };
    },
    async list() {
      return (await store.tokens()).map(({ tokenId: _id, secretHash: _hash, ...info }) => info);
    },
    revoke: (name) => store.revokeToken(name, now().toISOString()),
    async authenticate(authorization, client) {
      const given = /^Bearer +(\S+) *$/i.exec(authorization ?? '')?.[1];
      if (given === undefined) {
        throw new AppError('unauthorized', 'This route needs Authorization: Bearer <token>, with a token an operator made with `sextant tokens create`.', [], { 'WWW-Authenticate': 'Bearer' });
      }
      return verify(given, client);
    },
    authenticateToken: (token, client) => verify(token.trim(), client),
    async openSession(caller) {
      const value = randomBytes(32).toString('base64url');
      const created = now();
      // A session never outlives its token: each use checks the token too (sessionCaller).
      const expiresAt = new Date(created.getTime() + SESSION_MS).toISOString();
      await store.openSession(sha256(value).toString('hex'), caller.name, created.toISOString(), expiresAt);
      return { value, expiresAt };
    },
    async sessionCaller(value) {
      if (!value || value.length > 100) return null;
      const at = now().toISOString();
      const token = await store.sessionToken(sha256(value).toString('hex'), at);
      if (!token || token.revokedAt !== null || (token.expiresAt !== null && token.expiresAt <= at)) return null;
      return { name: token.name, scopes: token.scopes };
    },
    async closeSession(value) {
      if (value && value.length <= 100) await store.closeSession(sha256(value).toString('hex'));
    },
  };
}

/** The audit log, as the services write it. */
export function createAudit(store: AccessStore, now: () => Date = () => new Date()): Audit {
  return {
    record: ({ actor, action, target, detail }) => store.audit({ at: now().toISOString(), actor, action, target, detail: detail ?? null }),
    entries: (limit) => store.auditLog(limit),
  };
}
