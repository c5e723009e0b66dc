/**
 * The ingest's floors, measured beside it. The storage floor: SQLite alone copying the catalog the
 * ingest just wrote into a fresh database (`INSERT … SELECT`, same schema, settings, pragmas and
 * journal, indexes after the rows), so no value passes through JavaScript: no ingest can be faster.
 * The hand-over floor: the same rows handed back through the writer's own `insertMany`, the floor
 * of any ingest written in JavaScript.
 */
import { rm } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { Knex } from 'knex';
import sqlite3 from 'sqlite3';
import { insertMany, type Row } from '../../src/store/bulk-insert.js';
import { openDatabase, sqlitePragmas } from '../../src/store/db.js';

export interface StorageFloor {
  readonly ok: boolean;
  /** From BEGIN to the end of COMMIT. */
  readonly seconds: number;
  readonly serversPerSecond: number;
  /** Seconds per table (its INSERT … SELECT), and for `indexes` and `commit`. */
  readonly steps: Readonly<Record<string, number>>;
  readonly error: string | null;
}

/** What the CLI's connection runs (its default page cache), then the rollback journal a first load writes in (src/store/first-load-journal.ts). */
const PRAGMAS = [...sqlitePragmas(), 'PRAGMA journal_mode = DELETE'];
/** The tables FTS5 makes for each full-text table: created with it, filled through it. */
const FTS_SHADOWS = ['data', 'idx', 'content', 'docsize', 'config'];

interface SchemaRow {
  readonly type: string;
  readonly name: string;
  readonly sql: string;
}

/** Copies `catalogFile` (a finished ingest of `servers` servers) into `copyFile` (overwritten; the caller removes it) and times it. */
export async function measureStorageFloor(catalogFile: string, copyFile: string, servers: number): Promise<StorageFloor> {
  await removeDatabase(copyFile);
  // URI names on, so the catalog is attached read-only: measuring it can neither change nor create it.
  const db = new sqlite3.Database(copyFile, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE | sqlite3.OPEN_URI);
  const steps: Record<string, number> = {};
  try {
    for (const pragma of PRAGMAS) await run(db, pragma);
    await run(db, 'ATTACH DATABASE ? AS done', [`${pathToFileURL(catalogFile).href}?mode=ro`]);
    const { tables, fts, later } = await createCopySchema(db, catalogFile);
    const started = performance.now();
    await run(db, 'BEGIN');
    for (const table of tables) {
      const columns = fts.includes(table.name) ? (await columnsOf(db, table.name, true)).map(quote).join(', ') : '*';
      steps[table.name] = await timed(() => run(db, `INSERT INTO main.${quote(table.name)} ${columns === '*' ? '' : `(${columns})`} SELECT ${columns} FROM done.${quote(table.name)}`));
    }
    steps.indexes = await timed(async () => {
      for (const index of later) await run(db, index.sql);
    });
    steps.commit = await timed(() => run(db, 'COMMIT'));
    // To the millisecond, at least one: a small catalog copies in a few, and 0 s would make the rate infinite.
    const seconds = Math.max(0.001, Math.round(performance.now() - started) / 1000);
    return { ok: true, seconds, serversPerSecond: Math.round(servers / seconds), steps, error: null };
  } catch (err) {
    return failed(steps, err);
  } finally {
    await close(db);
  }
}

interface CopySchema {
  /** Tables to fill, in the catalog's order (full-text tables among them, their shadow tables not). */
  readonly tables: readonly SchemaRow[];
  /** The full-text tables' names. */
  readonly fts: readonly string[];
  /** The non-unique indexes, built after the rows as a first ingest builds them. */
  readonly later: readonly SchemaRow[];
}

/**
 * On `db` (with the finished catalog attached as `done`): the catalog's tables, full-text tables
 * with their settings (the writer's `hashsize`), and unique indexes, all empty.
 */
async function createCopySchema(db: sqlite3.Database, catalogFile: string): Promise<CopySchema> {
  const schema = await all<SchemaRow>(db, 'SELECT type, name, sql FROM done.sqlite_master WHERE sql IS NOT NULL ORDER BY rowid');
  const fts = schema.filter((s) => s.type === 'table' && /^CREATE VIRTUAL TABLE .* USING fts5\s*\(/i.test(s.sql)).map((s) => s.name);
  // fts5vocab tables read their full-text table: created, never filled.
  const views = schema.filter((s) => s.type === 'table' && /USING fts5vocab\s*\(/i.test(s.sql));
  const shadows = new Set(fts.flatMap((table) => FTS_SHADOWS.map((suffix) => `${table}_${suffix}`)));
  const tables = schema.filter((s) => s.type === 'table' && !shadows.has(s.name) && !s.name.startsWith('sqlite_') && !views.includes(s));
  if (!tables.some((s) => s.name === 'servers')) throw new Error(`${catalogFile} holds no catalog`);
  const indexes = schema.filter((s) => s.type === 'index');
  const later = indexes.filter((s) => !/^CREATE UNIQUE INDEX/i.test(s.sql));
  for (const s of [...tables, ...views, ...indexes.filter((i) => !later.includes(i))]) await run(db, s.sql);
  for (const table of fts) {
    for (const { k, v } of await all<{ k: string; v: unknown }>(db, `SELECT k, v FROM done.${quote(`${table}_config`)} WHERE k <> 'version'`)) {
      await run(db, `INSERT INTO main.${quote(table)} (${quote(table)}, rank) VALUES (?, ?)`, [k, v]);
    }
  }
  return { tables, fts, later };
}

/** A table's columns, a full-text table's with its rowid first. */
async function columnsOf(db: sqlite3.Database, table: string, withRowid: boolean): Promise<string[]> {
  const names = (await all<{ name: string }>(db, 'SELECT name FROM pragma_table_info(?)', [table])).map((c) => c.name);
  return withRowid ? ['rowid', ...names] : names;
}

/** Rows read from the finished catalog per step of the hand-over floor: its memory stays bounded at any size. */
const HANDOVER_ROWS = 100_000;

/**
 * As the storage floor, but each table's rows read into JavaScript `stepRows` at a time and handed
 * back through `insertMany` on the service's own connection; the reads between are not timed.
 */
export async function measureHandoverFloor(catalogFile: string, copyFile: string, servers: number, stepRows = HANDOVER_ROWS): Promise<StorageFloor> {
  await removeDatabase(copyFile);
  const steps: Record<string, number> = {};
  let source: sqlite3.Database;
  try {
    source = await open(`${pathToFileURL(catalogFile).href}?mode=ro`, sqlite3.OPEN_READONLY | sqlite3.OPEN_URI);
  } catch (err) {
    return failed(steps, err);
  }
  try {
    const plan = await planCopy(catalogFile, copyFile);
    const seconds = await handOver(source, plan, copyFile, stepRows, steps);
    return { ok: true, seconds, serversPerSecond: Math.round(servers / seconds), steps, error: null };
  } catch (err) {
    return failed(steps, err);
  } finally {
    await close(source);
  }
}

/** The copy's empty schema, made on a connection of its own with the catalog attached read-only. */
async function planCopy(catalogFile: string, copyFile: string): Promise<CopySchema> {
  const setup = new sqlite3.Database(copyFile, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE | sqlite3.OPEN_URI);
  try {
    await run(setup, 'ATTACH DATABASE ? AS done', [`${pathToFileURL(catalogFile).href}?mode=ro`]);
    return await createCopySchema(setup, catalogFile);
  } finally {
    await close(setup);
  }
}

type Timer = (step: () => Promise<unknown>) => Promise<number>;

/** Fills `copyFile` from `source` in one transaction on the service's connection; the timed seconds, each step's in `steps`. */
async function handOver(source: sqlite3.Database, plan: CopySchema, copyFile: string, stepRows: number, steps: Record<string, number>): Promise<number> {
  const db = openDatabase(`sqlite:${copyFile}`);
  try {
    // The rollback journal a first load writes in (src/store/first-load-journal.ts).
    await db.raw('PRAGMA journal_mode = DELETE');
    let timedMs = 0;
    const time: Timer = async (step) => {
      const started = performance.now();
      await step();
      const ms = performance.now() - started;
      timedMs += ms;
      return ms;
    };
    let commitStarted = 0;
    await db.transaction(async (trx) => {
      for (const table of plan.tables) {
        const columns = await columnsOf(source, table.name, plan.fts.includes(table.name));
        steps[table.name] = round((await handOverTable(trx, source, table.name, columns, stepRows, time)) / 1000);
      }
      steps.indexes = round((await time(async () => {
        for (const index of plan.later) await trx.raw(index.sql);
      })) / 1000);
      commitStarted = performance.now();
    });
    const commitMs = performance.now() - commitStarted;
    timedMs += commitMs;
    steps.commit = round(commitMs / 1000);
    return Math.max(0.001, Math.round(timedMs) / 1000);
  } finally {
    await db.destroy();
  }
}

/** One table's rows read `stepRows` at a time and handed to `insertMany`; the milliseconds of the hand-overs alone. */
async function handOverTable(trx: Knex.Transaction, source: sqlite3.Database, table: string, columns: readonly string[], stepRows: number, time: Timer): Promise<number> {
  const select = `SELECT rowid AS "__step", ${columns.map((c) => (c === 'rowid' ? c : quote(c))).join(', ')} FROM ${quote(table)} WHERE rowid > ? ORDER BY rowid LIMIT ${stepRows}`;
  let taken = 0;
  for (let after = -Infinity; ;) {
    const read = await all<Record<string, Row[number]>>(source, select, [after]);
    if (read.length === 0) return taken;
    after = read[read.length - 1]?.__step as number;
    const rows = read.map((r) => columns.map((c) => r[c]));
    taken += await time(() => insertMany(trx, { table, columns }, rows));
  }
}

function failed(steps: Record<string, number>, err: unknown): StorageFloor {
  return { ok: false, seconds: Number.NaN, serversPerSecond: Number.NaN, steps, error: err instanceof Error ? err.message : String(err) };
}

function open(file: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, mode, (err) => (err ? reject(err) : resolve(db)));
  });
}

function close(db: sqlite3.Database): Promise<void> {
  return new Promise<void>((resolve) => db.close(() => resolve()));
}

async function timed(step: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await step();
  return round((performance.now() - started) / 1000);
}

function round(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}

function run(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, params, (err) => (err ? reject(err) : resolve())));
}

function all<T>(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) => db.all<T>(sql, params, (err, rows) => (err ? reject(err) : resolve(rows))));
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** A SQLite database file with its journals. */
export async function removeDatabase(file: string): Promise<void> {
  for (const suffix of ['', '-journal', '-wal', '-shm']) await rm(`${file}${suffix}`, { force: true });
}
