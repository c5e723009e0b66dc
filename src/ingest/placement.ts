/**
 * Where each record of a batch belongs: the server identity gives it (identity.ts), created when
 * the catalog has no server by that id yet.
 */
import { sourceKey } from '../store/index.js';
import { identityKey, type Identity } from './identity.js';
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
  /** Servers a record of the batch left for another: they are made again without it. */
  readonly vacated: Set<string>;
  /** Canonical names of the servers created. */
  readonly names: Map<string, string>;
}

/** Where each record of the batch belongs, and which of those servers the catalog (as written so far) lacks. */
export async function place(writer: PlacementLookups, records: readonly ReadRecord[], identity: Identity): Promise<Placed> {
  const targets = records.map((record) => {
    const id = identity.serverOf.get(identityKey(record.source, record.key));
    if (id === undefined) throw new Error(`no server was identified for ${record.source} record ${record.key}`);
    return id;
  });
  const sources = await writer.sourceRows(records.map((r) => ({ source: r.source, key: r.key })));
  const taken = await writer.takenIds([...new Set(targets)]);
  const out: Placed = { changed: [], created: new Set(), servers: new Set(), vacated: new Set(), names: new Map() };
  for (const [i, record] of records.entries()) {
    const serverId = targets[i] as string;
    if (!taken.has(serverId)) {
      taken.add(serverId);
      out.created.add(serverId);
      out.names.set(serverId, identity.names.get(serverId) ?? record.name);
    }
    out.servers.add(serverId);
    const existing = sources.get(sourceKey(record.source, record.key));
    if (existing !== undefined && existing.serverId !== serverId) out.vacated.add(existing.serverId);
    if (existing?.recordHash !== record.recordHash || existing.serverId !== serverId) {
      out.changed.push({ ...record, serverId });
      sources.set(sourceKey(record.source, record.key), { source: record.source, key: record.key, serverId, recordHash: record.recordHash });
    }
  }
  return out;
}
