/**
 * The database file's integrity, checked once when a store is first asked (the service's start,
 * which logs a damaged file, and `/readyz`). A SQLite file with damaged pages in the middle
 * otherwise answers most queries and fails the ones that touch them. `PRAGMA quick_check` reads
 * every page and checks the b-trees, but not that indexes match their tables, which is what makes
 * it cheap enough for every start (docs/decisions/clean-failure.md). It runs on a connection of
 * its own, so the store's one connection stays free. PostgreSQL checks its own pages: `unchecked`.
 */
import { dialectOf, driverMessage, openDatabase, rowsOf, sqliteFileOf, type Db } from './db.js';

export interface Integrity {
  readonly state: 'ok' | 'corrupt' | 'error' | 'unchecked';
  /** What the check found or why it failed, in SQLite's words (at most `MAX_PROBLEMS`). */
  readonly problems: readonly string[];
}

/** Problems quick_check reports at most: enough to say where, and it stops early. */
const MAX_PROBLEMS = 10;

/** SQLite's codes for a file it cannot read as a database. */
const DAMAGED = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

export async function checkIntegrity(db: Db, databaseUrl: string): Promise<Integrity> {
  if (dialectOf(db) === 'postgres') return { state: 'unchecked', problems: [] };
  // A database in memory is the store's connection's alone.
  const own = sqliteFileOf(databaseUrl) === null ? null : openDatabase(databaseUrl, { pageCacheMb: 2 });
  try {
    const rows = rowsOf<Record<string, unknown>>(await (own ?? db).raw(`PRAGMA quick_check(${MAX_PROBLEMS})`));
    // A row may hold several lines, under a heading naming the schema ('*** in database main ***').
    const problems = rows.flatMap((row) => String(Object.values(row)[0]).split('\n')).filter((said) => said !== 'ok' && !said.startsWith('***'));
    return { state: problems.length === 0 ? 'ok' : 'corrupt', problems };
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? String(err.code) : '';
    return { state: DAMAGED.has(code) ? 'corrupt' : 'error', problems: [err instanceof Error ? driverMessage(err) : String(err)] };
  } finally {
    await own?.destroy();
  }
}
