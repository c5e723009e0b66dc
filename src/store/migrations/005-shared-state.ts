/**
 * What several instances on one database share, beyond the catalog itself:
 * - `catalog_generation`: a counter every catalog write bumps in its own transaction, so each
 *   instance knows when to drop its read caches (whoever wrote);
 * - `monitor_schedule`: when each endpoint is next due and who claimed it, so two instances
 *   never probe the same endpoint in the same interval;
 * - `rate_limits` (PostgreSQL): rate-limiter-flexible's counters, one table for every policy.
 */
import type { Knex } from 'knex';
import { dialectOf } from '../dialect.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('catalog_generation', (t) => {
    t.integer('id').primary();
    t.bigInteger('generation').notNullable();
  });
  await knex('catalog_generation').insert({ id: 1, generation: 0 });
  await knex.schema.createTable('monitor_schedule', (t) => {
    t.string('server_id', 300).notNullable().references('id').inTable('servers').onDelete('CASCADE');
    t.text('url').notNullable();
    t.string('host', 253).notNullable();
    t.string('transport', 32).notNullable();
    t.string('due_at', 40).notNullable();
    t.string('claimed_by', 100);
    t.primary(['server_id', 'url']);
    t.index(['due_at'], 'monitor_schedule_due');
  });
  if (dialectOf(knex) === 'postgres') {
    // The columns rate-limiter-flexible's RateLimiterPostgres reads and writes.
    await knex.schema.createTable('rate_limits', (t) => {
      t.string('key', 255).primary();
      t.integer('points').notNullable().defaultTo(0);
      t.bigInteger('expire');
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['rate_limits', 'monitor_schedule', 'catalog_generation']) await knex.schema.dropTableIfExists(table);
}
