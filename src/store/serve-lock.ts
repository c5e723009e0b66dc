/**
 * One `serve` per SQLite file: the first holds an exclusive lock on `<file>.serve-lock` for as
 * long as it serves (the operating system drops it with a process that dies), and a second one
 * started on the same file learns that it is not alone, so it runs no second monitor.
 * PostgreSQL's instances share their work through leases and need no such lock.
 */
import { closeLock, openLock } from './migration-lock.js';
import { isPostgresUrl, sqliteFileOf } from './db.js';

export interface ServeLock {
  /** Whether this process is the only `serve` on its database file (always, on PostgreSQL). */
  readonly alone: boolean;
  release(): Promise<void>;
}

export async function holdServeLock(databaseUrl: string): Promise<ServeLock> {
  const file = isPostgresUrl(databaseUrl) ? null : sqliteFileOf(databaseUrl);
  if (file === null) return { alone: true, release: async () => undefined };
  try {
    const lock = await openLock(`${file}.serve-lock`, 0);
    return { alone: true, release: () => closeLock(lock) };
  } catch (err) {
    // Busy: another process holds it. Any other failure (a folder it may not write) says nothing of others.
    const busy = typeof err === 'object' && err !== null && 'code' in err && err.code === 'SQLITE_BUSY';
    return { alone: !busy, release: async () => undefined };
  }
}
