/**
 * A write into an empty SQLite catalog (a first ingest) creates every page of the database. WAL
 * mode would write each page to the log and copy the whole log into the file at the checkpoint; a
 * rollback journal keeps nothing for pages past the file's original end, so such a load writes
 * each page once and still rolls back completely on a failure or a crash.
 *
 * So the connection leaves WAL mode for such a write and returns to it afterwards. SQLite refuses
 * to leave WAL mode while another connection has the database open; the write then runs in WAL
 * mode, as every other write does: only the speed differs, never what is written.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { dialectOf, rowsOf, type Db } from './db.js';

/** How often, and how far apart, the return to WAL mode is tried while a reader holds a lock. */
const RETURN_TRIES = 50;
const RETURN_INTERVAL_MS = 100;

/** Runs `work` (which opens its own transaction) with a rollback journal if the catalog is empty. */
export async function withFirstLoadJournal<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'sqlite' || !(await catalogIsEmpty(db)) || (await setJournalMode(db, 'delete')) !== 'delete') return work();
  try {
    return await work();
  } finally {
    await returnToWal(db);
  }
}

async function catalogIsEmpty(db: Db): Promise<boolean> {
  return rowsOf(await db.raw('SELECT 1 FROM servers LIMIT 1')).length === 0;
}

/** The journal mode after asking for `mode`, or null when SQLite refuses because another connection is open. */
async function setJournalMode(db: Db, mode: 'delete' | 'wal'): Promise<string | null> {
  try {
    const [row] = rowsOf<{ journal_mode: string }>(await db.raw(`PRAGMA journal_mode = ${mode.toUpperCase()}`));
    return row?.journal_mode.toLowerCase() ?? null;
  } catch (err) {
    if ((err as { code?: unknown }).code === 'SQLITE_BUSY') return null;
    throw err;
  }
}

/**
 * Back to WAL mode, which needs a moment without readers: one that opened the database during the
 * load reads in rollback mode, holding a lock while it reads. Every connection this service opens
 * asks for WAL mode anyway (see openDatabase), so a database left in rollback mode by a process
 * that stopped here is in WAL mode again with its next connection.
 */
async function returnToWal(db: Db): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    if ((await setJournalMode(db, 'wal')) === 'wal' || attempt === RETURN_TRIES) return;
    await sleep(RETURN_INTERVAL_MS);
  }
}
