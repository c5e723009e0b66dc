/**
 * Knex setup from DATABASE_URL: `sqlite:<path>` for one machine, `postgres://…` for several
 * instances on one shared database. Only `src/store` imports knex.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import type { Database } from 'sqlite3';
import { SqliteClient, type WriteStatement } from './sqlite-client.js';

export type Db = Knex;
export { dialectOf, type Dialect } from './dialect.js';
export type { WriteStatement } from './sqlite-client.js';

const POSTGRES_URL = /^postgres(ql)?:\/\//;

/** Whether DATABASE_URL names a PostgreSQL database (else SQLite). */
export const isPostgresUrl = (databaseUrl: string): boolean => POSTGRES_URL.test(databaseUrl);

/** Rows of a `db.raw` result: SQLite's driver returns the rows, pg a result object holding them. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  const rows = (result as { rows?: unknown } | null)?.rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/**
 * Whether a key could be stored at all: PostgreSQL text cannot hold NUL (it refuses the query),
 * so a lookup by a key with one finds nothing, on either database.
 */
export function storable(key: string): boolean {
  return !key.includes('\u0000');
}

/**
 * A connection that cannot be had (the database is down, or the pool closed under a background
 * read) also rejects the query that asked for it, which reports it once; knex's own console line
 * (with a stack) would say it twice.
 */
const QUIET_ACQUIRE = {
  warn: (message: string) => {
    // Likewise a connection lost while idle: the pool replaces it, and a query it failed says so.
    if (!message.startsWith('Acquire connection error') && !message.startsWith('Connection Error')) console.warn(message);
  },
};

/** The driver's own words for each failed query, without the statement knex puts before them. */
const queryFailures = new WeakMap<Error, string>();

/**
 * Keeps what `databaseFailure` needs: knex reports every failed query (a transaction's too), and
 * prefixes the error's message with the statement (not the values: `compileSqlOnError: false`).
 */
function noteQueryFailures(db: Db): Db {
  db.on('query-error', (err: unknown, query: { sql?: unknown }) => {
    if (!(err instanceof Error)) return;
    const prefix = typeof query.sql === 'string' ? `${query.sql} - ` : '';
    queryFailures.set(err, prefix !== '' && err.message.startsWith(prefix) ? err.message.slice(prefix.length) : err.message);
  });
  return db;
}

/** What the driver said of a failed query (without the statement knex puts before it), else the error's message. */
export function driverMessage(err: Error): string {
  return queryFailures.get(err) ?? err.message;
}

/**
 * A failure of the database (a query it failed or refused, a lost or refused connection, no
 * connection in time) in a few words for an operator, or null when `err` is none of those.
 */
export function databaseFailure(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  if (err.name === 'KnexTimeoutError') return 'no database connection could be had in time';
  const code = 'code' in err && typeof err.code === 'string' ? err.code : undefined;
  const fromDatabase = queryFailures.has(err) || code?.startsWith('SQLITE_') === true || 'syscall' in err;
  if (!fromDatabase) return null;
  const said = driverMessage(err);
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') return `the database file is damaged (${said}); restore it from a backup`;
  return `the database failed (${said}${code !== undefined && !said.includes(code) ? `, ${code}` : ''})`;
}

export interface OpenOptions {
  /** SQLite's page cache per connection, in MiB (default 64: ingest writes the catalog's indexes through it). */
  readonly pageCacheMb?: number;
}

/**
 * What every SQLite connection of the store runs when it opens (a first load then leaves the WAL
 * for its write: first-load-journal.ts). `pageCacheMb` is SQLite's page cache, 64 MiB unless told.
 */
export function sqlitePragmas(pageCacheMb = 64): string[] {
  return [
    'PRAGMA journal_mode = WAL', 'PRAGMA foreign_keys = ON', 'PRAGMA busy_timeout = 5000', 'PRAGMA synchronous = NORMAL',
    `PRAGMA cache_size = ${-1024 * Math.max(1, Math.round(pageCacheMb))}`, 'PRAGMA temp_store = MEMORY',
  ];
}

/** The SQLite file a `sqlite:` URL names (absolute), or null for `sqlite::memory:`; throws for any other URL. */
export function sqliteFileOf(databaseUrl: string): string | null {
  const target = /^sqlite:(.+)$/.exec(databaseUrl)?.[1];
  if (!target) throw new Error('unsupported DATABASE_URL: use sqlite:<path> or postgres://…');
  return target === ':memory:' ? null : resolve(target);
}

/** Opens the database named by `databaseUrl` (`sqlite::memory:` for a throwaway SQLite one). */
export function openDatabase(databaseUrl: string, options: OpenOptions = {}): Db {
  if (POSTGRES_URL.test(databaseUrl)) {
    // The read model bounds its own queue of searches, so a long wait for a connection means the
    // database does not answer: knex's default wait is cut to a few seconds.
    return noteQueryFailures(knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 10 }, acquireConnectionTimeout: 10_000, log: QUIET_ACQUIRE, compileSqlOnError: false }));
  }
  const file = sqliteFileOf(databaseUrl);
  const filename = file ?? ':memory:';
  if (file !== null) mkdirSync(dirname(file), { recursive: true });
  return noteQueryFailures(knexFactory({
    client: SqliteClient,
    connection: { filename },
    useNullAsDefault: true,
    log: QUIET_ACQUIRE,
    compileSqlOnError: false,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: Database, done: (err: Error | null, conn: Database) => void) {
        const pragmas = sqlitePragmas(options.pageCacheMb);
        const next = (index: number): void => {
          const sql = pragmas[index];
          if (sql === undefined) return done(null, conn);
          conn.run(sql, (err) => (err ? done(err, conn) : next(index + 1)));
        };
        next(0);
      },
    },
  }));
}

/**
 * A connection of its own for small reads that must not queue behind the pool's work (the
 * content generation, read often by every request): on PostgreSQL a pool of one with a short
 * wait. SQLite has none (null): its reads are local and short, and a second connection held open
 * would keep a first ingest in WAL mode (first-load-journal.ts).
 */
export function openSideConnection(databaseUrl: string): Db | null {
  if (!POSTGRES_URL.test(databaseUrl)) return null;
  return noteQueryFailures(knexFactory({ client: 'pg', connection: databaseUrl, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 2_000, log: QUIET_ACQUIRE, compileSqlOnError: false }));
}

/**
 * Prepares a write on `db`'s connection (a transaction's own, inside one), held until `close`:
 * a bulk write that runs the same large statement many times has SQLite parse it once, and
 * skips knex's formatting of every binding. On PostgreSQL each run is an ordinary raw query.
 */
export async function openStatement(db: Db, sql: string): Promise<WriteStatement> {
  const client: unknown = db.client;
  if (client instanceof SqliteClient) return client.openStatement(sql);
  return { run: async (bindings) => void (await db.raw(sql, [...bindings])), close: async () => undefined };
}

/**
 * A read that runs again and again with other values (a page of rows by seq), through a
 * statement prepared once per connection (sqlite-client.ts). On PostgreSQL it is an ordinary
 * raw query.
 */
export function selectPrepared<T>(db: Db, sql: string, bindings: readonly (string | number)[]): Promise<T[]> {
  const client: unknown = db.client;
  if (client instanceof SqliteClient) return client.selectPrepared<T>(sql, bindings);
  return selectRaw<T>(db, sql, bindings);
}

async function selectRaw<T>(db: Db, sql: string, bindings: readonly (string | number)[]): Promise<T[]> {
  return rowsOf<T>(await db.raw(sql, [...bindings]));
}

/**
 * Whether `err` is a wait for one of the pool's connections that ran out of time: the database
 * is busy, not broken (the read model answers 503 with `Retry-After`, not 500).
 */
export function isPoolTimeout(err: unknown): boolean {
  return err instanceof knexFactory.KnexTimeoutError;
}

/** The connection pool's use now: connections in use, idle, the pool's size, and acquisitions waiting. */
export function poolUse(db: Db): { used: number; free: number; pending: number; max: number } {
  const pool = (db.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number; max: number } }).pool;
  if (!pool) return { used: 0, free: 0, pending: 0, max: 0 };
  return { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires(), max: pool.max };
}
