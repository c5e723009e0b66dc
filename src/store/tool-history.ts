/**
 * `tool_history`: each period during which a server's record held one definition of a tool, with
 * the writes that first and last held it, the write that retired it, and which sources gave it.
 * A definition that comes back after another, or after its tool was removed, starts a new period.
 * The catalog writer records the definitions of each server it writes; a server whose tools then
 * differ from the ones it held gets `tools_changed_at`. A write that lists no tools says nothing
 * of them (they are unknown, not removed), so it leaves their history as it was. A server's first
 * tools are not a change.
 */
import type { Knex } from 'knex';
import { insertMany, type Row } from './bulk-insert.js';
import { CATALOG_INSERTS } from './catalog-inserts.js';
import type { ToolDefinitionRecord } from '../types.js';
import { storable, type Db } from './db.js';
import type { DefinitionRow } from './entry-rows.js';
import { inLists } from './in-lists.js';

/** One server's definitions as a write gives them. */
export interface WrittenDefinitions {
  readonly serverId: string;
  readonly definitions: readonly DefinitionRow[];
  readonly isNew: boolean;
  /** When the write is made for. */
  readonly at: string;
}

interface HistoryRow {
  server_id: string; tool_name: string; fingerprint: string; definition: string; first_seen_at: string; last_seen_at: string; current: number | boolean; seen_by: string;
  retired_at: string | null;
}

/**
 * Records the definitions of servers being written, and marks `tools_changed_at` on each
 * whose tools differ from the ones it held (a tool added, removed or changed).
 */
export async function recordToolDefinitions(trx: Knex.Transaction, written: readonly WrittenDefinitions[]): Promise<void> {
  const listing = written.filter((w) => w.definitions.length > 0);
  if (listing.length === 0) return;
  // A server new to the catalog has no history to read or retire.
  const known = listing.filter((w) => !w.isNew).map((w) => w.serverId);
  const held = await heldRows(trx, known);
  const rows: Row[] = [];
  const changed: Array<{ serverId: string; at: string }> = [];
  for (const { serverId, definitions, at } of listing) {
    const open = new Map((held.get(serverId) ?? []).map((r) => [`${r.tool_name}\n${r.fingerprint}`, r]));
    const listed = new Set(definitions.map((d) => `${d.name}\n${d.fingerprint}`));
    if (open.size > 0 && (open.size !== listed.size || [...listed].some((key) => !open.has(key)))) changed.push({ serverId, at });
    // A definition held now goes on in its period; any other starts one.
    for (const d of definitions) {
      const previous = open.get(`${d.name}\n${d.fingerprint}`);
      const seenBy = [...new Set([...(previous ? (JSON.parse(previous.seen_by) as string[]) : []), ...(d.source === null ? [] : [d.source])])].sort();
      rows.push([serverId, d.name, d.fingerprint, d.definition, previous?.first_seen_at ?? at, at, 1, JSON.stringify(seenBy), null]);
    }
  }
  // Every held period ends at this write; those listed again are taken up by the insert's merge.
  const retiring = new Map<string, string[]>();
  for (const { serverId, at, isNew } of listing) if (!isNew) retiring.set(at, [...(retiring.get(at) ?? []), serverId]);
  for (const [at, ids] of retiring) {
    for (const list of inLists(ids)) await trx('tool_history').whereIn('server_id', list).where('current', true).update({ current: false, retired_at: at });
  }
  await insertMany(trx, CATALOG_INSERTS.toolHistory, rows);
  for (const { serverId, at } of changed) await trx('servers').where({ id: serverId }).update({ tools_changed_at: at });
}

/** Every period kept of a server's tools, by tool name then first seen. */
export async function toolHistoryOf(db: Db, serverId: string): Promise<ToolDefinitionRecord[]> {
  if (!storable(serverId)) return [];
  const rows: HistoryRow[] = await db('tool_history').where({ server_id: serverId }).orderBy([{ column: 'tool_name' }, { column: 'first_seen_at' }, { column: 'fingerprint' }]);
  return rows.map((r) => ({
    tool: r.tool_name, fingerprint: r.fingerprint, definition: JSON.parse(r.definition), firstSeenAt: r.first_seen_at, lastSeenAt: r.last_seen_at,
    current: Boolean(r.current), retiredAt: r.retired_at, seenBy: JSON.parse(r.seen_by),
  }));
}

/** The periods the servers' records hold now, by server. */
export async function heldRows(trx: Knex, serverIds: readonly string[]): Promise<Map<string, HistoryRow[]>> {
  const out = new Map<string, HistoryRow[]>();
  for (const list of inLists(serverIds)) {
    const rows: HistoryRow[] = await trx('tool_history').whereIn('server_id', list).where('current', true).select('server_id', 'tool_name', 'fingerprint', 'first_seen_at', 'seen_by');
    for (const row of rows) {
      const group = out.get(row.server_id);
      if (group) group.push(row);
      else out.set(row.server_id, [row]);
    }
  }
  return out;
}
