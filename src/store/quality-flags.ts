/**
 * The catalog's part of the quality flags (src/catalog/quality.ts): `duplicate`, which only the
 * whole catalog can tell (a copy of another server of the same namespace), set after each
 * catalog write; and, once, every stored server's and tool's flags and browse name by today's
 * rules (migration 025). Ingest writes the rest with each server (entry-rows.ts).
 */
import type { Knex } from 'knex';
import { browseNameOf } from '../catalog/browse-name.js';
import { copiesAmong, serverQualityFlags, toolQualityFlags } from '../catalog/quality.js';
import type { ServerQualityFlag } from '../types.js';

/** Rows read or written at a time. */
const CHUNK = 1_000;

/** The stored form of a record's flags: a JSON array, and whether it has any (what sorts and filters read). */
export function qualityColumns(flags: readonly string[]): { quality_flags: string; flagged: number } {
  return { quality_flags: JSON.stringify(flags), flagged: flags.length > 0 ? 1 : 0 };
}

/** `flags` with `duplicate` set or not, in the contract's order (it is the last flag). */
function withDuplicate(flags: readonly ServerQualityFlag[], duplicate: boolean): ServerQualityFlag[] {
  const others = flags.filter((flag) => flag !== 'duplicate');
  return duplicate ? [...others, 'duplicate'] : others;
}

/**
 * Sets `duplicate` on every server that is a copy of another of its namespace, and takes it off
 * the others, from the catalog as `db` sees it; returns how many servers changed.
 */
export async function refreshDuplicates(db: Knex | Knex.Transaction): Promise<number> {
  const rows: Array<{ id: string; name: string; quality_flags: string }> = await db('servers').select('id', 'name', 'quality_flags');
  const copies = copiesAmong(rows.map((row) => row.name));
  let changed = 0;
  for (const row of rows) {
    const flags = JSON.parse(row.quality_flags) as ServerQualityFlag[];
    const duplicate = copies.has(row.name.toLowerCase());
    if (flags.includes('duplicate') === duplicate) continue;
    await db('servers').where({ id: row.id }).update(qualityColumns(withDuplicate(flags, duplicate)));
    changed += 1;
  }
  return changed;
}

/** Every stored server's and tool's flags and browse name by today's rules, a chunk at a time (migration 025). */
export async function recomputeQuality(db: Knex | Knex.Transaction): Promise<void> {
  for (let after = 0; ;) {
    const servers: Array<{ seq: number; name: string; title: string | null; description: string }> = await db('servers')
      .where('seq', '>', after).orderBy('seq').limit(CHUNK).select('seq', 'name', 'title', 'description');
    for (const s of servers) {
      const flags = serverQualityFlags({ name: s.name, title: s.title, description: s.description });
      await db('servers').where({ seq: s.seq }).update({ ...qualityColumns(flags), browse_name: browseNameOf(s.title ?? s.name) });
    }
    if (servers.length < CHUNK) break;
    after = Number(servers[servers.length - 1]?.seq);
  }
  for (let after = 0; ;) {
    const tools: Array<{ seq: number; name: string }> = await db('tools').where('seq', '>', after).orderBy('seq').limit(CHUNK).select('seq', 'name');
    for (const t of tools) await db('tools').where({ seq: t.seq }).update({ ...qualityColumns(toolQualityFlags(t.name)), browse_name: browseNameOf(t.name) });
    if (tools.length < CHUNK) break;
    after = Number(tools[tools.length - 1]?.seq);
  }
  await refreshDuplicates(db);
}
