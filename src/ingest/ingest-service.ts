/**
 * Ingest (DESIGN.md "Sources"): streams upstream documents, merges records of the same server
 * across sources, and writes the catalog in one transaction, a batch at a time. Ids stay stable across runs,
 * an unchanged input changes nothing, and a failure leaves the previous catalog untouched.
 */
import { setImmediate } from 'node:timers/promises';
import type { SourceName } from '../types.js';
import { slugOf } from '../catalog/ids.js';
import { assignInstallKeys } from '../catalog/install-key.js';
import { keepIndexSnapshot } from '../search/index.js';
import { serverRowsOf, sourceKey, type CatalogWriter, type ServerWrite, type StoredSource, type Store } from '../store/index.js';
import type { IngestInput } from './detect.js';
import { byPrecedence, hashOf, materialize } from './materialize.js';
import { isObject } from './json.js';
import { serverOf, type ReadRecord } from './read.js';
import { hash52, Hash52Set, KeyOwners } from './key-owners.js';
import { afterPending, type PlacementLookups, type PendingBatch, type SavedSource } from './pending-batch.js';
import { FirstLoad } from './first-load-filter.js';
import { Spool } from './spool.js';
import { readInputs, recordHashes } from './read-inputs.js';
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
  /** Called as records are read and servers written: (done, total). */
  readonly onProgress?: (done: number, total: number) => void;
  /** Records placed, merged and written together (500 by default). */
  readonly batchSize?: number;
  /**
   * Stops the run before it commits: reading stops at once, writing before its next batch, and
   * the run throws the signal's reason having changed nothing (the spool removed).
   */
  readonly signal?: AbortSignal;
}

/**
 * Records placed, merged and written together; the run holds two batches at a time (one written
 * while the next is materialized). Install keys are given a batch at a time (of the servers a
 * batch creates, a key's publisher gets it first: install-key.ts), so the size decides some keys.
 */
const RECORDS_PER_BATCH = 500;

/**
 * A run that changes a catalog instances may be serving (one that had servers before it) builds
 * the search index of the result inside its transaction and keeps its snapshot there: when the
 * write commits, every instance loads it in about a second, where each would otherwise answer
 * searches from SQL while it built its own (36 s at 100k servers, searches at 20-50 req/s with a
 * p99 near a second meanwhile). A first load has no readers yet (the first start builds and keeps
 * the index). The index costs the run memory: one index at a time (the servers' is written and let go
 * before the tools' is built), so a re-ingest of 100k servers and 962k tools updating half of them
 * peaks at about 500 MB (a first load: 421 MB). Past this many servers each instance builds its own instead.
 */
const INDEXED_FOR_READERS_MAX = 150_000;

/**
 * Streams every input into a spool (a bad record aborts before anything is written), then
 * places, merges and writes the records batch by batch in one transaction (issue 27). Across the
 * run, memory holds a batch and a few numbers per merge key and server, never the records' text.
 */
export async function ingest(store: Store, inputs: readonly IngestInput[], options: IngestOptions = {}): Promise<IngestSummary> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => undefined);
  const spool = new Spool();
  try {
    const ambiguous = await readAll(inputs, spool, progress, options.signal);
    const now = (options.now ?? (() => new Date()))().toISOString();
    const total = spool.records;
    const sources = spool.sources.sort((a, b) => byPrecedence({ source: a }, { source: b }));
    const batchSize = options.batchSize ?? RECORDS_PER_BATCH;
    const result = await store.withCatalogWriter(async (writer) => {
      const written = await writeAll(writer, spool.read(sources), { ambiguous, now, total, progress, batchSize, signal: options.signal });
      options.signal?.throwIfAborted();
      // Ingest adds and replaces servers, never removes them: those not added were there before.
      const hadServers = written.servers > written.added;
      if (hadServers && written.added + written.updated > 0 && written.servers <= INDEXED_FOR_READERS_MAX) {
        const { generation, source } = await writer.searchSource();
        await keepIndexSnapshot(source, generation);
      }
      return written;
    });
    progress(2 * total, 2 * total);
    return { records: total, ...result, sources, seconds: Math.round((performance.now() - started) / 10) / 100 };
  } finally {
    spool.remove();
  }
}

/** Reads every input into the spool; returns the merge keys ambiguous in this run (as hash52 values). */
async function readAll(inputs: readonly IngestInput[], spool: Spool, progress: (done: number, total: number) => void, signal: AbortSignal | undefined): Promise<Hash52Set> {
  const owners = new KeyOwners();
  const ambiguous = new Hash52Set();
  let read = 0;
  await readInputs(inputs, spool, (hashes, records) => {
    for (const { owner, keys } of recordHashes(hashes)) {
      // Keys shared by several records of one source cannot identify a server (a monorepo URL, say).
      for (const [sourceKey, key] of keys) if (owners.ownedByAnother(sourceKey, owner)) ambiguous.add(key);
    }
    read += records;
    progress(read, 2 * read);
  }, { signal });
  return ambiguous;
}

interface RunContext {
  readonly ambiguous: Hash52Set;
  readonly now: string;
  readonly total: number;
  readonly progress: (done: number, total: number) => void;
  readonly batchSize: number;
  readonly signal: AbortSignal | undefined;
}

/** What the run did so far: servers counted once each (by hash52 of the id). */
class RunCounts {
  added = 0;
  readonly touched = new Hash52Set();
  readonly updated = new Hash52Set();
}

/**
 * Places and writes the records a batch at a time; the writer's transaction holds the whole run.
 * A batch is looked up and placed before the last one's writes are handed to SQLite, and
 * materialized while SQLite writes them (see pending-batch.ts).
 */
async function writeAll(writer: CatalogWriter, records: Iterable<ReadRecord>, run: RunContext): Promise<Omit<IngestSummary, 'records' | 'sources' | 'seconds'>> {
  const counts = new RunCounts();
  const installKeys = new HashedSet(await writer.installKeys());
  // Into an empty catalog, the lookups need ask only about what the run wrote (first-load-filter.ts).
  const firstLoad = (await writer.countServers()) === 0 ? new FirstLoad(run.total) : null;
  const catalog = firstLoad?.lookups(writer) ?? writer;
  let done = 0;
  const write = async (batch: PreparedBatch): Promise<void> => {
    // From here the database may hold the batch's rows; until here afterPending answers for them.
    firstLoad?.note(batch);
    await writer.writeServers(batch.writes);
    await writer.saveSources(batch.saved.map((s) => ({ ...s, recordJson: s.rawJson, normalizedJson: s.serverJson })), run.now);
    await writer.addMatchKeys(batch.newKeys);
    done += batch.records;
    run.progress(run.total + done, 2 * run.total);
  };
  await writer.deferIndexes(async () => {
    let pending: PreparedBatch | null = null;
    for (const batch of batchesOf(run.batchSize, records)) {
      run.signal?.throwIfAborted();
      const looked = await lookUp(afterPending(catalog, pending), batch, run);
      const writing: Promise<void> = pending === null ? Promise.resolve() : write(pending);
      // Both settle before a failure is thrown: the transaction must not roll back under a write.
      const [prepared, written] = await Promise.allSettled([prepare(looked, batch.length, run, counts, installKeys), writing]);
      if (written.status === 'rejected') throw written.reason;
      if (prepared.status === 'rejected') throw prepared.reason;
      pending = prepared.value;
    }
    if (pending !== null) await write(pending);
  });
  const updated = counts.updated.size;
  return { added: counts.added, updated, unchanged: counts.touched.size - counts.added - updated, servers: await writer.countServers(), tools: await writer.countTools() };
}

/** The records in batches of `size` (the last one shorter). */
function* batchesOf(size: number, records: Iterable<ReadRecord>): Generator<ReadRecord[]> {
  let batch: ReadRecord[] = [];
  for (const record of records) {
    batch.push(record);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

interface Placement extends ReadRecord {
  readonly serverId: string;
}

/** A batch placed, with what materializing it needs of the catalog. */
interface Looked {
  readonly placed: Placed;
  /** Servers a record of the batch changes, in the order first changed. */
  readonly touched: readonly string[];
  readonly previous: Map<string, StoredSource[]>;
  readonly hashes: Map<string, string>;
  /** Stored names of the touched servers the catalog already has. */
  readonly names: Map<string, string>;
  /** Those of the touched servers that this run created (in an earlier batch). */
  readonly createdInRun: Set<string>;
}

/** A batch ready to write (and, for the next batch's lookups, what it will have written). */
interface PreparedBatch extends PendingBatch {
  readonly saved: ReadonlyArray<SavedSource & { readonly rawJson: string }>;
  /** Records the batch holds (for progress). */
  readonly records: number;
}

/** Where each record of the batch belongs (see `place`), and the stored state of the servers it changes. */
async function lookUp(catalog: PlacementLookups, records: readonly ReadRecord[], run: RunContext): Promise<Looked> {
  const placed = await place(catalog, records, run.ambiguous);
  const touched = [...new Set(placed.changed.map((p) => p.serverId))];
  const stored = touched.filter((id) => !placed.created.has(id));
  return {
    placed, touched,
    previous: await catalog.storedSources(stored),
    hashes: await catalog.contentHashes(stored),
    names: await catalog.serverNames(stored),
    createdInRun: await catalog.createdAt(stored, run.now),
  };
}

/**
 * Every server the batch changes materialized again from its stored sources and the batch's
 * records. A server an earlier batch of the run wrote (another source's record of it) is
 * rewritten like any stored one.
 */
async function prepare(looked: Looked, records: number, run: RunContext, counts: RunCounts, installKeys: HashedSet): Promise<PreparedBatch> {
  const { placed, touched, previous, hashes, names, createdInRun } = looked;
  for (const id of placed.servers) counts.touched.add(hash52(id));
  // Like ids, assigned once, when a server is created, and kept (src/catalog/install-key.ts).
  const keys = assignInstallKeys([...placed.created].map((id) => [id, placed.names.get(id) ?? id] as const), installKeys.asSet());
  // Versions are append-only upstream: an update keeps the versions already known beside its own.
  const changed = placed.changed.map((p) => withKnownVersions(p, previous.get(p.serverId)));
  const fresh = new Map<string, Placement[]>();
  for (const p of changed) fresh.set(p.serverId, [...(fresh.get(p.serverId) ?? []), p]);
  const writes: ServerWrite[] = [];
  for (const [i, id] of touched.entries()) {
    // A server a turn of the event loop: the last batch's writes move on meanwhile (each
    // statement's callback hands SQLite the next one), where a longer turn left SQLite waiting.
    if (i > 0) await setImmediate();
    const incoming = (fresh.get(id) ?? []).map(serverOf);
    const replaced = new Set(incoming.map((s) => sourceKey(s.source, s.key)));
    const kept = (previous.get(id) ?? []).filter((s) => !replaced.has(sourceKey(s.source, s.key))).map((s) => s.normalized).filter(isUpstreamServer);
    const entry = materialize(id, [...incoming, ...kept], placed.names.get(id) ?? names.get(id));
    const isNew = placed.created.has(id);
    if (!isNew && hashes.get(id) === entry.contentHash) continue;
    if (isNew) counts.added += 1;
    else if (!createdInRun.has(id)) counts.updated.add(hash52(id));
    // As rows at once: the entry's object tree dies young, while the rows wait for SQLite (catalog-rows.ts).
    writes.push({ rows: serverRowsOf(entry, run.now), isNew, installKey: keys.get(id) });
  }
  const saved = changed.map((p) => ({ source: p.source, key: p.key, serverId: p.serverId, recordHash: p.recordHash, serverJson: p.serverJson, rawJson: p.rawJson }));
  return { saved, created: placed.created, newKeys: placed.newKeys, writes, records };
}

interface Placed {
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
async function place(writer: PlacementLookups, records: readonly ReadRecord[], ambiguous: Hash52Set): Promise<Placed> {
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

/** A run-long set of strings kept as hash52 values: a few bytes each, however long the string. */
class HashedSet {
  private readonly hashes = new Hash52Set();

  constructor(values: Iterable<string>) {
    for (const value of values) this.hashes.add(hash52(value));
  }

  /** As the Set<string> assignInstallKeys takes (it asks `has` and `add`); a collision only passes over a free key. */
  asSet(): Set<string> {
    const hashes = this.hashes;
    return new (class extends Set<string> {
      override has(value: string): boolean {
        return hashes.has(hash52(value));
      }
      override add(value: string): this {
        hashes.add(hash52(value));
        return this;
      }
    })();
  }
}

/**
 * Tools an endpoint listed itself (by the status monitor) join the server's record as the
 * `monitor` source for that endpoint. Returns whether the catalog changed.
 */
export async function attachEndpointTools(store: Store, serverId: string, url: string, tools: readonly UpstreamTool[], now: string): Promise<boolean> {
  return store.withCatalogWriter(async (writer) => {
    const name = (await writer.serverNames([serverId])).get(serverId);
    if (name === undefined) return false;
    const server: UpstreamServer = {
      source: 'monitor', key: url, name, title: null, description: '', version: null, versions: [], repositoryUrl: null, repositorySubfolder: null,
      websiteUrl: null, license: null, publishedAt: null, updatedAt: null, packages: [], remotes: [], tools: fitTools(tools), upstreamCategories: [],
      oauth: false, declaresSecrets: false,
    };
    const recordHash = hashOf([server]);
    if ((await writer.sourceHash('monitor', url)) === recordHash) return false;
    const others = ((await writer.storedSources([serverId])).get(serverId) ?? []).filter((s) => !(s.source === 'monitor' && s.key === url));
    const entry = materialize(serverId, [server, ...others.map((s) => s.normalized).filter(isUpstreamServer)], name);
    const changed = (await writer.contentHashes([serverId])).get(serverId) !== entry.contentHash;
    if (changed) await writer.writeServers([{ rows: serverRowsOf(entry, now), isNew: false }]);
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
  // The documents of those older versions stay too, for the registry API.
  const given = new Set((current.published ?? []).map((v) => v.version));
  const olderPublished = (previous.published ?? []).filter((v) => !given.has(v.version)).map((v) => ({ ...v, isLatest: false }));
  const published = current.published === undefined ? undefined : [...current.published, ...olderPublished];
  return { ...record, serverJson: JSON.stringify({ ...current, versions, publishedAt: dates[0] ?? current.publishedAt, ...(published ? { published } : {}) }) };
}

function isUpstreamServer(value: unknown): value is UpstreamServer {
  return isObject(value) && typeof value.source === 'string' && typeof value.name === 'string' && Array.isArray(value.packages) && Array.isArray(value.versions);
}
