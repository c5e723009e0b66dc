/**
 * A PostgreSQL database of the bench's own for one catalog size (BENCH_DB=pg|both): created empty
 * on the server BENCH_PG_URL names, dropped at the end of that size. Never the server itself:
 * other work may use the same cluster.
 */
import pg from 'pg';

export interface BenchPgDatabase {
  /** DATABASE_URL for the ingest and the server. */
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

/** A fresh database `sextant_bench_<size>_<pid>` with pg_trgm, as the migrations expect. */
export async function createPgDatabase(adminUrl: string, size: number): Promise<BenchPgDatabase> {
  const name = `sextant_bench_${size}_${process.pid}`;
  await run(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await run(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await run(url.toString(), 'CREATE EXTENSION IF NOT EXISTS pg_trgm');
  return { url: url.toString(), drop: () => run(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
