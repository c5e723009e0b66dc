/**
 * Child processes of the benchmark: spawned pinned to a core with `taskset` where it exists,
 * tracked so every one is stopped at the end, on failure and on SIGINT/SIGTERM.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';

const tracked = new Set<ChildProcess>();
const exits = new Set<Promise<string>>();
/** Set once a signal asked the run to stop: nothing new is spawned after it. */
let stopping = false;

/** Whether `taskset` can be run here (Linux with util-linux). */
export const HAS_TASKSET = spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' }).status === 0;

/** `command args` prefixed with `taskset -c <cores>` when taskset exists and cores is given. */
export function pinnedCommand(cores: string | null, command: string, args: readonly string[]): { command: string; args: string[] } {
  return HAS_TASKSET && cores !== null ? { command: 'taskset', args: ['-c', cores, command, ...args] } : { command, args: [...args] };
}

export interface Tracked {
  readonly child: ChildProcess;
  readonly pid: number;
  /** The last lines the process wrote (stdout and stderr), for error messages. */
  output(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly exited: Promise<string>;
}

/** Spawns and tracks a child; its output is kept (the last 64 KB), not shown. */
export function spawnTracked(cores: string | null, command: string, args: readonly string[], options: SpawnOptions): Tracked {
  if (stopping) throw new Error('the benchmark is stopping');
  const pinned = pinnedCommand(cores, command, args);
  const child = spawn(pinned.command, pinned.args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  tracked.add(child);
  let tail = '';
  const keep = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-65_536);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<string>((resolve) => {
    child.on('exit', (code, signal) => {
      tracked.delete(child);
      resolve(signal ?? String(code));
    });
  });
  exits.add(exited);
  void exited.then(() => exits.delete(exited));
  return { child, pid: child.pid, output: () => tail, exited };
}

/** SIGTERM (or `signal`), then SIGKILL after `graceMs`; resolves when the process is gone. */
export async function stopProcess(proc: Tracked, graceMs = 5000, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill(signal);
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), graceMs);
  await proc.exited;
  clearTimeout(timer);
}

/** Kills every tracked child that is still running (by its own pid). */
export function killAll(): void {
  for (const child of tracked) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/**
 * On SIGINT/SIGTERM (once; a terminal sends it to the whole group, and the pinned parent
 * forwards it again): kill the children, wait up to 5 s until they are gone, run `cleanUp`, exit 130.
 */
export function stopChildrenOnSignals(cleanUp: () => void = () => undefined): void {
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    console.error(`\n${signal}: stopping ${tracked.size} child process(es)`);
    killAll();
    const timeout = new Promise((resolve) => setTimeout(resolve, 5000));
    void Promise.race([Promise.all([...exits]), timeout]).finally(() => {
      try {
        cleanUp();
      } finally {
        process.exit(130);
      }
    });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.once('exit', killAll);
}

/** A TCP port nothing listens on right now, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (typeof address !== 'object' || address === null) throw new Error('no free port');
  return address.port;
}

/** Polls `url` until it answers 200 within `timeoutMs`; fails early if the process exits. */
export async function waitReady(url: string, proc: Tracked, timeoutMs: number, accept: (body: string) => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) throw new Error(`process exited before it was ready:\n${proc.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(Math.max(100, Math.min(2000, deadline - Date.now()))) });
      const body = await res.text();
      if (res.status === 200 && accept(body)) return;
      last = `HTTP ${res.status} ${body.slice(0, 200)}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${last})`);
}

export interface Memory {
  /** Resident set size now, MB. */
  readonly rssMb: number;
  /** Peak resident set size of the process's life, MB. */
  readonly hwmMb: number;
}

/** VmRSS and VmHWM of a process from /proc, or null where /proc is not available. */
export function memoryOf(pid: number): Memory | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    const rss = kb('VmRSS');
    const hwm = kb('VmHWM');
    return Number.isNaN(rss) ? null : { rssMb: Math.round(rss / 1024), hwmMb: Math.round(hwm / 1024) };
  } catch {
    return null;
  }
}

/** The pids of a process's descendants now, from /proc. */
function descendantsOf(pid: number): number[] {
  const found: number[] = [];
  const pending = [pid];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next !== pid) found.push(next);
    try {
      for (const task of readdirSync(`/proc/${next}/task`)) {
        pending.push(...readFileSync(`/proc/${next}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** What a process's descendants hold resident now, MB (`/usr/bin/time`'s: the run it measures), from /proc. */
export function descendantsRssMb(pid: number): number {
  return descendantsOf(pid).reduce((total, child) => total + (memoryOf(child)?.rssMb ?? 0), 0);
}

/** CPU seconds a process's descendants have used (a `serve` primary's workers), from /proc. */
export function descendantsCpuSeconds(pid: number): number {
  return descendantsOf(pid).reduce((total, child) => total + (cpuSecondsOf(child) ?? 0), 0);
}

function statSeconds(file: string): number {
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime), counted from "state" (field 3), in clock ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; null without /proc. */
export function cpuSecondsOf(pid: number): number | null {
  try {
    return statSeconds(`/proc/${pid}/stat`);
  } catch {
    return null;
  }
}

/**
 * CPU seconds of a Node process's main (JavaScript) thread and of all its other threads
 * together (the libuv pool, where the sqlite3 driver runs its queries, and V8's helpers).
 */
export function threadCpuOf(pid: number): { main: number; others: number } | null {
  try {
    let main = 0;
    let others = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const seconds = statSeconds(`/proc/${pid}/task/${tid}/stat`);
        if (tid === String(pid)) main += seconds;
        else others += seconds;
      } catch {
        // the thread ended meanwhile
      }
    }
    return { main, others };
  } catch {
    return null;
  }
}
