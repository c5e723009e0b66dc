/**
 * Indexes in the exact order of each sort, so a page at any offset is read from an index
 * instead of sorting the whole catalog. (z-a reads the a-z index backwards.)
 */
import type { Knex } from 'knex';
import { dialectOf } from '../dialect.js';

function indexes(knex: Knex): Readonly<Record<string, string>> {
  // SQLite puts NULL last in a descending order by itself; PostgreSQL is told to.
  const newest = dialectOf(knex) === 'postgres' ? 'published_at DESC NULLS LAST' : 'published_at DESC';
  return {
    servers_newest: `servers (${newest}, id ASC)`,
    servers_oldest: 'servers ((published_at IS NULL), published_at ASC, id ASC)',
    servers_tools_desc: 'servers (tool_count DESC, id ASC)',
    servers_endpoints_desc: 'servers (endpoint_count DESC, id ASC)',
  };
}

export async function up(knex: Knex): Promise<void> {
  for (const [name, definition] of Object.entries(indexes(knex))) await knex.raw(`CREATE INDEX ${name} ON ${definition}`);
}

export async function down(knex: Knex): Promise<void> {
  for (const name of Object.keys(indexes(knex))) await knex.raw(`DROP INDEX IF EXISTS ${name}`);
}
