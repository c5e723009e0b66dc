/**
 * Database settings a bulk catalog write runs under, and the upkeep after it: what makes a large
 * ingest fast and bounded in memory without changing what it writes (bench/README.md measures each).
 */
import type { Knex } from 'knex';
import { dialectOf, type Db } from './db.js';
import { FTS_COLUMNS, type FtsTable } from './fts.js';

/**
 * Runs `work` with SQLite's sorts spilling to temporary files: building a first load's indexes
 * sorts every tool's row, which in memory would bound the ingest's memory by the catalog's size.
 * The connection's in-memory sorts (right for serving) return afterwards; SQLite changes the
 * setting only outside a transaction, and its pool is one connection.
 */
export async function withDiskSorts<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'sqlite') return work();
  await db.raw('PRAGMA temp_store = FILE');
  try {
    return await work();
  } finally {
    await db.raw('PRAGMA temp_store = MEMORY');
  }
}

/**
 * FTS5's buffer of a transaction's new terms, per table: written out as a segment each time it
 * fills, so a larger one means fewer segments to write and merge again; this size bounds an
 * ingest's memory still. It is stored with the table, not the catalog.
 */
const FTS_BUFFER_BYTES = 16 * 1024 * 1024;

/** Widens FTS5's buffer of new terms on each full-text table (SQLite), inside the writer's transaction. */
export async function widenFtsBuffers(trx: Knex.Transaction): Promise<void> {
  for (const table of Object.keys(FTS_COLUMNS) as FtsTable[]) await trx.raw(`INSERT INTO ${table} (${table}, rank) VALUES ('hashsize', ?)`, [FTS_BUFFER_BYTES]);
}

/** Servers a write must change for the planner's statistics to be gathered again at once. */
const ANALYZE_AFTER_SERVERS = 1_000;

/**
 * After a bulk write PostgreSQL's planner keeps the statistics of the catalog before it until
 * autovacuum runs (where it runs), and picks sequential scans for lookups by id; SQLite's planner
 * needs none. Never fails: stale statistics are no reason to report a committed write as failed.
 */
export async function refreshStatistics(db: Db, tables: readonly string[], serversWritten: number): Promise<void> {
  if (dialectOf(db) !== 'postgres' || serversWritten < ANALYZE_AFTER_SERVERS) return;
  try {
    for (const table of tables) await db.raw('ANALYZE ??', [table]);
  } catch {
    // The next autovacuum gathers them.
  }
}
