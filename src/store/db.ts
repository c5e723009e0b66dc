/** Knex setup from DATABASE_URL. Only `src/store` imports knex. */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { migrationSource } from './migrations/index.js';

export type Db = Knex;

/** Opens the database named by a `sqlite:<path>` URL (`sqlite::memory:` for a throwaway one). */
export function openDatabase(databaseUrl: string): Db {
  const match = /^sqlite:(.+)$/.exec(databaseUrl);
  if (!match?.[1]) throw new Error(`unsupported DATABASE_URL: ${databaseUrl}`);
  const target = match[1];
  const filename = target === ':memory:' ? ':memory:' : resolve(target);
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  return knexFactory({
    client: 'sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: SqliteConnection, done: (err: Error | null, conn: SqliteConnection) => void) {
        // A 64 MiB page cache keeps the catalog's indexes in memory while ingest writes them.
        const pragmas = [
          'PRAGMA journal_mode = WAL', 'PRAGMA foreign_keys = ON', 'PRAGMA busy_timeout = 5000', 'PRAGMA synchronous = NORMAL',
          'PRAGMA cache_size = -65536', 'PRAGMA temp_store = MEMORY',
        ];
        const next = (index: number): void => {
          const sql = pragmas[index];
          if (sql === undefined) return done(null, conn);
          conn.run(sql, (err) => (err ? done(err, conn) : next(index + 1)));
        };
        next(0);
      },
    },
  });
}

interface SqliteConnection {
  run(sql: string, callback: (err: Error | null) => void): void;
}

/** Applies every pending migration. */
export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource });
}

/** Whether migrations are all applied (for /readyz). */
export async function migrationsPending(db: Db): Promise<boolean> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown[], unknown[]];
  return pending.length > 0;
}
