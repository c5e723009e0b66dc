/**
 * The assessment quotas' counters on SQLite too, so that a restart keeps what each client has
 * spent and the day's count (PostgreSQL's `rate_limits` table is 005's).
 */
import type { Knex } from 'knex';
import { dialectOf } from '../dialect.js';

export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('rate_limits')) return;
  await knex.schema.createTable('rate_limits', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire');
  });
}

export async function down(knex: Knex): Promise<void> {
  // PostgreSQL's table is 005's.
  if (dialectOf(knex) === 'sqlite') await knex.schema.dropTableIfExists('rate_limits');
}
