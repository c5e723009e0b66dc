/**
 * Servers written a batch at a time inside a catalog write's transaction: a new server inserted
 * with its row numbers and install key, a changed one replaced with all its child and index rows.
 */
import type { Knex } from 'knex';
import { uniqueId } from '../catalog/ids.js';
import { installKeyBase } from '../catalog/install-key.js';
import { insertMany, type Row } from './bulk-insert.js';
import { widenFtsBuffers } from './bulk-write-tuning.js';
import { CATALOG_INSERTS } from './catalog-inserts.js';
import { SERVER_COLUMNS, type ServerRows } from './entry-rows.js';
import { dialectOf } from './db.js';
import { inLists } from './in-lists.js';
import { recordToolDefinitions } from './tool-history.js';
import { serverColumn } from './write-lookups.js';

/** A server to write: a new one, or a stored one whose content changed. */
export interface ServerWrite {
  /** Its catalog entry as rows (entry-rows.ts `serverRowsOf`). */
  readonly rows: ServerRows;
  readonly isNew: boolean;
  /** A new server's install key, as ingest assigned it; without one, the writer assigns the next free one. */
  readonly installKey?: string;
}

/** What a writer's transaction wrote: servers (written or replaced), and rows of any table. */
export interface WriteCounts {
  servers: number;
  rows: number;
}

/** Servers written per batch: each batch's rows are built while the one before is written. */
export const WRITE_BATCH = 2_000;
/** Entries taken between two turns of the event loop, so a batch being written moves on. */
const TAKE_SLICE = 50;

export function assertBatchSize(batchSize: number): void {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
}

/** The next free row numbers of `servers` and `tools`. */
interface NextSeqs {
  server: number;
  tool: number;
}

/** Writes servers for one transaction, across the calls of one catalog write. */
export class ServerWriter {
  private next: NextSeqs | null = null;
  private ftsWidened: boolean;
  private installKeys: Set<string> | null = null;

  /** `buildDeferredIndexes` builds the indexes deferred so far: a changed server's children are found through them. */
  constructor(
    private readonly trx: Knex.Transaction,
    private readonly counts: WriteCounts,
    private readonly buildDeferredIndexes: () => Promise<void>,
  ) {
    this.ftsWidened = dialectOf(trx) !== 'sqlite';
  }

  /**
   * Writes `entries` (which may be lazy) a batch of `batchSize` at a time: the next batch is taken
   * and turned into rows while the last one is written, since SQLite works on its own thread.
   */
  async write(entries: Iterable<ServerWrite>, batchSize: number): Promise<void> {
    this.next ??= { server: await this.nextSeq('servers'), tool: await this.nextSeq('tools') };
    const next = this.next;
    const source = entries[Symbol.iterator]();
    let writing: Promise<void> = Promise.resolve();
    try {
      for (;;) {
        const batch = await takeBatch(source, batchSize);
        await writing;
        if (batch.length === 0) return;
        writing = (await this.startBatch(batch, next)).written;
        // Marked handled now: it is awaited on the next turn, after the next batch is taken.
        writing.catch(() => undefined);
      }
    } finally {
      // When taking the next batch failed, the batch being written settles before the rollback.
      await writing.catch(() => undefined);
    }
  }

  /** Counts a batch, turns it into rows and starts writing them. */
  private async startBatch(batch: readonly ServerWrite[], next: NextSeqs): Promise<{ written: Promise<void> }> {
    this.counts.servers += batch.length;
    this.counts.rows += batch.length;
    if (!this.ftsWidened) {
      await widenFtsBuffers(this.trx);
      this.ftsWidened = true;
    }
    const changed = batch.filter((e) => !e.isNew).map((e) => e.rows.id);
    if (changed.length > 0) await this.buildDeferredIndexes();
    const stored = await serverColumn<number>(this.trx, 'seq', changed);
    const rows = new CatalogRows();
    for (const write of batch) {
      const { rows: server, isNew } = write;
      const seq = isNew ? next.server++ : stored.get(server.id);
      if (seq === undefined) throw new Error(`server ${server.id} is not in the catalog`);
      next.tool = rows.add(server, seq, isNew ? await this.installKeyFor(write) : null, next.tool);
    }
    const definitions = batch.map(({ rows: server, isNew }) => ({ serverId: server.id, definitions: server.definitions, isNew, at: server.changedAt }));
    return { written: writeRows(this.trx, rows, changed, [...stored.values()]).then(() => recordToolDefinitions(this.trx, definitions)) };
  }

  private async nextSeq(table: string): Promise<number> {
    const row = await this.trx(table).max({ seq: 'seq' }).first();
    return Number(row?.seq ?? 0) + 1;
  }

  /** A new server's install key as ingest assigned it, or else the next free one (src/catalog/install-key.ts). */
  private async installKeyFor({ rows, installKey }: ServerWrite): Promise<string> {
    if (installKey !== undefined && this.installKeys === null) return installKey;
    this.installKeys ??= new Set<string>((await this.trx('servers').whereNotNull('install_key').pluck('install_key')) as string[]);
    const taken = this.installKeys;
    const key = installKey ?? uniqueId(installKeyBase(rows.name), (candidate) => taken.has(candidate));
    taken.add(key);
    return key;
  }
}

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

/** The rows of a batch of servers, table by table, in the column order of CATALOG_INSERTS, with their row numbers. */
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
  await insertMany(trx, CATALOG_INSERTS.servers, rows.servers);
  await insertMany(trx, CATALOG_INSERTS.serversFts, rows.serverFts);
  await insertMany(trx, CATALOG_INSERTS.categories, rows.categories);
  await insertMany(trx, CATALOG_INSERTS.remotes, rows.remotes);
  await insertMany(trx, CATALOG_INSERTS.packages, rows.packages);
  await insertMany(trx, CATALOG_INSERTS.tools, rows.tools);
  await insertMany(trx, CATALOG_INSERTS.toolsFts, rows.toolFts);
  await insertMany(trx, CATALOG_INSERTS.registryVersions, rows.registryVersions);
}

/** Removes what a changed server is about to get again: its children and its index rows. */
export async function deleteChildren(trx: Knex.Transaction, serverIds: readonly string[], serverSeqs: readonly number[]): Promise<void> {
  for (const list of inLists(serverIds)) {
    const toolSeqs: Array<{ seq: number }> = await trx('tools').whereIn('server_id', list).select('seq');
    for (const seqs of inLists(toolSeqs.map((t) => t.seq))) {
      await trx.raw(`DELETE FROM tools_fts WHERE rowid IN (${seqs.map(() => '?').join(', ')})`, seqs);
    }
    for (const table of ['tools', 'remotes', 'packages', 'server_categories', 'registry_versions']) await trx(table).whereIn('server_id', list).delete();
  }
  for (const seqs of inLists(serverSeqs)) {
    if (seqs.length > 0) await trx.raw(`DELETE FROM servers_fts WHERE rowid IN (${seqs.map(() => '?').join(', ')})`, seqs);
  }
}
