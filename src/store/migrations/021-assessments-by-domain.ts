/** A domain's assessments, newest first: what an assessment is compared with. */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('assessments', (t) => t.index(['domain', 'created_at'], 'assessments_domain_created'));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('assessments', (t) => t.dropIndex(['domain', 'created_at'], 'assessments_domain_created'));
}
