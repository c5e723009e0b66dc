/**
 * Each server's install key (issue 25, src/catalog/install-key.ts): the name it gets in a
 * client's configuration, unique in the catalog. Ingest assigns it when it creates a server;
 * this fills it for the servers already stored by the same rule: the publisher's own server
 * keeps the plain key, then the others in the order they were created (seq).
 */
import type { Knex } from 'knex';
import { assignInstallKeys } from '../../catalog/install-key.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('servers', (table) => {
    table.string('install_key', 80).nullable();
  });
  const servers: Array<{ id: string; name: string }> = await knex('servers').orderBy('seq').select('id', 'name');
  const keys = assignInstallKeys(servers.map(({ id, name }) => [id, name] as const), new Set());
  for (const [id, key] of keys) await knex('servers').where({ id }).update({ install_key: key });
  await knex.schema.alterTable('servers', (table) => {
    table.unique(['install_key'], { indexName: 'servers_install_key_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('servers', (table) => {
    table.dropUnique(['install_key'], 'servers_install_key_unique');
  });
  await knex.schema.alterTable('servers', (table) => {
    table.dropColumn('install_key');
  });
}
