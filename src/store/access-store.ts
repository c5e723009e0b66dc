/**
 * Access tokens (their hashes only), the browser sessions opened with them, and the audit log.
 * What a token may do and how one is checked is src/auth/access-tokens.ts.
 */
import type { Knex } from 'knex';
import type { Db } from './db.js';

export interface StoredToken {
  readonly name: string;
  readonly tokenId: string;
  readonly secretHash: string;
  readonly scopes: readonly string[];
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
  readonly lastUsedAt: string | null;
}

export interface AuditEntry {
  readonly at: string;
  /** A token's name, `cli` for an operator's command, `policy` for a policy reload. */
  readonly actor: string;
  readonly action: string;
  readonly target: string;
  readonly detail: Readonly<Record<string, unknown>> | null;
}

export interface AccessStore {
  /** Adds a token; false when the name is taken (a revoked token keeps its name). */
  addToken(token: Omit<StoredToken, 'revokedAt' | 'lastUsedAt'>): Promise<boolean>;
  tokenById(tokenId: string): Promise<StoredToken | null>;
  tokens(): Promise<StoredToken[]>;
  /** Revokes a token and closes its sessions; false when no live token has the name. */
  revokeToken(name: string, at: string): Promise<boolean>;
  /** Notes a token's use, at most once a minute, so a read does not write on every request. */
  touchToken(name: string, at: string): Promise<void>;
  openSession(sessionHash: string, tokenName: string, createdAt: string, expiresAt: string): Promise<void>;
  /** The token a session was opened with, while the session lasts. */
  sessionToken(sessionHash: string, now: string): Promise<StoredToken | null>;
  closeSession(sessionHash: string): Promise<void>;
  audit(entry: AuditEntry): Promise<void>;
  /** The newest entries first. */
  auditLog(limit: number): Promise<AuditEntry[]>;
}

interface TokenRow {
  name: string;
  token_id: string;
  secret_hash: string;
  scopes: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

const toToken = (row: TokenRow): StoredToken => ({
  name: row.name, tokenId: row.token_id, secretHash: row.secret_hash, scopes: JSON.parse(row.scopes) as string[],
  createdAt: row.created_at, expiresAt: row.expires_at, revokedAt: row.revoked_at, lastUsedAt: row.last_used_at,
});

const TOUCH_EVERY_MS = 60_000;

/** Writes an audit entry on `db`, or inside a write's transaction so that the entry stands or falls with the write. */
export async function insertAudit(db: Db | Knex.Transaction, entry: AuditEntry): Promise<void> {
  await db('audit_log').insert({ at: entry.at, actor: entry.actor, action: entry.action, target: entry.target, detail: entry.detail === null ? null : JSON.stringify(entry.detail) });
}

export function createAccessStore(db: Db): AccessStore {
  return {
    async addToken(token) {
      return db.transaction(async (trx) => {
        if (await trx('access_tokens').where('name', token.name).first('name')) return false;
        await trx('access_tokens').insert({ name: token.name, token_id: token.tokenId, secret_hash: token.secretHash, scopes: JSON.stringify(token.scopes), created_at: token.createdAt, expires_at: token.expiresAt });
        return true;
      });
    },
    async tokenById(tokenId) {
      const row: TokenRow | undefined = await db('access_tokens').where('token_id', tokenId).first();
      return row ? toToken(row) : null;
    },
    async tokens() {
      const rows: TokenRow[] = await db('access_tokens').orderBy('name');
      return rows.map(toToken);
    },
    async revokeToken(name, at) {
      return db.transaction(async (trx) => {
        const changed = await trx('access_tokens').where('name', name).whereNull('revoked_at').update({ revoked_at: at });
        await trx('access_sessions').where('token_name', name).delete();
        return changed > 0;
      });
    },
    async touchToken(name, at) {
      const before = new Date(Date.parse(at) - TOUCH_EVERY_MS).toISOString();
      await db('access_tokens').where('name', name).andWhere((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', before)).update({ last_used_at: at });
    },
    async openSession(sessionHash, tokenName, createdAt, expiresAt) {
      await db('access_sessions').insert({ session_hash: sessionHash, token_name: tokenName, created_at: createdAt, expires_at: expiresAt });
    },
    async sessionToken(sessionHash, now) {
      const row: TokenRow | undefined = await db('access_sessions as s')
        .join('access_tokens as t', 't.name', 's.token_name')
        .where('s.session_hash', sessionHash)
        .andWhere('s.expires_at', '>', now)
        .first('t.*');
      return row ? toToken(row) : null;
    },
    async closeSession(sessionHash) {
      await db('access_sessions').where('session_hash', sessionHash).delete();
    },
    audit: (entry) => insertAudit(db, entry),
    async auditLog(limit) {
      const rows: Array<{ at: string; actor: string; action: string; target: string; detail: string | null }> = await db('audit_log').orderBy('id', 'desc').limit(limit);
      return rows.map((row) => ({ at: row.at, actor: row.actor, action: row.action, target: row.target, detail: row.detail === null ? null : JSON.parse(row.detail) as Record<string, unknown> }));
    },
  };
}
