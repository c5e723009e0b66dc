/**
 * Assessments and their jobs: any instance may claim a queued job (or one whose lease ran out,
 * when the instance that held it died), so nothing is lost on restart.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('assessments', (t) => {
    t.string('id', 64).primary();
    t.string('domain', 253).notNullable();
    t.string('domain_unicode', 1024).notNullable();
    t.double('exposure');
    t.string('status', 16).notNullable();
    t.string('created_at', 40).notNullable();
    t.string('completed_at', 40);
    t.text('observations').notNullable();
    t.index(['created_at'], 'assessments_created');
  });
  await knex.schema.createTable('assessment_jobs', (t) => {
    t.string('assessment_id', 64).primary().references('id').inTable('assessments').onDelete('CASCADE');
    t.string('status', 16).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('claimed_by', 100);
    t.string('lease_until', 40);
    t.string('queued_at', 40).notNullable();
    t.index(['status', 'queued_at'], 'assessment_jobs_queue');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('assessment_jobs');
  await knex.schema.dropTableIfExists('assessments');
}
