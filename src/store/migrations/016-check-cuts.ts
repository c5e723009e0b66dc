/**
 * What each endpoint check cut from the endpoint's answer (src/mcp-client/caps.ts), as JSON. Checks
 * recorded before it have none: what they cut is unknown.
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('endpoint_checks', (table) => {
    table.text('cuts').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('endpoint_checks', (table) => {
    table.dropColumn('cuts');
  });
}
