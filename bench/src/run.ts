/**
 * `npm run bench`: corpus → timed ingest → the server under load, scenario by scenario, each
 * against a bare node:http server run right after it; a table on stdout, PASS/MISS per target
 * and bench/results/<date>.json. Settings are environment variables (settings.ts, README.md).
 * The server runs on core 0 and this process, the load generator, on core 1 where `taskset` exists.
 */
import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HAS_TASKSET, killAll, stopChildrenOnSignals } from './processes.js';
import { prepareRuntime } from './servers.js';
import { runAll } from './bench-run.js';
import { loadSettings } from './settings.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Re-runs this script under `taskset -c 1` so the load generator keeps off the server's core. */
async function reexecPinned(): Promise<number> {
  const child = spawn('taskset', ['-c', '1', process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PINNED: '1' },
  });
  // A terminal's Ctrl-C reaches the child too (same process group); a signal sent to this process alone is passed on.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  return new Promise((done) => child.on('exit', (code, signal) => done(code ?? (signal ? 130 : 1))));
}

async function main(): Promise<number> {
  const settings = loadSettings(process.env, ROOT);
  const twoCores = cpus().length >= 2;
  if (HAS_TASKSET && twoCores && process.env.BENCH_PINNED !== '1') return reexecPinned();
  const log = (line: string): void => console.error(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
  const pinning = HAS_TASKSET && twoCores ? { server: '0', load: '1', all: `0-${cpus().length - 1}` } : null;
  log(pinning ? 'server pinned to core 0, load generator on core 1 (taskset)' : 'no taskset or one core: nothing pinned');
  const work = await mkdtemp(join(tmpdir(), 'sextant-bench-'));
  stopChildrenOnSignals(() => {
    if (!settings.keep) rmSync(work, { recursive: true, force: true });
  });
  try {
    const runtime = prepareRuntime(ROOT, log);
    return await runAll({ root: ROOT, work, settings, runtime, pinning, log });
  } finally {
    killAll();
    if (settings.keep) log(`kept databases in ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    killAll();
    process.exit(1);
  },
);
