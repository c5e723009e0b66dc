/**
 * Ingest (DESIGN.md "Sources"): reads upstream documents, merges records of the same server
 * across sources, and writes the catalog in one transaction. Ids stay stable across runs,
 * an unchanged input changes nothing, and a failure leaves the previous catalog untouched.
 */
import type { SourceName } from '../types.js';
import { slugOf, uniqueId } from '../catalog/ids.js';
import { assignInstallKeys } from '../catalog/install-key.js';
import { sourceKey, type CatalogIndex, type ServerWrite, type StoredSource, type Store } from '../store/index.js';
import type { IngestInput } from './detect.js';
import { byPrecedence, hashOf, hashOfJson, materialize } from './materialize.js';
import { isObject } from './json.js';
import { readInputs, serverOf, type ReadOptions, type ReadRecord } from './read.js';
import { fitTools, type UpstreamServer, type UpstreamTool } from './upstream.js';

export interface IngestSummary {
  readonly records: number;
  readonly added: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly servers: number;
  readonly tools: number;
  readonly sources: readonly SourceName[];
  readonly seconds: number;
}

export interface IngestOptions {
  readonly now?: () => Date;
  /** Called as records are placed and servers written: (done, total). */
  readonly onProgress?: (done: number, total: number) => void;
  /** How the documents are read (on how many threads). */
  readonly read?: ReadOptions;
}

/** Reads every input first (a bad one aborts before anything is written), then applies them. */
export async function ingest(store: Store, inputs: readonly IngestInput[], options: IngestOptions = {}): Promise<IngestSummary> {
  const started = performance.now();
  // Each document's records become JSON text and their identity as soon as it is read (see ReadRecord).
  const records = dedupe(await readInputs(inputs, options.read)).sort(byPrecedence);
  const now = (options.now ?? (() => new Date()))().toISOString();
  const progress = options.onProgress ?? (() => undefined);

  const result = await store.withCatalogWriter(async (writer) => {
    const index = await writer.loadIndex();
    const placed = place(records, index);
    progress(1, 3);
    const existingIds = (ids: Iterable<string>): string[] => [...new Set(ids)].filter((id) => !placed.created.has(id));
    const previous = await writer.storedSources(existingIds(placed.changed.map((p) => p.serverId)));
    // Versions are append-only upstream: an update keeps the versions already known beside its own.
    const changed = placed.changed.map((p) => withKnownVersions(p, previous.get(p.serverId)));
    const touched = [...new Set(changed.map((p) => p.serverId))];
    const hashes = await writer.contentHashes(existingIds(touched));
    const fresh = new Map<string, Placement[]>();
    for (const p of changed) fresh.set(p.serverId, [...(fresh.get(p.serverId) ?? []), p]);
    let added = 0;
    let updated = 0;
    // Materialized as the writer takes them, so the writer's last batch is written meanwhile.
    function* writes(): Generator<ServerWrite> {
      for (const id of touched) {
        const incoming = (fresh.get(id) ?? []).map(serverOf);
        const replaced = new Set(incoming.map((s) => sourceKey(s.source, s.key)));
        const kept = (previous.get(id) ?? []).filter((s) => !replaced.has(sourceKey(s.source, s.key))).map((s) => s.normalized).filter(isUpstreamServer);
        const entry = materialize(id, [...incoming, ...kept]);
        const isNew = placed.created.has(id);
        if (!isNew && hashes.get(id) === entry.contentHash) continue;
        if (isNew) added += 1;
        else updated += 1;
        yield { entry, isNew, installKey: placed.installKeys.get(id) };
      }
    }
    progress(2, 3);
    await writer.writeServers(writes(), now);
    await writer.saveSources(changed.map((p) => ({ source: p.source, key: p.key, serverId: p.serverId, recordHash: p.recordHash, recordJson: p.rawJson, normalizedJson: p.serverJson })), now);
    await writer.setMatchKeys(keysOf(index, new Set(touched)));
    return { added, updated, unchanged: placed.inRun.size - added - updated, servers: index.servers.size, tools: await writer.countTools() };
  });
  progress(3, 3);
  return {
    records: records.length,
    ...result,
    sources: [...new Set(records.map((r) => r.source))],
    seconds: Math.round((performance.now() - started) / 10) / 100,
  };
}

interface Placement extends ReadRecord {
  readonly serverId: string;
  /** Hash of the record as it arrived, to tell an unchanged record on the next run. */
  readonly recordHash: string;
}

/**
 * Decides which server each record belongs to, in memory: its earlier server, or one that shares
 * a merge key and has no record from this source yet, or one with the same name, or a new one.
 * Updates `index` as it goes, so later records of the run merge into servers created earlier.
 */
function place(records: readonly ReadRecord[], index: CatalogIndex): { changed: Placement[]; created: Set<string>; inRun: Set<string>; installKeys: Map<string, string> } {
  const ambiguous = ambiguousKeys(records);
  const owners = ownersBySource(index);
  const names = new Map([...index.servers].map(([id, name]) => [name, id]));
  const changed: Placement[] = [];
  const created = new Set<string>();
  const inRun = new Set<string>();
  for (const record of records) {
    const keys = record.matchKeys.filter((key) => !ambiguous.has(key));
    const existing = index.sources.get(sourceKey(record.source, record.key));
    const free = (id: string | undefined): id is string => id !== undefined && !owners.get(id)?.has(record.source);
    let serverId = existing?.serverId ?? keys.map((key) => index.keys.get(key)).find(free) ?? [names.get(record.name)].find(free);
    if (serverId === undefined) {
      serverId = uniqueId(slugOf(record.name), (id) => index.servers.has(id));
      const name = uniqueId(record.name, (candidate) => names.has(candidate));
      index.servers.set(serverId, name);
      names.set(name, serverId);
      created.add(serverId);
    }
    inRun.add(serverId);
    owners.set(serverId, new Set([...(owners.get(serverId) ?? []), record.source]));
    for (const key of keys) if (!index.keys.has(key)) index.keys.set(key, serverId);
    // The hash of [server, raw] (hashOf) from the JSON both are stored as.
    const recordHash = hashOfJson(`[${record.serverJson},${record.rawJson}]`);
    if (existing?.recordHash !== recordHash) changed.push({ ...record, serverId, recordHash });
  }
  // Like ids, assigned once, when a server is created, and kept (src/catalog/install-key.ts).
  const installKeys = assignInstallKeys([...created].map((id) => [id, index.servers.get(id) ?? id] as const), index.installKeys);
  return { changed, created, inRun, installKeys };
}

/** The merge keys each of these servers owns. */
function keysOf(index: CatalogIndex, servers: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>([...servers].map((id) => [id, []]));
  for (const [key, id] of index.keys) out.get(id)?.push(key);
  return out;
}

/**
 * Tools an endpoint listed itself (by the status monitor) join the server's record as the
 * `monitor` source for that endpoint. Returns whether the catalog changed.
 */
export async function attachEndpointTools(store: Store, serverId: string, url: string, tools: readonly UpstreamTool[], now: string): Promise<boolean> {
  return store.withCatalogWriter(async (writer) => {
    const name = await writer.serverName(serverId);
    if (name === null) return false;
    const server: UpstreamServer = {
      source: 'monitor', key: url, name, title: null, description: '', version: null, versions: [], repositoryUrl: null, repositorySubfolder: null,
      websiteUrl: null, license: null, publishedAt: null, updatedAt: null, packages: [], remotes: [], tools: fitTools(tools), upstreamCategories: [],
      oauth: false, declaresSecrets: false,
    };
    const recordHash = hashOf([server]);
    if ((await writer.sourceHash('monitor', url)) === recordHash) return false;
    const others = ((await writer.storedSources([serverId])).get(serverId) ?? []).filter((s) => !(s.source === 'monitor' && s.key === url));
    const entry = materialize(serverId, [server, ...others.map((s) => s.normalized).filter(isUpstreamServer)]);
    const changed = (await writer.contentHashes([serverId])).get(serverId) !== entry.contentHash;
    if (changed) await writer.writeServers([{ entry, isNew: false }], now);
    await writer.saveSources([{ source: 'monitor', key: url, serverId, recordHash, recordJson: JSON.stringify({ url, tools }), normalizedJson: JSON.stringify(server) }], now);
    return changed;
  });
}

/** The record with the versions its stored form already knew (newest first). */
function withKnownVersions(record: Placement, stored: readonly StoredSource[] | undefined): Placement {
  const previous = stored?.find((s) => s.source === record.source && s.key === record.key)?.normalized;
  if (!isUpstreamServer(previous) || previous.versions.length === 0) return record;
  const current = serverOf(record);
  if (current.versions.length === 0) return record;
  const known = new Set(current.versions.map((v) => v.version));
  const older = previous.versions.filter((v) => !known.has(v.version)).map((v) => ({ ...v, isLatest: false }));
  if (older.length === 0) return record;
  const versions = [...current.versions, ...older].sort((a, b) => (b.publishedAt ?? '').localeCompare(a.publishedAt ?? ''));
  const dates = versions.map((v) => v.publishedAt).filter((d): d is string => d !== null).sort();
  return { ...record, serverJson: JSON.stringify({ ...current, versions, publishedAt: dates[0] ?? current.publishedAt }) };
}

/** The same (source, key) twice: the later one wins. */
function dedupe(records: readonly ReadRecord[]): ReadRecord[] {
  const byKey = new Map<string, ReadRecord>();
  for (const record of records) byKey.set(sourceKey(record.source, record.key), record);
  return [...byKey.values()];
}

/**
 * Keys shared by several records of one source cannot identify a server (a monorepo URL, say):
 * they are not used for merging.
 */
function ambiguousKeys(records: readonly ReadRecord[]): Set<string> {
  const seen = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const record of records) {
    for (const key of record.matchKeys) {
      const scoped = `${record.source}\u0000${key}`;
      const owner = seen.get(scoped);
      if (owner !== undefined && owner !== record.key) ambiguous.add(key);
      seen.set(scoped, record.key);
    }
  }
  return ambiguous;
}

function ownersBySource(index: CatalogIndex): Map<string, Set<SourceName>> {
  const owners = new Map<string, Set<SourceName>>();
  for (const row of index.sources.values()) owners.set(row.serverId, new Set([...(owners.get(row.serverId) ?? []), row.source]));
  return owners;
}

function isUpstreamServer(value: unknown): value is UpstreamServer {
  return isObject(value) && typeof value.source === 'string' && typeof value.name === 'string' && Array.isArray(value.packages) && Array.isArray(value.versions);
}
