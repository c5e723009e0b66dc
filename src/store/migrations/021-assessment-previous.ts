/** The earlier assessment a new one was linked to (its `previous`), which its changes are made against. */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('assessments', (t) => t.string('previous_id', 64).nullable());
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('assessments', (t) => t.dropColumn('previous_id'));
}
