/** `sextant serve` as its own process, as an operator starts it, on a folder's SQLite file. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

export interface ServeProcess {
  readonly child: ChildProcess;
  /** The public port, from the "sextant is serving" line. */
  readonly port: number;
  /** What it has written to stdout so far. */
  log(): string;
  /** Resolves with the first match of `pattern` in stdout, now or later. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends `signal` and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `serve` on `dir`/catalog.sqlite with the demo catalog, on a free loopback port, with
 * every limit, the monitor and metrics off unless `env` says otherwise; resolves once it serves.
 */
export async function startServe(dir: string, env: Readonly<Record<string, string>> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/tsx-in-workers.mjs', 'src/main.ts', 'serve'], {
    env: {
      ...process.env, DATABASE_URL: `sqlite:${dir}/catalog.sqlite`, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', MONITOR_INTERVAL: '0',
      DISCOVERY_RATE_LIMIT: '0', MCP_RATE_LIMIT: '0', REGISTRY_RATE_LIMIT: '0', PAGE_RATE_LIMIT: '0', METRICS_PORT: '0', SHUTDOWN_GRACE: '20', ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const waiting = new Set<() => void>();
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const check of waiting) check();
  });
  const waitFor = (pattern: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no ${pattern} in serve's output within ${timeoutMs} ms: ${out}`)), timeoutMs);
      const exited = (): void => finish(new Error(`serve exited before printing ${pattern}: ${out}`));
      const check = (): void => {
        const match = pattern.exec(out);
        if (match) finish(null, match);
      };
      const finish = (err: Error | null, match?: RegExpExecArray): void => {
        clearTimeout(timer);
        waiting.delete(check);
        child.off('exit', exited);
        if (err) reject(err);
        else resolve(match as RegExpExecArray);
      };
      waiting.add(check);
      child.once('exit', exited);
      check();
    });
  const serving = await waitFor(/"url":"http:\/\/127\.0\.0\.1:(\d+)","database"[^\n]*"msg":"sextant is serving"/);
  return {
    child,
    port: Number(serving[1]),
    log: () => out,
    waitFor,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
      const exited = once(child, 'exit');
      child.kill(signal);
      const [code, by] = (await exited) as [number | null, NodeJS.Signals | null];
      return { code, signal: by };
    },
  };
}
