/**
 * The write side of the catalog, used by ingest inside one transaction: a failed run rolls
 * back and leaves the previous catalog untouched. Writes are batched (multi-row statements),
 * so a large catalog ingests in seconds.
 */
import type { Knex } from 'knex';
import { TAXONOMY } from '../catalog/taxonomy.js';
import { installKeyBase } from '../catalog/install-key.js';
import { uniqueId } from '../catalog/ids.js';
import { REGISTRY_VERSION_COLUMNS } from './registry-versions.js';
import { SERVER_COLUMNS, type ServerRows } from './catalog-rows.js';
import type { SourceName } from '../types.js';
import { ignoreOn, insertMany, mergeOn, type BulkInsert, type Row } from './bulk-insert.js';
import { dialectOf, type Db } from './db.js';
import { FTS_COLUMNS, type FtsTable } from './fts.js';
import { deferIndexes, withIndexesDeferred, type DeferredIndexes } from './deferred-indexes.js';
import { withFirstLoadJournal } from './first-load-journal.js';
import { SCHEMA } from './migrations/index.js';
import { createSearchSnapshots } from './search-snapshots.js';
import { createSearchSource, type CatalogSearchSource } from './search-reads.js';

export interface SourceRow {
  readonly source: SourceName;
  readonly key: string;
  readonly serverId: string;
  readonly recordHash: string;
}

/** Everything ingest needs to decide where a record belongs, loaded once per run. */
export interface CatalogIndex {
  /** `source\u0000key` → the source row. */
  readonly sources: Map<string, SourceRow>;
  /** merge key → server id. */
  readonly keys: Map<string, string>;
  /** server id → canonical name. */
  readonly servers: Map<string, string>;
  /** Every install key the catalog has assigned (src/catalog/install-key.ts). */
  readonly installKeys: Set<string>;
}

/** A server to write: a new one, or a stored one whose content changed. */
export interface ServerWrite {
  /** Its catalog entry as rows (catalog-rows.ts `serverRowsOf`). */
  readonly rows: ServerRows;
  readonly isNew: boolean;
  /** A new server's install key, as ingest assigned it; without one, the writer assigns the next free one. */
  readonly installKey?: string;
}

export interface StoredSource {
  readonly source: SourceName;
  readonly key: string;
  readonly normalized: unknown;
}

export interface CatalogWriter {
  loadIndex(): Promise<CatalogIndex>;
  /** The stored normalized records of every source of these servers. */
  storedSources(serverIds: readonly string[]): Promise<Map<string, StoredSource[]>>;
  /** Content hashes of these servers as stored. */
  contentHashes(serverIds: readonly string[]): Promise<Map<string, string>>;
  /** Names of these servers as stored. */
  serverNames(serverIds: readonly string[]): Promise<Map<string, string>>;
  /** `recordJson` and `normalizedJson`: the upstream document and the normalized record, as JSON text. */
  saveSources(rows: ReadonlyArray<SourceRow & { recordJson: string; normalizedJson: string }>, now: string): Promise<void>;
  /**
   * Inserts new servers and replaces changed ones, with their remotes, packages, tools, categories
   * and index rows, changed at the time their rows were made for. `entries` may be lazy: it is
   * taken a batch at a time (of `batchSize` servers, 2,000 by default) while the last is written.
   */
  writeServers(entries: Iterable<ServerWrite>, batchSize?: number): Promise<void>;
  /** Gives servers merge keys, [key, server id]; a key some server already owns stays with it. */
  addMatchKeys(pairs: ReadonlyArray<readonly [string, string]>): Promise<void>;
  countTools(): Promise<number>;
  countServers(): Promise<number>;
  /** The stored source rows of these records, by `sourceKey`. */
  sourceRows(records: ReadonlyArray<{ readonly source: SourceName; readonly key: string }>): Promise<Map<string, SourceRow>>;
  /** The server each of these merge keys belongs to (keys no server has are left out). */
  keyOwners(keys: readonly string[]): Promise<Map<string, string>>;
  /** Server ids by canonical name, for these names. */
  serversByName(names: readonly string[]): Promise<Map<string, string>>;
  /** The sources each of these servers has a record from. */
  sourcesOfServers(serverIds: readonly string[]): Promise<Map<string, Set<SourceName>>>;
  /** Those of these ids that servers have. */
  takenIds(ids: readonly string[]): Promise<Set<string>>;
  /** Those of these servers created at `at` (by this run). */
  createdAt(serverIds: readonly string[], at: string): Promise<Set<string>>;
  /** Every install key the catalog has assigned. */
  installKeys(): Promise<string[]>;
  /**
   * Runs `work` (a run of writes) with the non-unique indexes of empty tables built after it
   * (SQLite; see deferred-indexes.ts); they are built at once should `work` replace a server.
   */
  deferIndexes<T>(work: () => Promise<T>): Promise<T>;
  sourceHash(source: SourceName, key: string): Promise<string | null>;
  /**
   * The catalog as this transaction has written it, for the search engines (their SQL runs in
   * the transaction, and index snapshots are kept in it), and the content generation the write
   * commits (what instances will follow once it does).
   */
  searchSource(): Promise<{ readonly generation: string; readonly source: CatalogSearchSource }>;
}

export const sourceKey = (source: string, key: string): string => `${source}\u0000${key}`;

/** The advisory lock key that serializes catalog writers on PostgreSQL (any fixed number). */
const CATALOG_WRITER_LOCK = 0x5e_7a_47;

/** Ids per `IN (…)` list of a lookup or delete. */
const CHUNK = 400;

/**
 * Runs `work` in one transaction with a writer bound to it; the catalog's generation moves with
 * it if it writes anything. `ended` is told whether it wrote (committed or not).
 * A write into an empty SQLite catalog runs with a rollback journal (see first-load-journal.ts).
 */
export async function withCatalogWriter<T>(db: Db, work: (writer: CatalogWriter) => Promise<T>, ended: (wrote: boolean) => void = () => undefined): Promise<T> {
  const written: Written = { servers: 0, rows: 0 };
  const result = await withDiskSorts(db, () => withFirstLoadJournal(db, () => db.transaction(async (trx) => {
    // One catalog writer at a time across instances (SQLite has a single writer by design): the
    // writer allocates row numbers from max(seq), which two concurrent writers would both take.
    if (dialectOf(trx) === 'postgres') await trx.raw('SELECT pg_advisory_xact_lock(?)', [CATALOG_WRITER_LOCK]);
    // Written first: on SQLite the transaction holds the write lock (waiting for it, busy_timeout)
    // before it reads anything, so a write another connection commits meanwhile (the monitor's
    // checks, a search index snapshot) cannot leave it reading a stale snapshot it may not write
    // from (SQLITE_BUSY_SNAPSHOT, at once). The new generation shows only when the write commits.
    await moveContentGeneration(trx, 1);
    const result = await work(createWriter(trx, written));
    // A write that wrote nothing (a re-ingest or sync that brought nothing new) leaves the
    // generation where it was: every instance keeps its answers and its search index.
    if (written.rows === 0) await moveContentGeneration(trx, -1);
    return result;
  }))).finally(() => ended(written.rows > 0));
  // After the commit: statistics the planner lacks for a while are no reason to report the write as failed.
  if (written.servers >= ANALYZE_AFTER_SERVERS) await refreshStatistics(db).catch(() => undefined);
  return result;
}

/** Servers a write must change for the planner's statistics to be gathered again at once. */
const ANALYZE_AFTER_SERVERS = 1_000;

/**
 * After a bulk write, PostgreSQL's planner still has the statistics of the catalog before it (or
 * none, for a first load) until autovacuum gets round to it (if it is on: it is not on every
 * server). Measured at 100k servers without them: lookups by id and pages at deep offsets ran as
 * sequential scans, 150-460 ms each (10-60 ms once analysed). SQLite's planner needs no statistics
 * for these (it has no ANALYZE data unless asked, and picks the indexes).
 */
async function refreshStatistics(db: Db): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  // The tables a catalog write fills: those it inserts into.
  for (const table of new Set(Object.values(INSERTS).map((insert) => insert.table))) await db.raw('ANALYZE ??', [table]);
}

/**
 * Runs a catalog write with SQLite's sorts spilling to temporary files, not memory (issue 27:
 * the indexes a first load builds after its rows sort a million tools' rows, which in memory took
 * a 100k ingest to 634 MB); the connection's MEMORY (right for serving) returns afterwards.
 * SQLite changes it only outside a transaction, and the SQLite pool is one connection.
 */
async function withDiskSorts<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'sqlite') return work();
  await db.raw('PRAGMA temp_store = FILE');
  try {
    return await work();
  } finally {
    await db.raw('PRAGMA temp_store = MEMORY');
  }
}

/**
 * The row of `catalog_generation` that catalog writes move (migration 006; row 1, which
 * monitor checks also moved, is no longer read: status answers are never kept).
 */
const CONTENT_GENERATION_ROW = 2;

/** Tells every instance's read model that the catalog's content changed (by 1, in the writer's transaction), or takes that back (by -1). */
async function moveContentGeneration(trx: Knex.Transaction, by: 1 | -1): Promise<void> {
  await trx('catalog_generation').where({ id: CONTENT_GENERATION_ROW }).increment('generation', by);
}

/** What a writer's transaction wrote: servers (written or replaced), and rows of any table. */
interface Written {
  servers: number;
  rows: number;
}

/** The content generation as committed. */
export async function readContentGeneration(db: Db): Promise<string> {
  const row: { generation: number | string } | undefined = await db('catalog_generation').where({ id: CONTENT_GENERATION_ROW }).first('generation');
  return String(row?.generation ?? 0);
}

/** Keeps the categories table equal to the taxonomy in code. */
export async function syncTaxonomy(db: Db): Promise<void> {
  await db.transaction(async (trx) => {
    for (const [position, category] of TAXONOMY.entries()) {
      await trx('categories').insert({ slug: category.slug, name: category.name, position }).onConflict('slug').merge();
    }
  });
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const SOURCE_COLUMNS = ['source', 'source_key', 'server_id', 'record', 'normalized', 'record_hash', 'ingested_at'];

/** Every bulk write of the catalog: rows are value arrays in the order of `columns`. */
const INSERTS = {
  servers: { table: 'servers', columns: [...SERVER_COLUMNS, 'seq', 'id', 'created_at', 'install_key'] },
  serversFts: { table: 'servers_fts', columns: ['rowid', ...FTS_COLUMNS.servers_fts] },
  categories: { table: 'server_categories', columns: ['slug', 'server_id'] },
  remotes: { table: 'remotes', columns: ['server_id', 'position', 'transport', 'url', 'host', 'headers'] },
  packages: {
    table: 'packages',
    columns: ['server_id', 'position', 'registry_type', 'identifier', 'version', 'runtime_hint', 'transport', 'environment_variables', 'arguments'],
  },
  tools: {
    table: 'tools',
    columns: ['seq', 'id', 'server_id', 'position', 'name', 'title', 'description', 'input_schema', 'annotations', 'authentication', 'sort_name'],
  },
  toolsFts: { table: 'tools_fts', columns: ['rowid', ...FTS_COLUMNS.tools_fts] },
  sources: { table: 'sources', columns: SOURCE_COLUMNS, onConflict: mergeOn(['source', 'source_key'], SOURCE_COLUMNS) },
  matchKeys: { table: 'match_keys', columns: ['match_key', 'server_id'], onConflict: ignoreOn(['match_key']) },
  registryVersions: { table: 'registry_versions', columns: [...REGISTRY_VERSION_COLUMNS] },
} satisfies Record<string, BulkInsert>;

/**
 * FTS5 keeps the terms of the rows a transaction inserts in memory and writes them out as a new
 * segment whenever they pass `hashsize` bytes (1 MiB by default), merging segments as they pile
 * up. A bulk ingest at 1 MiB writes and re-merges hundreds of small segments; at 64 MiB it writes
 * a few large ones (the buffer is written at commit anyway, so only a large transaction holds
 * that much). 16 MiB a table keeps most of that gain while an ingest's memory stays bounded
 * (issue 27: two tables at 64 MiB were a quarter of the 512 MB it may take). The setting is
 * stored with the table (its `_config` shadow table), not the catalog.
 */
const FTS_HASH_BYTES = 16 * 1024 * 1024;

async function widenFtsBuffers(trx: Knex.Transaction): Promise<void> {
  for (const table of Object.keys(FTS_COLUMNS) as FtsTable[]) await trx.raw(`INSERT INTO ${table} (${table}, rank) VALUES ('hashsize', ?)`, [FTS_HASH_BYTES]);
}

/** `written` counts the servers it writes (withCatalogWriter analyses after a bulk write). */
function createWriter(trx: Knex.Transaction, written: Written): CatalogWriter {
  const nextSeq = async (table: string): Promise<number> => {
    const row = await trx(table).max({ seq: 'seq' }).first();
    return Number(row?.seq ?? 0) + 1;
  };
  // Kept across the calls of one transaction (ingest writes a batch per call).
  let seqs: { server: number; tool: number } | null = null;
  let widened = dialectOf(trx) !== 'sqlite';
  let deferred: DeferredIndexes | null = null;
  let installKeys: Set<string> | null = null;

  return {
    async loadIndex() {
      // One after another: a transaction is one connection, which runs one query at a time.
      const sources = await trx('sources').select('source', 'source_key', 'server_id', 'record_hash');
      const keys = await trx('match_keys').select('match_key', 'server_id');
      const servers: Array<{ id: string; name: string; install_key: string | null }> = await trx('servers').select('id', 'name', 'install_key');
      return {
        sources: new Map(sources.map((r) => [sourceKey(r.source, r.source_key), { source: r.source, key: r.source_key, serverId: r.server_id, recordHash: r.record_hash }])),
        keys: new Map(keys.map((r) => [r.match_key, r.server_id])),
        servers: new Map(servers.map((r) => [r.id, r.name])),
        installKeys: new Set(servers.flatMap((r) => (r.install_key === null ? [] : [r.install_key]))),
      };
    },

    async storedSources(serverIds) {
      const out = new Map<string, StoredSource[]>();
      for (const chunk of chunks(serverIds)) {
        const rows: Array<{ server_id: string; source: SourceName; source_key: string; normalized: string }> = await trx('sources')
          .whereIn('server_id', chunk)
          .select('server_id', 'source', 'source_key', 'normalized');
        for (const row of rows) out.set(row.server_id, [...(out.get(row.server_id) ?? []), { source: row.source, key: row.source_key, normalized: JSON.parse(row.normalized) }]);
      }
      return out;
    },

    async contentHashes(serverIds) {
      return serverColumn<string>(trx, 'content_hash', serverIds);
    },

    async serverNames(serverIds) {
      return serverColumn<string>(trx, 'name', serverIds);
    },

    async saveSources(rows, now) {
      written.rows += rows.length;
      await insertMany(trx, INSERTS.sources, rows.map((row) => [row.source, row.key, row.serverId, row.recordJson, row.normalizedJson, row.recordHash, now]));
    },

    async writeServers(entries, batchSize = WRITE_BATCH) {
      if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
      seqs ??= { server: await nextSeq('servers'), tool: await nextSeq('tools') };
      const next = seqs;
      // A new server's install key as ingest assigned it, or else the next free one (src/catalog/install-key.ts).
      const installKeyFor = async ({ rows, installKey }: ServerWrite): Promise<string> => {
        if (installKey !== undefined && installKeys === null) return installKey;
        installKeys ??= new Set<string>((await trx('servers').whereNotNull('install_key').pluck('install_key')) as string[]);
        const taken = installKeys;
        const key = installKey ?? uniqueId(installKeyBase(rows.name), (candidate) => taken.has(candidate));
        taken.add(key);
        return key;
      };
      const source = entries[Symbol.iterator]();
      // The next batch is materialized (the iterator may be lazy) and turned into rows while the
      // last one is being written: SQLite works on its own thread meanwhile.
      const write = async (): Promise<void> => {
        let writing: Promise<void> = Promise.resolve();
        try {
          for (;;) {
            const batch = await takeBatch(source, batchSize);
            await writing;
            if (batch.length === 0) return;
            written.servers += batch.length;
            written.rows += batch.length;
            if (!widened) {
              await widenFtsBuffers(trx);
              widened = true;
            }
            const changed = batch.filter((e) => !e.isNew).map((e) => e.rows.id);
            // Replacing a server needs the indexes deferred so far (its children are found through them).
            if (changed.length > 0) await deferred?.build();
            const stored = await serverColumn<number>(trx, 'seq', changed);
            const rows = new CatalogRows();
            for (const write of batch) {
              const { rows: server, isNew } = write;
              const seq = isNew ? next.server++ : stored.get(server.id);
              if (seq === undefined) throw new Error(`server ${server.id} is not in the catalog`);
              next.tool = rows.add(server, seq, isNew ? await installKeyFor(write) : null, next.tool);
            }
            writing = writeRows(trx, rows, changed, [...stored.values()]);
            // Marked handled now: it is awaited on the next turn, after the next batch is taken.
            writing.catch(() => undefined);
          }
        } finally {
          // When taking the next batch failed, the batch being written settles before the rollback.
          await writing.catch(() => undefined);
        }
      };
      if (deferred !== null) await write();
      else await withIndexesDeferred(trx, DEFERRED_TABLES, write);
    },

    async deferIndexes(work) {
      if (deferred !== null) return work();
      deferred = await deferIndexes(trx, DEFERRED_TABLES);
      try {
        return await work();
      } finally {
        // Built before the transaction ends either way: a failure rolls the drop back with the rest.
        const pending = deferred;
        deferred = null;
        await pending.build();
      }
    },

    async addMatchKeys(pairs) {
      written.rows += pairs.length;
      await insertMany(trx, INSERTS.matchKeys, pairs.map(([key, serverId]) => [key, serverId]));
    },

    async countTools() {
      const row = await trx('tools').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    async countServers() {
      const row = await trx('servers').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    async sourceRows(records) {
      const out = new Map<string, SourceRow>();
      // A source's keys at a time: SQLite answers `source = ? AND source_key IN (…)` through the
      // unique index four times as fast as a list of (source, key) pairs (100k servers: 5 against
      // 20 ms for 400 keys), and a batch nearly always holds one source.
      const keysBySource = new Map<SourceName, string[]>();
      for (const { source, key } of records) {
        const keys = keysBySource.get(source);
        if (keys) keys.push(key);
        else keysBySource.set(source, [key]);
      }
      for (const [source, keys] of keysBySource) {
        for (const chunk of chunks(keys)) {
          const rows: Array<{ source_key: string; server_id: string; record_hash: string }> = await trx('sources')
            .where('source', source)
            .whereIn('source_key', chunk)
            .select('source_key', 'server_id', 'record_hash');
          for (const r of rows) out.set(sourceKey(source, r.source_key), { source, key: r.source_key, serverId: r.server_id, recordHash: r.record_hash });
        }
      }
      return out;
    },

    async keyOwners(keys) {
      const out = new Map<string, string>();
      for (const chunk of chunks(keys)) {
        const rows: Array<{ match_key: string; server_id: string }> = await trx('match_keys').whereIn('match_key', chunk).select('match_key', 'server_id');
        for (const r of rows) out.set(r.match_key, r.server_id);
      }
      return out;
    },

    async serversByName(names) {
      const out = new Map<string, string>();
      for (const chunk of chunks(names)) {
        const rows: Array<{ id: string; name: string }> = await trx('servers').whereIn('name', chunk).select('id', 'name');
        for (const r of rows) out.set(r.name, r.id);
      }
      return out;
    },

    async sourcesOfServers(serverIds) {
      const out = new Map<string, Set<SourceName>>();
      for (const chunk of chunks(serverIds)) {
        const rows: Array<{ server_id: string; source: SourceName }> = await trx('sources').whereIn('server_id', chunk).select('server_id', 'source');
        for (const r of rows) out.set(r.server_id, (out.get(r.server_id) ?? new Set()).add(r.source));
      }
      return out;
    },

    async takenIds(ids) {
      const out = new Set<string>();
      for (const chunk of chunks(ids)) for (const id of (await trx('servers').whereIn('id', chunk).pluck('id')) as string[]) out.add(id);
      return out;
    },

    async createdAt(serverIds, at) {
      const out = new Set<string>();
      for (const chunk of chunks(serverIds)) for (const id of (await trx('servers').whereIn('id', chunk).where('created_at', at).pluck('id')) as string[]) out.add(id);
      return out;
    },

    async installKeys() {
      return (await trx('servers').whereNotNull('install_key').pluck('install_key')) as string[];
    },

    async sourceHash(source, key) {
      const row = await trx('sources').where({ source, source_key: key }).first('record_hash');
      return row?.record_hash ?? null;
    },

    async searchSource() {
      return { generation: await readContentGeneration(trx), source: createSearchSource(trx, createSearchSnapshots(trx, SCHEMA)) };
    },
  };
}

/** Tables a first ingest fills from empty: their non-unique indexes are built after it. */
const DEFERRED_TABLES = ['servers', 'server_categories', 'remotes', 'packages', 'tools'];

/** Servers written per batch: each batch's rows are built while the one before is written. */
const WRITE_BATCH = 2_000;
/** Entries taken between two turns of the event loop, so a batch being written moves on. */
const TAKE_SLICE = 50;

/** The next `size` entries (fewer at the end), taking a slice per turn of the event loop. */
async function takeBatch(source: Iterator<ServerWrite>, size: number): Promise<ServerWrite[]> {
  const batch: ServerWrite[] = [];
  for (;;) {
    for (let i = 0; i < TAKE_SLICE; i += 1) {
      const next = source.next();
      if (next.done) return batch;
      batch.push(next.value);
      if (batch.length === size) return batch;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** One column of each of these stored servers, by id (servers not stored are left out). */
async function serverColumn<T>(trx: Knex.Transaction, column: 'seq' | 'content_hash' | 'name', serverIds: readonly string[]): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  for (const chunk of chunks(serverIds)) {
    const rows: Array<{ id: string; value: T }> = await trx('servers').whereIn('id', chunk).select('id', { value: column });
    for (const row of rows) out.set(row.id, row.value);
  }
  return out;
}

/** The rows of a batch of servers, table by table, in the column order of INSERTS, with their row numbers. */
class CatalogRows {
  readonly servers: Row[] = [];
  /** Changed servers: their new values by column. */
  readonly updates: Array<{ id: string; values: Record<string, unknown> }> = [];
  readonly serverFts: Row[] = [];
  readonly categories: Row[] = [];
  readonly remotes: Row[] = [];
  readonly packages: Row[] = [];
  readonly tools: Row[] = [];
  readonly toolFts: Row[] = [];
  /** What the registry API serves of each server (registry-versions.ts). */
  readonly registryVersions: Row[] = [];

  /** Adds a server's rows (a new one with its install key) as row `seq`; its tools take seqs from `toolSeq` on. Returns the next free tool seq. */
  add(server: ServerRows, seq: number, newInstallKey: string | null, toolSeq: number): number {
    if (newInstallKey !== null) this.servers.push([...server.server, seq, server.id, server.changedAt, newInstallKey]);
    else this.updates.push({ id: server.id, values: Object.fromEntries(SERVER_COLUMNS.map((column, i) => [column, server.server[i]])) });
    this.serverFts.push([seq, ...server.serverFts]);
    this.categories.push(...server.categories);
    this.remotes.push(...server.remotes);
    this.packages.push(...server.packages);
    this.registryVersions.push(...server.registryVersions);
    let next = toolSeq;
    for (const [i, tool] of server.tools.entries()) {
      const rowid = next++;
      this.tools.push([rowid, ...tool]);
      this.toolFts.push([rowid, ...(server.toolFts[i] ?? [])]);
    }
    return next;
  }
}

/** Writes a batch: the changed servers' old children and index rows out, then every row in. */
async function writeRows(trx: Knex.Transaction, rows: CatalogRows, changed: readonly string[], changedSeqs: readonly number[]): Promise<void> {
  await deleteChildren(trx, changed, changedSeqs);
  for (const { id, values } of rows.updates) await trx('servers').where({ id }).update(values);
  await insertMany(trx, INSERTS.servers, rows.servers);
  await insertMany(trx, INSERTS.serversFts, rows.serverFts);
  await insertMany(trx, INSERTS.categories, rows.categories);
  await insertMany(trx, INSERTS.remotes, rows.remotes);
  await insertMany(trx, INSERTS.packages, rows.packages);
  await insertMany(trx, INSERTS.tools, rows.tools);
  await insertMany(trx, INSERTS.toolsFts, rows.toolFts);
  await insertMany(trx, INSERTS.registryVersions, rows.registryVersions);
}

/** Removes what a changed server is about to get again: its children and its index rows. */
async function deleteChildren(trx: Knex.Transaction, serverIds: readonly string[], serverSeqs: readonly number[]): Promise<void> {
  for (const chunk of chunks(serverIds)) {
    const toolSeqs: Array<{ seq: number }> = await trx('tools').whereIn('server_id', chunk).select('seq');
    for (const seqChunk of chunks(toolSeqs.map((t) => t.seq))) {
      await trx.raw(`DELETE FROM tools_fts WHERE rowid IN (${seqChunk.map(() => '?').join(', ')})`, seqChunk);
    }
    for (const table of ['tools', 'remotes', 'packages', 'server_categories', 'registry_versions']) await trx(table).whereIn('server_id', chunk).delete();
  }
  for (const seqChunk of chunks(serverSeqs)) {
    if (seqChunk.length > 0) await trx.raw(`DELETE FROM servers_fts WHERE rowid IN (${seqChunk.map(() => '?').join(', ')})`, seqChunk);
  }
}
