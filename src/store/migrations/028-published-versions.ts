/**
 * The versions published to this registry (`POST /v0.1/publish`): the publisher's source of
 * truth, one row per name and version, each `server.json` as received (scrubbed of credentials),
 * its status and times, whether it is the latest, and the token that published it. The catalog's
 * `publisher` records are made from these rows. Names and versions sort byte by byte on both
 * databases (PostgreSQL: the C collation), as `registry_versions` does.
 */
import type { Knex } from 'knex';
import { dialectOf } from '../dialect.js';

export async function up(knex: Knex): Promise<void> {
  const bytewise = dialectOf(knex) === 'postgres' ? ' COLLATE "C"' : '';
  await knex.schema.createTable('published_versions', (t) => {
    t.specificType('name', `varchar(200)${bytewise}`).notNullable();
    t.specificType('version', `varchar(255)${bytewise}`).notNullable();
    t.text('document').notNullable();
    t.string('status', 16).notNullable();
    t.text('status_message').nullable();
    t.string('status_changed_at', 40).nullable();
    t.string('published_at', 40).notNullable();
    t.string('updated_at', 40).notNullable();
    t.boolean('is_latest').notNullable();
    t.string('publisher', 200).notNullable();
    t.primary(['name', 'version']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('published_versions');
}
