/**
 * Watchlists (a portfolio's domains re-assessed on a schedule) and their runs. Both carry a
 * lease (`claimed_by`, `lease_until`), so instances sharing one database never run a watchlist
 * or deliver a run's webhook twice, and one that dies leaves its work to another.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('watchlists', (t) => {
    t.string('id', 64).primary();
    t.string('name', 200);
    // The domains in ASCII, as a JSON array, in the order given.
    t.text('domains').notNullable();
    t.integer('interval_hours').notNullable();
    t.string('webhook_url', 2048);
    // Kept to sign deliveries (HMAC needs it); never returned after creation.
    t.string('webhook_secret', 100);
    t.string('created_at', 40).notNullable();
    t.string('last_run_at', 40);
    t.string('next_run_at', 40).notNullable();
    t.string('claimed_by', 100);
    t.string('lease_until', 40);
    t.index(['next_run_at'], 'watchlists_due');
  });
  await knex.schema.createTable('watchlist_runs', (t) => {
    t.string('id', 64).primary();
    t.string('watchlist_id', 64).notNullable().references('id').inTable('watchlists').onDelete('CASCADE');
    t.string('started_at', 40).notNullable();
    // [{ domain, assessmentId }], in the watchlist's order.
    t.text('assessments').notNullable();
    t.string('delivery_state', 16).notNullable();
    // [{ at, outcome, status, error }], one per attempt.
    t.text('delivery_attempts').notNullable();
    t.string('next_attempt_at', 40);
    t.string('claimed_by', 100);
    t.string('lease_until', 40);
    t.index(['watchlist_id', 'started_at'], 'watchlist_runs_by_watchlist');
    t.index(['delivery_state', 'next_attempt_at'], 'watchlist_runs_deliveries');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('watchlist_runs');
  await knex.schema.dropTableIfExists('watchlists');
}
