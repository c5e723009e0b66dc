/**
 * The catalog as it will be once a batch's writes land. Ingest looks up what it needs to place
 * the next batch before it hands the last one's writes to the database, then places and
 * materializes the next batch while the database writes the last one: the two overlap instead of
 * taking turns. Those lookups see the catalog without the pending batch's writes; this view adds
 * them, so every answer equals the one the database would give after them.
 */
import type { SourceName } from '../types.js';
import { sourceKey, type CatalogWriter, type ServerWrite, type SourceRow, type StoredSource } from '../store/index.js';

/** The lookups placing and materializing a batch make. */
export type PlacementLookups = Pick<
  CatalogWriter,
  'sourceRows' | 'serversByName' | 'sourcesOfServers' | 'takenIds' | 'createdAt' | 'contentHashes' | 'serverNames' | 'storedSources'
>;

/** A source record a batch saves: `serverJson` is the normalized record as stored. */
export interface SavedSource extends SourceRow {
  readonly serverJson: string;
}

/** What a batch writes, as the lookups of the next one must see it. */
export interface PendingBatch {
  /** Source records saved (inserted or replaced by source and key). */
  readonly saved: readonly SavedSource[];
  /** Servers created (with `created_at` the run's time). */
  readonly created: ReadonlySet<string>;
  /** Servers inserted or replaced. */
  readonly writes: readonly ServerWrite[];
}

/** `writer`'s lookups as they will answer once `pending` is written (`writer` itself without one). */
export function afterPending(writer: PlacementLookups, pending: PendingBatch | null): PlacementLookups {
  if (pending === null) return writer;
  const saved = new Map(pending.saved.map((s) => [sourceKey(s.source, s.key), s]));
  const names = new Map(pending.writes.map((w) => [w.rows.id, w.rows.name]));
  const hashes = new Map(pending.writes.map((w) => [w.rows.id, w.rows.contentHash]));
  const created = (ids: readonly string[]): string[] => ids.filter((id) => pending.created.has(id));
  return {
    async sourceRows(records) {
      const out = await writer.sourceRows(records);
      for (const record of records) {
        const row = saved.get(sourceKey(record.source, record.key));
        if (row) out.set(sourceKey(row.source, row.key), { source: row.source, key: row.key, serverId: row.serverId, recordHash: row.recordHash });
      }
      return out;
    },
    async serversByName(asked) {
      const out = await writer.serversByName(asked);
      // A server the batch rewrites has its new name: its old one no longer finds it.
      for (const [name, id] of out) if (names.has(id) && names.get(id) !== name) out.delete(name);
      const wanted = new Set(asked);
      for (const [id, name] of names) if (wanted.has(name)) out.set(name, id);
      return out;
    },
    async sourcesOfServers(ids) {
      const out = await writer.sourcesOfServers(ids);
      const asked = new Set(ids);
      for (const s of pending.saved) if (asked.has(s.serverId)) out.set(s.serverId, (out.get(s.serverId) ?? new Set<SourceName>()).add(s.source));
      return out;
    },
    takenIds: async (ids) => added(await writer.takenIds(ids), created(ids)),
    createdAt: async (ids, at) => added(await writer.createdAt(ids, at), created(ids)),
    contentHashes: async (ids) => overlaid(await writer.contentHashes(ids), ids, hashes),
    serverNames: async (ids) => overlaid(await writer.serverNames(ids), ids, names),
    storedSources: async (ids) => withSavedSources(await writer.storedSources(ids), ids, pending.saved),
  };
}

/** `stored` with the saved records of the servers asked about: replaced where they were (an upsert keeps the row), else added after the others. */
function withSavedSources(stored: Map<string, StoredSource[]>, ids: readonly string[], saved: readonly SavedSource[]): Map<string, StoredSource[]> {
  const asked = new Set(ids);
  for (const s of saved) {
    if (!asked.has(s.serverId)) continue;
    const record: StoredSource = { source: s.source, key: s.key, normalized: JSON.parse(s.serverJson) };
    const list = stored.get(s.serverId) ?? [];
    const at = list.findIndex((l) => l.source === s.source && l.key === s.key);
    if (at >= 0) list[at] = record;
    else list.push(record);
    stored.set(s.serverId, list);
  }
  return stored;
}

/** `found` with `more` added. */
function added(found: Set<string>, more: readonly string[]): Set<string> {
  for (const id of more) found.add(id);
  return found;
}

/** `stored`, with the pending batch's value for each of `ids` it has one for. */
function overlaid(stored: Map<string, string>, ids: readonly string[], pending: ReadonlyMap<string, string>): Map<string, string> {
  for (const id of ids) {
    const value = pending.get(id);
    if (value !== undefined) stored.set(id, value);
  }
  return stored;
}
