/**
 * Starts test/support/instance.ts as a process of its own on a given database, and follows the
 * JSON lines it reports on stdout (two instances on one database; a flood measured from outside).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { TestDatabase } from './database.js';

export interface Instance {
  readonly base: string;
  readonly process: ChildProcess;
  /** Resolves with the first message `match` accepts (messages seen before count too). */
  next(match: (message: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** `startMs`: how long it may take to report its port (a large catalog's search index is built first). */
export async function startInstance(database: TestDatabase, env: Record<string, string> = {}, startMs = 20_000): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/instance.ts'], {
    env: { ...process.env, DATABASE_URL: database.url, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const seen: Array<Record<string, unknown>> = [];
  const waiters = new Set<() => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      seen.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      return;
    }
    for (const wake of [...waiters]) wake();
  });
  const next: Instance['next'] = (match, timeoutMs = 20_000) =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = seen.find(match);
        if (!found) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`instance ${child.pid} did not report in ${timeoutMs} ms; saw ${JSON.stringify(seen)}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  const { port } = await next((m) => typeof m.port === 'number', startMs);
  return {
    base: `http://127.0.0.1:${String(port)}`,
    process: child,
    next,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
