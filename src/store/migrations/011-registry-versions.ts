/**
 * The versions the MCP Registry API (`/v0.1`, src/registry-api) serves: one row per server name
 * and version, each version's `server.json` as its source published it, with the registry
 * metadata of that version (status, publication and update times, whether it is the latest).
 * Official servers keep every version ingest and sync see; a server known only from another
 * source has one version, written from its catalog record under a name of Sextant's own
 * (src/catalog/registry-name.ts). The catalog writer keeps these rows with each server.
 *
 * Names and versions sort byte by byte on both databases (PostgreSQL: the C collation), so a
 * cursor walk is the same everywhere. Every stored server is marked changed (content_hash ''),
 * so the next ingest or sync writes its versions.
 */
import type { Knex } from 'knex';
import { dialectOf } from '../dialect.js';

export async function up(knex: Knex): Promise<void> {
  const bytewise = dialectOf(knex) === 'postgres' ? ' COLLATE "C"' : '';
  await knex.schema.createTable('registry_versions', (t) => {
    t.specificType('name', `varchar(200)${bytewise}`).notNullable();
    t.specificType('version', `varchar(255)${bytewise}`).notNullable();
    t.string('server_id', 300).notNullable();
    t.text('document').notNullable();
    /** What was changed to make the document conform to the API's schema (JSON array), or null. */
    t.text('repairs').nullable();
    t.string('status', 16).notNullable();
    t.text('status_message').nullable();
    t.string('status_changed_at', 40).nullable();
    t.string('published_at', 40).nullable();
    t.string('updated_at', 40).notNullable();
    t.boolean('is_latest').notNullable();
    t.primary(['name', 'version']);
    t.index(['server_id'], 'registry_versions_server');
    t.index(['updated_at'], 'registry_versions_updated');
  });
  await knex('servers').update({ content_hash: '' });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('registry_versions');
}
