/**
 * An organisation's own registry: bearer tokens (only their hashes), browser sessions opened with
 * one, and the audit log of every write a token or an operator made.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('access_tokens', (t) => {
    t.string('name', 64).primary();
    /** The public part of the token, how a presented token finds its row. */
    t.string('token_id', 32).notNullable().unique();
    /** SHA-256 of the secret part, hex. */
    t.string('secret_hash', 64).notNullable();
    /** JSON array of scopes (`read`, `publish:<namespace>/*`, `publish:<name>`). */
    t.text('scopes').notNullable();
    t.string('created_at', 40).notNullable();
    t.string('expires_at', 40).nullable();
    t.string('revoked_at', 40).nullable();
    t.string('last_used_at', 40).nullable();
  });
  await knex.schema.createTable('access_sessions', (t) => {
    /** SHA-256 of the cookie's value, hex: a stolen database opens no session. */
    t.string('session_hash', 64).primary();
    t.string('token_name', 64).notNullable().references('name').inTable('access_tokens').onDelete('CASCADE');
    t.string('created_at', 40).notNullable();
    t.string('expires_at', 40).notNullable();
  });
  await knex.schema.createTable('audit_log', (t) => {
    t.increments('id').primary();
    t.string('at', 40).notNullable();
    /** Who: a token's name, `cli` for an operator's command, `policy` for a reload. */
    t.string('actor', 64).notNullable();
    t.string('action', 32).notNullable();
    t.string('target', 500).notNullable();
    /** JSON object, or null. */
    t.text('detail').nullable();
    t.index(['at'], 'audit_log_at');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('audit_log');
  await knex.schema.dropTableIfExists('access_sessions');
  await knex.schema.dropTableIfExists('access_tokens');
}
