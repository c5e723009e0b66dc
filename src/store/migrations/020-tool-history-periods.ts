/**
 * `tool_history` keeps periods, not only distinct definitions: a definition that comes back
 * (A, then B, then A again; or a tool removed and listed again) starts a new row, so each
 * change is told. `retired_at` is the write that stopped holding a definition; rows retired
 * before this migration keep it null (when is not known).
 */
import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tool_history', (table) => {
    table.string('retired_at', 40).nullable();
    table.dropPrimary();
    table.primary(['server_id', 'tool_name', 'fingerprint', 'first_seen_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  // Periods of one definition fold back into one row: the first seen, the last seen, current if any is.
  const rows: Array<{ server_id: string; tool_name: string; fingerprint: string; first_seen_at: string; last_seen_at: string; current: number | boolean }> =
    await knex('tool_history').select('server_id', 'tool_name', 'fingerprint', 'first_seen_at', 'last_seen_at', 'current').orderBy(['server_id', 'tool_name', 'fingerprint', 'first_seen_at']);
  const kept = new Map<string, (typeof rows)[number]>();
  for (const row of rows) {
    const key = `${row.server_id}\n${row.tool_name}\n${row.fingerprint}`;
    const first = kept.get(key);
    if (!first) {
      kept.set(key, row);
      continue;
    }
    await knex('tool_history').where({ server_id: row.server_id, tool_name: row.tool_name, fingerprint: row.fingerprint, first_seen_at: row.first_seen_at }).delete();
    await knex('tool_history')
      .where({ server_id: first.server_id, tool_name: first.tool_name, fingerprint: first.fingerprint, first_seen_at: first.first_seen_at })
      .update({ last_seen_at: row.last_seen_at, current: Boolean(first.current) || Boolean(row.current) });
  }
  await knex.schema.alterTable('tool_history', (table) => {
    table.dropPrimary();
    table.primary(['server_id', 'tool_name', 'fingerprint']);
    table.dropColumn('retired_at');
  });
}
