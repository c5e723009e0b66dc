/** Whether the store can serve: the database answers, no migration is pending, the file is whole. */
import { isPoolTimeout, type Db } from './db.js';
import { checkIntegrity, type Integrity } from './integrity.js';
import { migrationsPending } from './migrate.js';

export interface Readiness {
  /** Whether the database answers a query now (on PostgreSQL on the side connection, not behind the pool's queue). */
  answers(): Promise<boolean>;
  /** The database file's integrity, checked once (the first call starts it; later ones share it). */
  integrity(): Promise<Integrity>;
  /** Whether a failure is a wait for a connection that ran out of time (the database is busy). */
  busy(err: unknown): boolean;
  /** Readiness: whether the database answers and no migration is pending. */
  check(): Promise<{ database: 'ok' | 'error'; migrations: 'ok' | 'pending' | 'error' }>;
}

/** `side` is the connection small reads take (the pool itself on SQLite). */
export function createReadiness(db: Db, side: Db, databaseUrl: string): Readiness {
  let integrity: Promise<Integrity> | null = null;
  return {
    async answers() {
      try {
        await side.raw('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    integrity: () => (integrity ??= checkIntegrity(db, databaseUrl)),
    busy: isPoolTimeout,
    async check() {
      try {
        await db.raw('SELECT 1');
      } catch {
        return { database: 'error', migrations: 'error' };
      }
      try {
        return { database: 'ok', migrations: (await migrationsPending(db)) ? 'pending' : 'ok' };
      } catch {
        return { database: 'ok', migrations: 'error' };
      }
    },
  };
}
