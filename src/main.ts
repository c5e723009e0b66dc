#!/usr/bin/env node
/**
 * The `sextant` command; the CLI itself is cli.ts. On Linux, `sextant ingest` runs with two
 * malloc arenas. glibc gives a thread that finds the other arenas busy an arena of its own (up
 * to eight per core) and keeps what is freed in each; since SQLite writes on its threads while
 * the main thread materializes the next batch (src/ingest/ingest-service.ts), an ingest's
 * native memory grew with the run: a million servers peaked at 598 MB, and a 100k run held
 * 210-260 MB outside V8's heap where two arenas hold 145-155 MB (10k: a peak of 329-345 MB
 * against 272-278 MB, the run 5-8% slower). glibc reads MALLOC_ARENA_MAX once, at start, so this
 * starts the command again with it set unless it is set (by the operator, or by this), before
 * loading anything else: the first process only waits, and holds what Node itself does.
 *
 * `ingest` and `sync` also run below normal priority (nice 10, unless they were started lower):
 * they write beside a service that answers searches from the same machine's cores. During a 100k
 * re-ingest the searches' p99 was 7.5 ms at full priority (idle 1.0-2.2 ms) and 4.9 ms with this
 * (bench:ingest, reads during writes), the re-ingest taking 250 s instead of 205-215 s under that
 * load; where nothing else wants the CPU it is as fast. The new process inherits the priority,
 * every thread of it (the waiting one keeps its own helpers' threads as they were).
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
