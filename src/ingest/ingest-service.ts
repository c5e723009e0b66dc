/**
 * Ingest (DESIGN.md "Sources"): streams upstream documents, merges records of the same server
 * across sources, and writes the catalog in one transaction, a batch at a time. Ids stay stable across runs,
 * an unchanged input changes nothing, and a failure leaves the previous catalog untouched.
 */
import { setImmediate } from 'node:timers/promises';
import type { SourceName } from '../types.js';
import type { CatalogPolicy } from '../catalog/catalog-policy.js';
import { assignInstallKeys } from '../catalog/install-key.js';
import { serverRowsOf, sourceKey, type CatalogWriter, type ServerWrite, type StoredSource, type Store } from '../store/index.js';
import { curate } from './curation.js';
import type { IngestInput } from './detect.js';
import { FirstLoadFilter } from './first-load-filter.js';
import { hash52, Hash52Set, HashedSet } from './hashed-sets.js';
import { identify, identityKey, type Identity, type IdentityFacts } from './identity.js';
import { matchKeysOf } from './merge-keys.js';
import { withKnownVersions } from './known-versions.js';
import { byPrecedence, materialize } from './materialize.js';
import { afterPending, type PlacementLookups, type PendingBatch, type SavedSource } from './pending-batch.js';
import { place, type Placed, type Placement } from './placement.js';
import { serverOf, type ReadRecord } from './read.js';
import { readInputs } from './read-inputs.js';
import { saveIndexForReaders } from './reader-index.js';
import { Spool } from './spool.js';
import { isUpstreamServer, type UpstreamServer } from './upstream.js';

export { attachEndpointTools } from './endpoint-tools.js';

export interface IngestSummary {
  readonly records: number;
  readonly added: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly servers: number;
  readonly tools: number;
  /** Servers of the run or of the catalog the catalog policy does not admit: removed, or never written. */
  readonly notAdmitted: number;
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
  /**
   * Stored records the run takes out of the catalog (a published name whose every version is
   * deleted): a server that held one is made again from the records it keeps, or removed when
   * none is left. Ingest of upstream files never names any: it adds and replaces records only.
   */
  readonly removed?: ReadonlyArray<{ readonly source: SourceName; readonly key: string }>;
  /** Work in the run's transaction, `before` it reads the stored records and `after` its last write; a throw rolls the run back. */
  readonly alongside?: {
    readonly before?: (writer: CatalogWriter) => Promise<void>;
    readonly after?: (writer: CatalogWriter) => Promise<void>;
  };
  /** The catalog policy (CATALOG_POLICY): servers it does not admit are not kept. */
  readonly policy?: CatalogPolicy | null;
}

/**
 * Records placed, merged and written together; the run holds two batches at a time (one written
 * while the next is materialized). Install keys are given a batch at a time (of the servers a
 * batch creates, a key's publisher gets it first: install-key.ts), so the size decides some keys.
 */
const RECORDS_PER_BATCH = 500;

/**
 * Streams every input into a spool (a bad record aborts before anything is written), then
 * works out which records are one server (identity.ts) and writes them batch by batch in one
 * transaction. Across the run, memory holds a batch and what identity needs of each record (its
 * keys and name), never the records' whole text.
 */
export async function ingest(store: Store, inputs: readonly IngestInput[], options: IngestOptions = {}): Promise<IngestSummary> {
  const started = performance.now();
  const progress = options.onProgress ?? (() => undefined);
  const spool = new Spool();
  try {
    await readAll(inputs, spool, progress, options.signal);
    const now = (options.now ?? (() => new Date()))().toISOString();
    const total = spool.records;
    const sources = spool.sources.sort((a, b) => byPrecedence({ source: a }, { source: b }));
    const batchSize = options.batchSize ?? RECORDS_PER_BATCH;
    const takenOut = new Set((options.removed ?? []).map((r) => identityKey(r.source, r.key)));
    const result = await store.withCatalogWriter(async (writer) => {
      await options.alongside?.before?.(writer);
      const { identity, stored } = await identityOf(writer, spool.read(sources), takenOut);
      const { moved, aliases } = await settle(writer, identity, stored, spool.read(sources), takenOut);
      const written = await writeAll(writer, chained(spool.read(sources), moved), { identity, now, total: total + moved.length, progress, batchSize, signal: options.signal });
      await writer.addAliases(aliases);
      options.signal?.throwIfAborted();
      // Written, then removed before the commit: whether the policy admits a server is known only
      // once all its records are merged, and the batches that hold them may be far apart.
      const { removed: refused } = await curate(writer, options.policy ?? null);
      // A copy is told by the publisher's other servers, which other batches or runs may have written.
      await writer.refreshDuplicates();
      const counted = written.counts(new Set(refused));
      const servers = await writer.countServers();
      // A run that changes a catalog instances may be serving builds their index (reader-index.ts);
      // a first load has no readers yet. Servers not added this run were there before (curation
      // may have removed some of them).
      const hadServers = servers + refused.length > written.added.size;
      if (hadServers && counted.added + counted.updated + refused.length > 0) await saveIndexForReaders(writer, servers);
      await options.alongside?.after?.(writer);
      return { ...counted, notAdmitted: refused.length, servers, tools: await writer.countTools() };
    });
    progress(2 * total, 2 * total);
    return { records: total, ...result, sources, seconds: Math.round((performance.now() - started) / 10) / 100 };
  } finally {
    spool.remove();
  }
}

/** Reads every input into the spool. */
async function readAll(inputs: readonly IngestInput[], spool: Spool, progress: (done: number, total: number) => void, signal: AbortSignal | undefined): Promise<void> {
  let read = 0;
  await readInputs(inputs, spool, (records) => {
    read += records;
    progress(read, 2 * read);
  }, { signal });
}

/** A stored record and the server it belongs to now. */
interface StoredPlace {
  readonly source: SourceName;
  readonly key: string;
  readonly serverId: string;
}

/**
 * Which records are one server: every record the catalog keeps, the run's in place of the stored
 * ones they replace, less those it removes. Also where each stored record is now, read in the same pass.
 */
async function identityOf(writer: CatalogWriter, incoming: Iterable<ReadRecord>, removed: ReadonlySet<string>): Promise<{ identity: Identity; stored: StoredPlace[] }> {
  const facts = new Map<string, IdentityFacts>();
  const stored: StoredPlace[] = [];
  await writer.eachStoredRecord((rows) => {
    for (const row of rows) {
      stored.push({ source: row.source, key: row.key, serverId: row.serverId });
      if (removed.has(identityKey(row.source, row.key))) continue;
      const server = JSON.parse(row.normalized) as UpstreamServer;
      facts.set(identityKey(row.source, row.key), { source: row.source, key: row.key, name: server.name, matchKeys: matchKeysOf(server) });
    }
  });
  for (const { source, key, name, matchKeys } of incoming) facts.set(identityKey(source, key), { source, key, name, matchKeys });
  return { identity: identify(facts.values()), stored };
}

/**
 * Makes room for the identity: stored records whose server changes are read to be written again
 * (`moved`), servers no record belongs to any more are removed, and each one's id is kept as an
 * alias of the server its first record now belongs to. Records the run removes go, and every
 * record their servers keep is written again, so each such server is made again without them.
 */
async function settle(writer: CatalogWriter, identity: Identity, stored: readonly StoredPlace[], incoming: Iterable<ReadRecord>, removed: ReadonlySet<string>): Promise<{ moved: ReadRecord[]; aliases: Array<readonly [string, string]> }> {
  const replaced = new Set<string>();
  for (const { source, key } of incoming) replaced.add(identityKey(source, key));
  const isRemoved = (row: StoredPlace): boolean => removed.has(identityKey(row.source, row.key));
  const losing = new Set(stored.filter(isRemoved).map((row) => row.serverId));
  const leaving: Array<{ source: SourceName; key: string }> = [];
  const rewritten: Array<{ source: SourceName; key: string }> = [];
  const held = new Set<string>();
  const firstOf = new Map<string, { source: SourceName; key: string }>();
  for (const row of stored) {
    held.add(row.serverId);
    if (isRemoved(row)) continue;
    const first = firstOf.get(row.serverId);
    if (first === undefined || byPrecedence(row, first) < 0) firstOf.set(row.serverId, { source: row.source, key: row.key });
    if (replaced.has(identityKey(row.source, row.key))) continue;
    const target = identity.serverOf.get(identityKey(row.source, row.key));
    if (target !== row.serverId) leaving.push({ source: row.source, key: row.key });
    // Stored as it is, it would count as unchanged and its server would not be made again.
    else if (losing.has(row.serverId)) rewritten.push({ source: row.source, key: row.key });
  }
  const gone = [...held].filter((id) => !identity.names.has(id));
  const moved = (await writer.wholeRecords([...leaving, ...rewritten])).map((row) => {
    const server = JSON.parse(row.normalized) as UpstreamServer;
    return { source: row.source, key: row.key, name: server.name, matchKeys: matchKeysOf(server), serverJson: row.normalized, rawJson: row.record, recordHash: row.recordHash };
  });
  const dropped = stored.filter(isRemoved);
  if (dropped.length + rewritten.length > 0) await writer.removeRecords([...dropped, ...rewritten]);
  await writer.removeServers(gone);
  const aliases = gone.flatMap((id) => {
    const first = firstOf.get(id);
    const target = first && identity.serverOf.get(identityKey(first.source, first.key));
    return target ? [[id, target] as const] : [];
  });
  return { moved, aliases };
}

interface RunContext {
  readonly identity: Identity;
  readonly now: string;
  readonly total: number;
  readonly progress: (done: number, total: number) => void;
  readonly batchSize: number;
  readonly signal: AbortSignal | undefined;
}

/** What the run did so far: servers counted once each (by hash52 of the id). */
class RunCounts {
  readonly added = new Hash52Set();
  readonly touched = new Hash52Set();
  readonly updated = new Hash52Set();

  /** Servers added, updated and left unchanged, of those not `removed` (ids) by curation since. */
  counts(removed: ReadonlySet<string>): { added: number; updated: number; unchanged: number } {
    const without = (set: Hash52Set): number => set.size - [...removed].filter((id) => set.has(hash52(id))).length;
    const added = without(this.added);
    const updated = without(this.updated);
    return { added, updated, unchanged: without(this.touched) - added - updated };
  }
}

/**
 * Places and writes the records a batch at a time; the writer's transaction holds the whole run.
 * A batch is looked up and placed before the last one's writes are handed to SQLite, and
 * materialized while SQLite writes them (see pending-batch.ts).
 */
async function writeAll(writer: CatalogWriter, records: Iterable<ReadRecord>, run: RunContext): Promise<RunCounts> {
  const counts = new RunCounts();
  const installKeys = new HashedSet(await writer.installKeys());
  // Into an empty catalog, the lookups need ask only about what the run wrote (first-load-filter.ts).
  const firstLoad = (await writer.countServers()) === 0 ? new FirstLoadFilter(run.total) : null;
  const catalog = firstLoad?.lookups(writer) ?? writer;
  let done = 0;
  const write = async (batch: PreparedBatch): Promise<void> => {
    // From here the database may hold the batch's rows; until here afterPending answers for them.
    firstLoad?.addWritten(batch);
    await writer.writeServers(batch.writes);
    await writer.saveSources(batch.saved.map((s) => ({ ...s, recordJson: s.rawJson, normalizedJson: s.serverJson })), run.now);
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
  return counts;
}

/** The spool's records, then those moved (`settle`): one pass, never held together. */
function* chained(first: Iterable<ReadRecord>, then: Iterable<ReadRecord>): Generator<ReadRecord> {
  yield* first;
  yield* then;
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

/** A batch placed, with what materializing it needs of the catalog. */
interface LookedUpBatch {
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
async function lookUp(catalog: PlacementLookups, records: readonly ReadRecord[], run: RunContext): Promise<LookedUpBatch> {
  const placed = await place(catalog, records, run.identity);
  const touched = [...new Set([...placed.changed.map((p) => p.serverId), ...placed.vacated])];
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
async function prepare(looked: LookedUpBatch, records: number, run: RunContext, counts: RunCounts, installKeys: HashedSet): Promise<PreparedBatch> {
  const { placed, touched, previous, hashes, names, createdInRun } = looked;
  for (const id of placed.servers) counts.touched.add(hash52(id));
  // Like ids, assigned once, when a server is created, and kept (src/catalog/install-key.ts).
  const keys = assignInstallKeys([...placed.created].map((id) => [id, placed.names.get(id) ?? id] as const), installKeys.asSet());
  // Versions are append-only upstream: an update keeps the versions already known beside its own.
  const changed = placed.changed.map((p) => withKnownVersions(p, previous.get(p.serverId)));
  const incomingBy = new Map<string, Placement[]>();
  for (const p of changed) incomingBy.set(p.serverId, [...(incomingBy.get(p.serverId) ?? []), p]);
  const writes: ServerWrite[] = [];
  for (const [i, id] of touched.entries()) {
    // A server a turn of the event loop: the last batch's writes move on meanwhile (each
    // statement's callback hands SQLite the next one), where a longer turn left SQLite waiting.
    if (i > 0) await setImmediate();
    const incoming = (incomingBy.get(id) ?? []).map(serverOf);
    const replaced = new Set(incoming.map((s) => sourceKey(s.source, s.key)));
    // What stays of the server: its stored records not replaced and not gone to another (the monitor's stay with it).
    const stays = (s: StoredSource): boolean => s.source === 'monitor' || run.identity.serverOf.get(identityKey(s.source, s.key)) === id;
    const unchanged = (previous.get(id) ?? []).filter((s) => !replaced.has(sourceKey(s.source, s.key)) && stays(s)).map((s) => s.normalized).filter(isUpstreamServer);
    if (incoming.length === 0 && unchanged.every((s) => s.source === 'monitor')) continue;
    const entry = materialize(id, [...incoming, ...unchanged], placed.names.get(id) ?? run.identity.names.get(id) ?? names.get(id));
    const isNew = placed.created.has(id);
    if (!isNew && hashes.get(id) === entry.contentHash) continue;
    if (isNew) counts.added.add(hash52(id));
    else if (!createdInRun.has(id)) counts.updated.add(hash52(id));
    // As rows at once: the entry's object tree dies young, while the rows wait for SQLite (src/store/entry-rows.ts).
    writes.push({ rows: serverRowsOf(entry, run.now), isNew, installKey: keys.get(id) });
  }
  const saved = changed.map((p) => ({ source: p.source, key: p.key, serverId: p.serverId, recordHash: p.recordHash, serverJson: p.serverJson, rawJson: p.rawJson }));
  return { saved, created: placed.created, writes, records };
}

