/**
 * A domain's assessments read newest first (its history, and the one a new assessment is compared
 * with), and batches: many domains queued in one request, each item an assessment or the reason it
 * was refused.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('assessments', (t) => t.index(['domain', 'created_at'], 'assessments_domain_created'));
  await knex.schema.createTable('assessment_batches', (t) => {
    t.string('id', 64).primary();
    t.string('created_at', 40).notNullable();
    // [{ domain, assessmentId } | { domain, reason, message }], in the order given.
    t.text('items').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('assessment_batches');
  await knex.schema.alterTable('assessments', (t) => t.dropIndex(['domain', 'created_at'], 'assessments_domain_created'));
}
