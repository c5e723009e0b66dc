/**
 * `npm run test:pg`: the whole suite against PostgreSQL. Creates a fresh database for the run
 * (from TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), runs mocha with
 * every test service on it (each in a schema of its own: test/support/database.ts), then drops it.
 */
import { spawn } from 'node:child_process';
import { createScratchDatabase } from './pg-scratch-database.js';

/**
 * Suites about processes that `serve` runs on SQLite files of their own (WORKERS=N, the container
 * image's command): the PostgreSQL run would only repeat them.
 */
const SQLITE_PROCESSES = ['test/integration/workers.test.ts', 'test/integration/container.test.ts'];

const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = await createScratchDatabase(admin, `sextant_test_${Date.now()}_${process.pid}`);
let code = 1;
try {
  console.log(`PostgreSQL test database: ${new URL(database.url).pathname.slice(1)}`);
  const mocha = spawn(process.execPath, ['node_modules/mocha/bin/mocha.js', ...SQLITE_PROCESSES.flatMap((file) => ['--ignore', file]), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, SEXTANT_TEST_PG_URL: database.url },
  });
  code = await new Promise<number>((resolve) => mocha.on('exit', (exit, signal) => resolve(exit ?? (signal ? 1 : 0))));
} finally {
  await database.drop();
}
process.exit(code);
