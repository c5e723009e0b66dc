/**
 * The assessment quotas' counters on SQLite too (`rate_limits`, as PostgreSQL has had since
 * 005): held in memory, a restart gave every client a fresh allowance and reset the daily cap.
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
