/**
 * The write side of the catalog, used by ingest inside one transaction: a failed run rolls back
 * and leaves the previous catalog untouched. Writes are batched multi-row statements.
 */
import type { Knex } from 'knex';
import { insertMany } from './bulk-insert.js';
import { refreshStatistics, withDiskSorts } from './bulk-write-tuning.js';
import { CATALOG_INSERTS, CATALOG_WRITE_TABLES } from './catalog-inserts.js';
import { moveContentGeneration, readContentGeneration } from './content-generation.js';
import { dialectOf, type Db } from './db.js';
import { deferIndexes, withIndexesDeferred, type DeferredIndexes } from './deferred-indexes.js';
import { withFirstLoadJournal } from './first-load-journal.js';
import { SCHEMA } from './migrations/index.js';
import { createSearchSnapshots } from './search-snapshots.js';
import { createSearchSource, type CatalogSearchSource } from './search-reads.js';
import { assertBatchSize, ServerWriter, WRITE_BATCH, type ServerWrite, type WriteCounts } from './server-writes.js';
import { refreshDuplicates } from './quality-flags.js';
import { rescanTools, type RescanSummary } from './tool-rescan.js';
import { createCurationRows, type CurationRows } from './curation-rows.js';
import { createIdentityRows, type IdentityRows } from './identity-rows.js';
import { createPublishedWrites, type PublishedWrites } from './published-versions.js';
import { insertAudit, type AuditEntry } from './access-store.js';
import { createWriteLookups, type SourceRow, type WriteLookups } from './write-lookups.js';

export interface CatalogWriter extends WriteLookups, IdentityRows, CurationRows {
  /** `recordJson` and `normalizedJson`: the upstream document and the normalized record, as JSON text. */
  saveSources(rows: ReadonlyArray<SourceRow & { recordJson: string; normalizedJson: string }>, now: string): Promise<void>;
  /**
   * Inserts new servers and replaces changed ones, with their remotes, packages, tools, categories
   * and index rows, changed at the time their rows were made for. `entries` may be lazy: it is
   * taken a batch at a time (of `batchSize` servers, 2,000 by default) while the last is written.
   */
  writeServers(entries: Iterable<ServerWrite>, batchSize?: number): Promise<void>;
  /**
   * Runs `work` (a run of writes) with the non-unique indexes of empty tables built after it
   * (SQLite; see deferred-indexes.ts); they are built at once should `work` replace a server.
   */
  deferIndexes<T>(work: () => Promise<T>): Promise<T>;
  /**
   * The catalog as this transaction has written it, for the search engines (their SQL runs in
   * the transaction, and index snapshots are saved in it), and the content generation the write
   * commits (what instances will follow once it does).
   */
  searchSource(): Promise<{ readonly generation: string; readonly source: CatalogSearchSource }>;
  /** Makes what the catalog derives from its tool definitions again by today's rules (tool-rescan.ts), as of `now`. */
  rescanTools(now: string): Promise<RescanSummary>;
  /**
   * Sets or clears each server's `duplicate` quality flag by the catalog as written so far
   * (quality-flags.ts): a write calls it after its last server. Returns how many changed.
   */
  refreshDuplicates(): Promise<number>;
  /** The versions published to this registry, written with the catalog records made from them. */
  readonly published: PublishedWrites;
  /** Writes an audit entry in this write's transaction: it stands or falls with the write. */
  audit(entry: AuditEntry): Promise<void>;
}

/** The advisory lock key that serializes catalog writers on PostgreSQL (any fixed number). */
const CATALOG_WRITER_LOCK = 0x5e_7a_47;

/** Tables a first ingest fills from empty: their non-unique indexes are built after it. */
const DEFERRED_TABLES = ['servers', 'server_categories', 'remotes', 'packages', 'tools'];

/**
 * Runs `work` in one transaction with a writer bound to it; the catalog's generation moves with
 * it if it writes anything. `ended` is told whether it wrote (committed or not).
 * A write into an empty SQLite catalog runs with a rollback journal (see first-load-journal.ts).
 */
export async function withCatalogWriter<T>(db: Db, work: (writer: CatalogWriter) => Promise<T>, ended: (wrote: boolean) => void = () => undefined): Promise<T> {
  const counts: WriteCounts = { servers: 0, rows: 0 };
  const result = await withDiskSorts(db, () => withFirstLoadJournal(db, () => db.transaction(async (trx) => {
    // One catalog writer at a time across instances: the writer numbers rows from max(seq).
    if (dialectOf(trx) === 'postgres') await trx.raw('SELECT pg_advisory_xact_lock(?)', [CATALOG_WRITER_LOCK]);
    // Written first, so a SQLite transaction holds the write lock before it reads anything: a
    // commit by another connection meanwhile cannot leave it on a snapshot it may not write from.
    await moveContentGeneration(trx, 1);
    const result = await work(createWriter(trx, counts));
    // A write that wrote nothing leaves the generation, so every instance keeps its answers and index.
    if (counts.rows === 0) await moveContentGeneration(trx, -1);
    return result;
  }))).finally(() => ended(counts.rows > 0));
  await refreshStatistics(db, CATALOG_WRITE_TABLES, counts.servers);
  return result;
}

/** A writer on `trx`; `counts` counts what it writes. */
function createWriter(trx: Knex.Transaction, counts: WriteCounts): CatalogWriter {
  let deferred: DeferredIndexes | null = null;
  const servers = new ServerWriter(trx, counts, async () => deferred?.build());
  const identityRows = createIdentityRows(trx);
  return {
    ...createWriteLookups(trx),
    ...createCurationRows(trx),
    eachStoredRecord: identityRows.eachStoredRecord,
    wholeRecords: identityRows.wholeRecords,
    async removeRecords(records) {
      counts.rows += records.length;
      await identityRows.removeRecords(records);
    },
    async removeServers(ids) {
      counts.rows += ids.length;
      await identityRows.removeServers(ids);
    },
    async addAliases(pairs) {
      counts.rows += pairs.length;
      await identityRows.addAliases(pairs);
    },

    async saveSources(rows, now) {
      counts.rows += rows.length;
      await insertMany(trx, CATALOG_INSERTS.sources, rows.map((row) => [row.source, row.key, row.serverId, row.recordJson, row.normalizedJson, row.recordHash, now]));
    },

    async writeServers(entries, batchSize = WRITE_BATCH) {
      assertBatchSize(batchSize);
      if (deferred !== null) await servers.write(entries, batchSize);
      else await withIndexesDeferred(trx, DEFERRED_TABLES, () => servers.write(entries, batchSize));
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

    async rescanTools(now) {
      const summary = await rescanTools(trx, now);
      counts.rows += summary.toolsChanged + summary.serversChanged;
      return summary;
    },

    async refreshDuplicates() {
      const changed = await refreshDuplicates(trx);
      counts.rows += changed;
      return changed;
    },

    audit: (entry) => insertAudit(trx, entry),

    published: createPublishedWrites(trx, (rows) => {
      counts.rows += rows;
    }),

    async searchSource() {
      return { generation: await readContentGeneration(trx), source: createSearchSource(trx, createSearchSnapshots(trx, SCHEMA)) };
    },
  };
}

