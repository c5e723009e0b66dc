/** `sextant serve` as its own process, as an operator starts it, on a folder's SQLite file. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

const BODY = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_servers', arguments: { q: 'github' } } });

export interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A POST /mcp whose body is sent in two halves: the second when `rest` is called. */
function slowPost(port: number): { answer: Promise<Answer>; rest: () => void; sent: Promise<void> } {
  const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY), accept: 'application/json, text/event-stream' } });
  const half = Math.floor(BODY.length / 2);
  const sent = new Promise<void>((resolve) => req.write(BODY.slice(0, half), () => resolve()));
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  return { answer, rest: () => req.end(BODY.slice(half)), sent };
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** A fresh folder for each test's database files, removed after the suite. */
export function freshFolders(): () => string {
  const made: string[] = [];
  after(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    made.push(mkdtempSync(join(tmpdir(), 'sextant-serve-')));
    return made.at(-1) as string;
  };
}

/**
 * Sends `count` POSTs to /mcp whose bodies are half sent, then SIGTERM, then (half a second
 * later, once the signal has been taken) the other halves: what each got, whether a new
 * connection was refused after the signal, and how the process ended.
 */
export async function stopUnderLoad(serve: ServeProcess, count: number): Promise<{
  answers: Answer[];
  refusedAfterSignal: boolean;
  exit: { code: number | null; signal: NodeJS.Signals | null };
}> {
  const posts = Array.from({ length: count }, () => slowPost(serve.port));
  await Promise.all(posts.map((p) => p.sent));
  // The halves have reached the server: each request is in flight, its body still arriving.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const exit = serve.stop('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  const refusedAfterSignal = await refused(serve.port);
  for (const post of posts) post.rest();
  const answers = await Promise.all(posts.map((p) => p.answer));
  return { answers, refusedAfterSignal, exit: await exit };
}

/** A loopback port free now (for a second listener, such as METRICS_PORT). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
