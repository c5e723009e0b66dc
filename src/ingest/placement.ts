/**
 * Where each record of a batch belongs: the server it was placed in before, or one it shares a
 * merge key or a name with, or a new one with a free id and name.
 */
import { slugOf } from '../catalog/ids.js';
import { sourceKey } from '../store/index.js';
import { hash52, type Hash52Set } from './hashed-sets.js';
import type { PlacementLookups } from './pending-batch.js';
import type { ReadRecord } from './read.js';

/** A record with the server it belongs to. */
export interface Placement extends ReadRecord {
  readonly serverId: string;
}

export interface Placed {
  readonly changed: Placement[];
  readonly created: Set<string>;
  /** Every server a record of the batch belongs to. */
  readonly servers: Set<string>;
  /** Canonical names of the servers created. */
  readonly names: Map<string, string>;
  /** Merge keys the batch gave a server: [key, server id]. */
  readonly newKeys: Array<readonly [string, string]>;
}

/**
 * Where each record of the batch belongs, from the catalog as written so far (earlier batches of
 * the run included): its earlier server, or one that shares a merge key and has no record from
 * this source yet, or one with the same name, or a new one. Records of the batch see each other.
 */
export async function place(writer: PlacementLookups, records: readonly ReadRecord[], ambiguous: Hash52Set): Promise<Placed> {
  const usable = records.map((record) => record.matchKeys.filter((key) => !ambiguous.has(hash52(key))));
  const sources = await writer.sourceRows(records.map((r) => ({ source: r.source, key: r.key })));
  const keyOwners = await writer.keyOwners([...new Set(usable.flat())]);
  const byName = await writer.serversByName([...new Set(records.map((r) => r.name))]);
  const candidates = new Set([...[...sources.values()].map((s) => s.serverId), ...keyOwners.values(), ...byName.values()]);
  const owners = await writer.sourcesOfServers([...candidates]);
  const taken = await writer.takenIds([...new Set(records.map((r) => slugOf(r.name)))]);
  const out: Placed = { changed: [], created: new Set(), servers: new Set(), names: new Map(), newKeys: [] };
  for (const [i, record] of records.entries()) {
    const keys = usable[i] ?? [];
    const existing = sources.get(sourceKey(record.source, record.key));
    const free = (id: string | undefined): id is string => id !== undefined && !owners.get(id)?.has(record.source);
    let serverId = existing?.serverId ?? keys.map((key) => keyOwners.get(key)).find(free) ?? [byName.get(record.name)].find(free);
    if (serverId === undefined) {
      serverId = await freeValue(slugOf(record.name), (id) => taken.has(id), async (id) => (await writer.takenIds([id])).size > 0);
      const name = await freeValue(record.name, (n) => byName.has(n), async (n) => (await writer.serversByName([n])).size > 0);
      taken.add(serverId);
      byName.set(name, serverId);
      out.created.add(serverId);
      out.names.set(serverId, name);
    }
    out.servers.add(serverId);
    owners.set(serverId, new Set([...(owners.get(serverId) ?? []), record.source]));
    for (const key of keys) {
      if (keyOwners.has(key)) continue;
      keyOwners.set(key, serverId);
      out.newKeys.push([key, serverId]);
    }
    if (existing?.recordHash !== record.recordHash) {
      out.changed.push({ ...record, serverId });
      sources.set(sourceKey(record.source, record.key), { source: record.source, key: record.key, serverId, recordHash: record.recordHash });
    }
  }
  return out;
}

/** `base`, or `base-2`, `base-3`…: the first taken neither in this batch (`inBatch`, which knows `base` from the catalog too) nor in the catalog. */
async function freeValue(base: string, inBatch: (value: string) => boolean, stored: (value: string) => Promise<boolean>): Promise<string> {
  for (let n = 1; ; n += 1) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!inBatch(candidate) && !(n > 1 && (await stored(candidate)))) return candidate;
  }
}
