#!/usr/bin/env node
/**
 * The `sextant` command; the CLI itself is cli.ts. On Linux, `ingest` and `sync` start themselves
 * again with two malloc arenas (glibc reads MALLOC_ARENA_MAX only at start; per-thread arenas keep
 * what SQLite's writer threads free) and below normal priority, so a re-ingest leaves a serving
 * instance on the same cores the CPU its searches ask for (docs/decisions/ingest-process.md).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { constants, getPriority, setPriority } from 'node:os';

const command = process.argv.slice(2).find((arg) => !arg.startsWith('-'));

if (process.platform === 'linux' && (command === 'ingest' || command === 'sync') && process.env.MALLOC_ARENA_MAX === undefined) {
  const below = constants.priority.PRIORITY_BELOW_NORMAL;
  // Only ever lower: raising it back is for the superuser alone.
  if (getPriority() < below) setPriority(below);
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, MALLOC_ARENA_MAX: '2' } });
  // Ctrl-C reaches both; a signal sent to this process alone is passed on. Either way this one waits for the run to end.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  process.exit(code ?? 128 + (signal === null ? 0 : constants.signals[signal]));
} else {
  await import('./cli.js');
}
