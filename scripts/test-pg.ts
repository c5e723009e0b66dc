/**
 * `npm run test:pg`: the whole suite against PostgreSQL. Creates a fresh database for the run
 * (from TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres), runs mocha with
 * every test service on it (each in a schema of its own: test/support/database.ts), then drops it.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { createScratchDatabase } from './pg-scratch-database.js';

/**
 * Suites about processes that `serve` runs on SQLite files of their own (WORKERS=N, the container
 * image's command): the PostgreSQL run would only repeat them.
 */
const SQLITE_PROCESSES = ['test/integration/workers.test.ts', 'test/integration/container.test.ts'];

const TEST_DATABASE = normalize('test/support/database.ts');

/** Whether a test file reaches the test database through its imports within test/ (else the run would only repeat it). */
function usesDatabase(file: string, seen = new Set<string>()): boolean {
  if (file === TEST_DATABASE) return true;
  if (seen.has(file) || !existsSync(file)) return false;
  seen.add(file);
  const imports = [...readFileSync(file, 'utf8').matchAll(/from\s+'(\.{1,2}\/[^']+)'/g)].map((m) => normalize(join(dirname(file), m[1]!.replace(/\.js$/, '.ts'))));
  return imports.some((imported) => imported.startsWith('test/') && usesDatabase(imported, seen));
}

/** Suites that never open a store: the PostgreSQL run would only repeat them. */
const WITHOUT_DATABASE = readdirSync('test', { recursive: true, encoding: 'utf8' }).map((file) => join('test', file)).filter((file) => file.endsWith('.test.ts') && !usesDatabase(file));

const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = await createScratchDatabase(admin, `sextant_test_${Date.now()}_${process.pid}`);
let code = 1;
try {
  console.log(`PostgreSQL test database: ${new URL(database.url).pathname.slice(1)}`);
  const mocha = spawn(process.execPath, ['node_modules/mocha/bin/mocha.js', ...[...SQLITE_PROCESSES, ...WITHOUT_DATABASE].flatMap((file) => ['--ignore', file]), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, SEXTANT_TEST_PG_URL: database.url },
  });
  code = await new Promise<number>((resolve) => mocha.on('exit', (exit, signal) => resolve(exit ?? (signal ? 1 : 0))));
} finally {
  await database.drop();
}
process.exit(code);
