/**
 * The database a test service runs on. By default a fresh SQLite file per service. Under
 * `npm run test:pg` (scripts/test-pg.ts sets SEXTANT_TEST_PG_URL to a database it created for
 * the run) a fresh schema in that PostgreSQL database instead, so every test starts empty.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const RUN_DATABASE = process.env.SEXTANT_TEST_PG_URL ?? '';

/** Which database the suite runs on. */
export const TEST_DIALECT: 'sqlite' | 'postgres' = RUN_DATABASE ? 'postgres' : 'sqlite';

export interface TestDatabase {
  /** DATABASE_URL for a service on this database. */
  readonly url: string;
  /** Everything stored, as text (to prove what is never stored). */
  storedText(): Promise<string[]>;
  drop(): Promise<void>;
}

let schemas = 0;

export async function freshDatabase(): Promise<TestDatabase> {
  return TEST_DIALECT === 'postgres' ? freshSchema() : freshSqliteFile();
}

/** A fresh SQLite file whatever the suite runs on (to compare the two databases). */
export function freshSqliteFile(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-test-'));
  const file = join(dir, 'catalog.sqlite');
  return {
    url: `sqlite:${file}`,
    async storedText() {
      return [file, `${file}-wal`].filter(existsSync).map((name) => readFileSync(name).toString('latin1'));
    },
    async drop() {
      // A connection closing as the service stops can still remove its -wal/-shm files meanwhile.
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  };
}

/** Runs `work` on a connection of its own to `url` (the run's database by default), closed after. */
export async function withClient<T>(work: (client: pg.Client) => Promise<T>, url = RUN_DATABASE): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function freshSchema(): Promise<TestDatabase> {
  schemas += 1;
  const schema = `t_${process.pid}_${schemas}`;
  await withClient((client) => client.query(`CREATE SCHEMA ${schema}`));
  // pg_trgm was installed in public by scripts/test-pg.ts; the schema comes first for our tables.
  const options = encodeURIComponent(`-c search_path=${schema},public`);
  return {
    url: `${RUN_DATABASE}${RUN_DATABASE.includes('?') ? '&' : '?'}options=${options}`,
    storedText: () =>
      withClient(async (client) => {
        const tables = await client.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
        const out: string[] = [];
        for (const { table_name: table } of tables.rows) {
          const rows = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM ${schema}."${table}" t`);
          out.push(rows.rows.map((r) => r.row).join('\n'));
        }
        return out;
      }),
    async drop() {
      await withClient((client) => client.query(`DROP SCHEMA ${schema} CASCADE`));
    },
  };
}
