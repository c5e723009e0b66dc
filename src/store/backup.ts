/**
 * Backups of a SQLite catalog. `VACUUM INTO` writes the database as one read transaction sees it
 * into a new file, while the service goes on reading and writing (WAL): a consistent copy, not a
 * copy of a file being written. A restore checks the copy first (SQLite's full integrity_check,
 * and that it holds a catalog), then puts it in the file's place while no `serve` holds the file.
 * PostgreSQL has its own tools for both (pg_dump, pg_restore).
 */
import { existsSync } from 'node:fs';
import { copyFile, rename, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import sqlite3 from 'sqlite3';
import { isPostgresUrl, openDatabase, sqliteFileOf } from './db.js';
import { holdServeLock } from './serve-lock.js';

/** A backup or a restore refused, with what to do about it. */
export class BackupError extends Error {}

/** What PostgreSQL's operators run instead. */
export const POSTGRES_BACKUP = 'On PostgreSQL, back up with pg_dump --format=custom --file=sextant.dump "$DATABASE_URL" and restore with pg_restore --clean --if-exists --dbname="$DATABASE_URL" sextant.dump.';

/** The SQLite file a URL names; a BackupError for PostgreSQL or a database in memory. */
function fileOf(databaseUrl: string): string {
  if (isPostgresUrl(databaseUrl)) throw new BackupError(POSTGRES_BACKUP);
  const file = sqliteFileOf(databaseUrl);
  if (file === null) throw new BackupError('A database in memory has nothing to back up or restore.');
  return file;
}

/** Writes a consistent copy of the catalog to `target`, a file that does not exist yet; its size. */
export async function backupSqlite(databaseUrl: string, target: string): Promise<{ file: string; bytes: number }> {
  const file = fileOf(databaseUrl);
  const into = resolve(target);
  if (into === file) throw new BackupError('A backup goes to another file than the database itself.');
  if (existsSync(into)) throw new BackupError(`${into} exists: a backup writes a new file.`);
  if (!existsSync(file)) throw new BackupError(`${file} does not exist: there is no catalog to back up.`);
  const db = openDatabase(databaseUrl, { pageCacheMb: 8 });
  try {
    await db.raw('VACUUM INTO ?', [into]);
  } finally {
    await db.destroy();
  }
  return { file: into, bytes: (await stat(into)).size };
}

/** The rows of `sql` on a read-only connection to `file`. */
function readOnly<T>(file: string, sql: string): Promise<T[]> {
  return new Promise((done, fail) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (opened) => {
      if (opened) return fail(opened);
      db.all(sql, (err, rows) => db.close(() => (err ? fail(err) : done(rows as T[]))));
    });
  });
}

/** Why `source` cannot be restored (null: it can): damaged, not a database, or not a catalog. */
async function problemOf(source: string): Promise<string | null> {
  if (!existsSync(source)) return `${source} does not exist.`;
  try {
    const checked = await readOnly<{ integrity_check: string }>(source, 'PRAGMA integrity_check(10)');
    const problems = checked.map((row) => row.integrity_check).filter((said) => said !== 'ok');
    if (problems.length > 0) return `${source} is damaged (SQLite integrity_check): ${problems.join('; ')}`;
    const [catalog] = await readOnly<{ migrations: number }>(source, 'SELECT (SELECT count(*) FROM knex_migrations) AS migrations, (SELECT count(*) FROM servers) AS servers');
    return (catalog?.migrations ?? 0) === 0 ? `${source} holds no catalog.` : null;
  } catch (err) {
    return `${source} is not a Sextant catalog: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * Puts the backup `source` in the place of the catalog's file, once it passes SQLite's
 * integrity_check and holds a catalog, and while no `serve` runs on the file. The file's WAL goes
 * with it: left beside the restored file, SQLite would apply its pages to it.
 */
export async function restoreSqlite(databaseUrl: string, source: string): Promise<{ file: string; servers: number }> {
  const file = fileOf(databaseUrl);
  const from = resolve(source);
  if (from === file) throw new BackupError('A restore takes a backup, not the database itself.');
  const problem = await problemOf(from);
  if (problem !== null) throw new BackupError(`Nothing was changed: ${problem}`);
  const lock = await holdServeLock(databaseUrl);
  try {
    if (!lock.alone) throw new BackupError(`Nothing was changed: a sextant serve runs on ${file}; stop every sextant process on it first.`);
    const next = `${file}.restoring`;
    await copyFile(from, next);
    await rm(`${file}-wal`, { force: true });
    await rm(`${file}-shm`, { force: true });
    await rename(next, file);
  } finally {
    await lock.release();
  }
  const [catalog] = await readOnly<{ servers: number }>(file, 'SELECT count(*) AS servers FROM servers');
  return { file, servers: catalog?.servers ?? 0 };
}
