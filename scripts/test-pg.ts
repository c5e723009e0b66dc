/**
 * `npm run test:pg`: the whole suite against PostgreSQL. Creates a fresh database for the run
 * (from TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), runs mocha with
 * every test service on it (each in a schema of its own: test/support/database.ts), then drops it.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';

const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `sextant_test_${Date.now()}_${process.pid}`;
const runUrl = new URL(admin);
runUrl.pathname = `/${name}`;

async function sql(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

await sql(admin, `CREATE DATABASE ${name}`);
let code = 1;
try {
  // Installed once here; the migrations' CREATE EXTENSION IF NOT EXISTS then finds it.
  await sql(runUrl.toString(), 'CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  console.log(`PostgreSQL test database: ${name}`);
  const mocha = spawn(process.execPath, ['node_modules/mocha/bin/mocha.js', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, SEXTANT_TEST_PG_URL: runUrl.toString() },
  });
  code = await new Promise<number>((resolve) => mocha.on('exit', (exit, signal) => resolve(exit ?? (signal ? 1 : 0))));
} finally {
  await sql(admin, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
process.exit(code);
