/**
 * Ingest (DESIGN.md "Sources"): reads upstream documents, merges records of the same server
 * across sources, and writes the catalog in one transaction. Ids stay stable across runs,
 * an unchanged input changes nothing, and a failure leaves the previous catalog untouched.
 */
import type { SourceName } from '../types.js';
import { slugOf, uniqueId } from '../registry/ids.js';
import { sourceKey, type CatalogIndex, type CatalogWriter, type Store } from '../store/index.js';
import { readDocument, type IngestInput } from './detect.js';
import { hashOf, byPrecedence, materialize } from './materialize.js';
import { matchKeysOf } from './merge-keys.js';
import { isObject } from './json.js';
import type { IngestRecord, UpstreamServer, UpstreamTool } from './upstream.js';

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
}

/** Reads every input first (a bad one aborts before anything is written), then applies them. */
export async function ingest(store: Store, inputs: readonly IngestInput[], options: IngestOptions = {}): Promise<IngestSummary> {
  const started = performance.now();
  const records = dedupe(inputs.flatMap(readDocument)).sort((a, b) => byPrecedence(a.server, b.server));
  const now = (options.now ?? (() => new Date()))().toISOString();
  const ambiguous = ambiguousKeys(records);
  const progress = options.onProgress ?? (() => undefined);

  const result = await store.withCatalogWriter(async (writer) => {
    const index = await writer.loadIndex();
    const owners = ownersBySource(index);
    const names = new Map([...index.servers].map(([id, name]) => [name, id]));
    const touched = new Set<string>();
    const created = new Set<string>();
    const inRun = new Set<string>();
    const total = records.length * 2;
    let done = 0;

    for (const input of records) {
      const known = input.server.versions.length > 0 && index.sources.has(sourceKey(input.server.source, input.server.key));
      const record = known ? existingVersions(input, await writer.normalizedSource(input.server.source, input.server.key)) : input;
      const { server } = record;
      const keys = matchKeysOf(server).filter((key) => !ambiguous.has(key));
      const existing = index.sources.get(sourceKey(server.source, server.key));
      const free = (id: string | undefined): id is string => id !== undefined && !owners.get(id)?.has(server.source);
      let serverId = existing?.serverId ?? keys.map((key) => index.keys.get(key)).find(free) ?? [names.get(server.name)].find(free);
      if (serverId === undefined) {
        serverId = uniqueId(slugOf(server.name), (id) => index.servers.has(id));
        const name = uniqueId(server.name, (candidate) => names.has(candidate));
        await writer.reserveServer(serverId, name, now);
        index.servers.set(serverId, name);
        names.set(name, serverId);
        created.add(serverId);
      }
      inRun.add(serverId);
      owners.set(serverId, new Set([...(owners.get(serverId) ?? []), server.source]));
      for (const key of keys) if (!index.keys.has(key)) index.keys.set(key, serverId);
      const recordHash = hashOf([server, record.raw]);
      if (existing?.recordHash !== recordHash) {
        await writer.saveSource({ source: server.source, key: server.key, serverId, recordHash, record: record.raw, normalized: server }, now);
        touched.add(serverId);
      }
      progress(++done, total);
    }

    const counts = await writeTouched(writer, index, touched, created, now, () => progress(++done, total));
    return { ...counts, unchanged: inRun.size - counts.added - counts.updated, servers: index.servers.size, tools: await writer.countTools() };
  });
  progress(1, 1);
  return {
    records: records.length,
    ...result,
    sources: [...new Set(records.map((r) => r.server.source))],
    seconds: Math.round((performance.now() - started) / 10) / 100,
  };
}

async function writeTouched(
  writer: CatalogWriter, index: CatalogIndex, touched: ReadonlySet<string>, created: ReadonlySet<string>, now: string, tick: () => void,
): Promise<{ added: number; updated: number }> {
  const keysByServer = new Map<string, string[]>();
  for (const [key, id] of index.keys) if (touched.has(id)) keysByServer.set(id, [...(keysByServer.get(id) ?? []), key]);
  let added = 0;
  let updated = 0;
  for (const id of touched) {
    await writer.setMatchKeys(id, keysByServer.get(id) ?? []);
    const sources = (await writer.normalizedSources(id)).filter(isUpstreamServer);
    const entry = materialize(id, sources);
    if (created.has(id)) added += 1;
    else if ((await writer.contentHash(id)) !== entry.contentHash) updated += 1;
    else {
      tick();
      continue;
    }
    await writer.writeServer(entry, now);
    tick();
  }
  return { added, updated };
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
      websiteUrl: null, license: null, publishedAt: null, updatedAt: null, packages: [], remotes: [], tools: [...tools], upstreamCategories: [],
      oauth: false, declaresSecrets: false,
    };
    const recordHash = hashOf([server]);
    if ((await writer.sourceHash('monitor', url)) === recordHash) return false;
    await writer.saveSource({ source: 'monitor', key: url, serverId, recordHash, record: { url, tools }, normalized: server }, now);
    const entry = materialize(serverId, (await writer.normalizedSources(serverId)).filter(isUpstreamServer));
    if ((await writer.contentHash(serverId)) === entry.contentHash) return false;
    await writer.writeServer(entry, now);
    return true;
  });
}

/**
 * Versions are append-only upstream: an incremental sync brings only the new ones, so the
 * versions already known for the record are kept beside them (newest first).
 */
function existingVersions(record: IngestRecord, stored: unknown): IngestRecord {
  if (!isUpstreamServer(stored) || stored.versions.length === 0 || record.server.versions.length === 0) return record;
  const known = new Set(record.server.versions.map((v) => v.version));
  const older = stored.versions.filter((v) => !known.has(v.version)).map((v) => ({ ...v, isLatest: false }));
  if (older.length === 0) return record;
  const versions = [...record.server.versions, ...older].sort((a, b) => (b.publishedAt ?? '').localeCompare(a.publishedAt ?? ''));
  const dates = versions.map((v) => v.publishedAt).filter((d): d is string => d !== null).sort();
  return { ...record, server: { ...record.server, versions, publishedAt: dates[0] ?? record.server.publishedAt } };
}

/** The same (source, key) twice: the later one wins. */
function dedupe(records: readonly IngestRecord[]): IngestRecord[] {
  const byKey = new Map<string, IngestRecord>();
  for (const record of records) byKey.set(sourceKey(record.server.source, record.server.key), record);
  return [...byKey.values()];
}

/**
 * Keys shared by several records of one source cannot identify a server (a monorepo URL, say):
 * they are not used for merging.
 */
function ambiguousKeys(records: readonly IngestRecord[]): Set<string> {
  const seen = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const { server } of records) {
    for (const key of matchKeysOf(server)) {
      const scoped = `${server.source}\u0000${key}`;
      const owner = seen.get(scoped);
      if (owner !== undefined && owner !== server.key) ambiguous.add(key);
      seen.set(scoped, server.key);
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
