/**
 * The lock migrations run under, so processes starting together on one database migrate one
 * after another. Without it, two first runs on a fresh SQLite file both create knex's own tables
 * and the second fails (`table knex_migrations already exists`).
 *
 * SQLite: an exclusive lock on a small file beside the database (`<file>.migrate-lock`, left in
 * place: removing it would let a waiter and a newcomer lock two different files), held by a
 * connection of its own, since the migrations need the store's only connection. The operating
 * system drops the lock with a process that dies holding it. PostgreSQL: an advisory lock held
 * by a transaction on one connection of the pool while the migrations run on others.
 */
import sqlite3 from 'sqlite3';
import { dialectOf, sqliteFileOf, type Db } from './db.js';

/** The advisory lock key of migrations on PostgreSQL (any fixed number, not the catalog writer's). */
const MIGRATION_LOCK = 0x5e_7a_4d;

/** Runs `work` holding the database's migration lock, waiting up to `waitMs` for it. */
export async function withMigrationLock<T>(db: Db, databaseUrl: string, waitMs: number, work: () => Promise<T>): Promise<T> {
  if (dialectOf(db) === 'postgres') {
    return db.transaction(async (trx) => {
      await trx.raw(`SET LOCAL lock_timeout = ${Math.round(waitMs)}`);
      await trx.raw('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
      return work();
    });
  }
  const file = sqliteFileOf(databaseUrl);
  // A database in memory is this process's alone.
  if (file === null) return work();
  const lock = await openLock(`${file}.migrate-lock`, waitMs);
  try {
    return await work();
  } finally {
    await closeLock(lock);
  }
}

/** A connection to `path` holding an exclusive lock on it (SQLite waits for it up to `waitMs`). */
export async function openLock(path: string, waitMs: number): Promise<sqlite3.Database> {
  const lock = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(path, (err) => (err ? reject(err) : resolve(opened)));
  });
  lock.configure('busyTimeout', waitMs);
  try {
    await new Promise<void>((resolve, reject) => lock.exec('BEGIN EXCLUSIVE', (err) => (err ? reject(err) : resolve())));
    return lock;
  } catch (err) {
    await closeLock(lock);
    throw err;
  }
}

/** Closes the lock's connection, which lets the lock go (its transaction wrote nothing). */
export function closeLock(lock: sqlite3.Database): Promise<void> {
  return new Promise((resolve) => lock.close(() => resolve()));
}
