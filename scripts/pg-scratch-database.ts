/**
 * A scratch PostgreSQL database for a run of the tests (scripts/test-pg.ts) or of the bench
 * (bench/src/pg-database.ts): created empty with pg_trgm, as the migrations expect, on the
 * server `adminUrl` names, and dropped at the end. Never the server's own databases: other work
 * may use the same cluster.
 */
import pg from 'pg';

export interface ScratchDatabase {
  /** DATABASE_URL of the new database. */
  readonly url: string;
  drop(): Promise<void>;
}

async function run(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The database `name` (a plain identifier), made afresh: one left by an earlier run is dropped first. */
export async function createScratchDatabase(adminUrl: string, name: string): Promise<ScratchDatabase> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  const drop = (): Promise<void> => run(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await drop();
  await run(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    // Installed once here; the migrations' CREATE EXTENSION IF NOT EXISTS then finds it.
    await run(url.toString(), 'CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  } catch (err) {
    await drop();
    throw err;
  }
  return { url: url.toString(), drop };
}
