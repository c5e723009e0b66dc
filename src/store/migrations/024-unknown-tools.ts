/**
 * Unknown is not zero: `servers.tool_count` is null when no source and no check lists a server's
 * tools, and `tools.input_schema` is null when its source names a tool but not its arguments.
 * Both columns take NULL; sort=tools reads its index with unknown counts last (PostgreSQL is told
 * to: NULLS LAST; SQLite puts NULL last in a descending order by itself). The rows stored before
 * are restated from the stored records (unknown-tools.ts).
 * SQLite cannot drop a NOT NULL in place, and rebuilding `servers` would cascade into the tables
 * that reference it: the column is added again beside itself, copied, and the old one dropped.
 */
import type { Knex } from 'knex';
import { dialectOf } from '../dialect.js';
import { restateUnknownTools, type Direction } from '../unknown-tools.js';

interface Column {
  readonly table: 'servers' | 'tools';
  readonly column: string;
  readonly type: string;
  /** What a NOT NULL column added on SQLite is filled with before the copy (it needs a default). */
  readonly fill: string;
}

const TOOL_COUNT: Column = { table: 'servers', column: 'tool_count', type: 'integer', fill: '0' };
const INPUT_SCHEMA: Column = { table: 'tools', column: 'input_schema', type: 'text', fill: "'{}'" };

/** The indexes over `servers.tool_count` (001, 004) as each direction makes them. */
function toolCountIndexes(knex: Knex, direction: Direction): Readonly<Record<string, string>> {
  const descending = dialectOf(knex) === 'postgres' && direction === 'up' ? 'tool_count DESC NULLS LAST' : 'tool_count DESC';
  return { servers_tools: 'servers (tool_count, id)', servers_tools_desc: `servers (${descending}, id ASC)` };
}

export async function up(knex: Knex): Promise<void> {
  await allowNull(knex, TOOL_COUNT, true, toolCountIndexes(knex, 'up'));
  await allowNull(knex, INPUT_SCHEMA, true, {});
  await restateUnknownTools(knex, 'up');
}

export async function down(knex: Knex): Promise<void> {
  await restateUnknownTools(knex, 'down');
  await allowNull(knex, INPUT_SCHEMA, false, {});
  await allowNull(knex, TOOL_COUNT, false, toolCountIndexes(knex, 'down'));
}

/** Lets a column take NULL (`nullable`) or not, its indexes made again as `indexes` gives them. */
async function allowNull(knex: Knex, { table, column, type, fill }: Column, nullable: boolean, indexes: Readonly<Record<string, string>>): Promise<void> {
  for (const name of Object.keys(indexes)) await knex.raw(`DROP INDEX IF EXISTS ${name}`);
  if (dialectOf(knex) === 'postgres') {
    await knex.raw(`ALTER TABLE ${table} ALTER COLUMN ${column} ${nullable ? 'DROP' : 'SET'} NOT NULL`);
  } else {
    const next = `${column}_next`;
    await knex.raw(`ALTER TABLE ${table} ADD COLUMN ${next} ${type}${nullable ? '' : ` NOT NULL DEFAULT ${fill}`}`);
    await knex.raw(`UPDATE ${table} SET ${next} = ${column}`);
    await knex.raw(`ALTER TABLE ${table} DROP COLUMN ${column}`);
    await knex.raw(`ALTER TABLE ${table} RENAME COLUMN ${next} TO ${column}`);
  }
  for (const [name, definition] of Object.entries(indexes)) await knex.raw(`CREATE INDEX ${name} ON ${definition}`);
}
