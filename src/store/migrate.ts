/**
 * Migrations: applied under the migration lock (migration-lock.ts), and whether any is pending
 * (for /readyz).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from './db.js';
import { withMigrationLock } from './migration-lock.js';
import { migrationSource } from './migrations/index.js';

/** How long `migrate` waits for another process that migrates the same database. */
const MIGRATION_LOCK_WAIT_MS = 60_000;

/**
 * Applies every pending migration, then `then` (the store syncs the category taxonomy), under a
 * lock (migration-lock.ts): processes that start together on one database migrate one after
 * another, and the later ones find nothing pending.
 * knex's own lock is kept as a second guard (a process of an older version takes only that one):
 * a loser of that race waits for the winner.
 */
export async function migrate(db: Db, databaseUrl: string, then: () => Promise<void> = async () => undefined): Promise<void> {
  const deadline = Date.now() + MIGRATION_LOCK_WAIT_MS;
  await withMigrationLock(db, databaseUrl, MIGRATION_LOCK_WAIT_MS, async () => {
    for (;;) {
      try {
        await db.migrate.latest({ migrationSource });
        await then();
        return;
      } catch (err) {
        if (!isMigrationRace(err) || Date.now() > deadline) throw err;
        await sleep(250);
      }
    }
  });
}

/**
 * Another instance holds knex's lock, or created knex's own tables a moment before this one; or,
 * on SQLite, another process committed (an ingest, say) between the read and the write of knex's
 * lock row, which SQLite refuses at once (SQLITE_BUSY): every step is a transaction of its own,
 * so trying again is safe.
 */
function isMigrationRace(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = 'code' in err ? err.code : undefined;
  // 23505: unique violation (pg_type of a table created concurrently); 42P07: relation exists.
  return err.name === 'MigrationLocked' || code === '23505' || code === '42P07' || code === 'SQLITE_BUSY';
}

/** Whether migrations are all applied (for /readyz). */
export async function migrationsPending(db: Db): Promise<boolean> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], unknown[]];
  return pending.length > 0;
}
