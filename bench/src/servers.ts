/**
 * The processes under load: Sextant (the built JS that `npm start` runs, compiled into a
 * private folder so the working tree's dist/ is left alone; tsx on src/ when the build fails)
 * and the bare node:http baseline. Both are pinned to the server core.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, spawnTracked, stopProcess, waitReady, type Tracked } from './processes.js';

export interface Runtime {
  /** `dist`: compiled JS (what `npm start` runs); `tsx`: src/ through the tsx loader. */
  readonly kind: 'dist' | 'tsx';
  /** Node arguments before the subcommand. */
  readonly args: readonly string[];
  /** Node's own flags for `serve`, as `npm start` passes them. */
  readonly serveFlags: readonly string[];
  readonly buildError: string | null;
}

export interface Running {
  readonly url: string;
  /** Where its metrics are scraped, when it was started with them. */
  readonly metricsUrl?: string;
  readonly proc: Tracked;
  /** When (performance.now()) it first answered /readyz: it serves then, its search index of tools may follow. */
  readonly servingAt?: number;
  stop(): Promise<void>;
}

/** Compiles src/ with tsconfig.build.json into bench/.build/dist (openapi.yaml beside it, where the code looks for it). */
export function prepareRuntime(root: string, log: (line: string) => void): Runtime {
  const build = join(root, 'bench', '.build');
  rmSync(build, { recursive: true, force: true });
  mkdirSync(build, { recursive: true });
  const serveFlags = serveNodeFlags(root);
  log('building src/ (tsc -p tsconfig.build.json) into bench/.build/dist');
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', join(build, 'dist'), '--tsBuildInfoFile', join(build, 'dist', '.tsbuildinfo')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (tsc.status === 0) {
    copyFileSync(join(root, 'openapi.yaml'), join(build, 'openapi.yaml'));
    return { kind: 'dist', args: [join(build, 'dist', 'main.js')], serveFlags, buildError: null };
  }
  const error = `${tsc.stdout}${tsc.stderr}`.trim().split('\n').slice(0, 20).join('\n');
  log(`build failed; serving src/ through tsx instead:\n${error}`);
  return { kind: 'tsx', args: ['--import', 'tsx', join(root, 'src', 'main.ts')], serveFlags, buildError: error };
}

/**
 * The Node flags `npm start` gives `serve` (package.json's start script, `… node <flags>
 * dist/main.js serve`): the server under test runs as an operator runs it.
 */
export function serveNodeFlags(root: string): string[] {
  const start: unknown = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts?.start;
  const match = typeof start === 'string' ? /\bnode((?:\s+--[a-z0-9-]+(?:=\S+)?)*)\s+dist\/main\.js\s+serve\b/.exec(start) : null;
  if (!match) throw new Error(`package.json's start script does not run "node [flags] dist/main.js serve": ${String(start)}`);
  return (match[1] ?? '').trim().split(/\s+/).filter(Boolean);
}

/** The environment of the server under test: nothing inherited but PATH and HOME. */
export function serverEnv(databaseFile: string, port: number, databaseUrl?: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    DATABASE_URL: databaseUrl ?? `sqlite:${databaseFile}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    DEMO_CATALOG: 'off',
    MONITOR_INTERVAL: '0',
    LOG_LEVEL: 'error',
    DISCOVERY_RATE_LIMIT: '0',
    MCP_RATE_LIMIT: '0',
    REGISTRY_RATE_LIMIT: '0',
    PAGE_RATE_LIMIT: '0',
    PROXY_RATE_LIMIT: '0',
    ASSESSMENT_LIMIT: '0',
    METRICS_PORT: '0',
  };
}

export interface SextantOptions {
  readonly root: string;
  readonly runtime: Runtime;
  readonly databaseFile: string;
  /** The database's URL when it is not that SQLite file (a PostgreSQL database). */
  readonly databaseUrl?: string;
  readonly cores: string | null;
  /** Write a V8 CPU profile into this folder when the process exits. */
  readonly cpuProfDir?: string;
  /** WORKERS (default 1). */
  readonly workers?: number;
  /** Serve metrics on a free port of their own. */
  readonly metrics?: boolean;
}

/** How long `serve` may take to be ready: a first start builds its search index, minutes at 100k on a slow machine. */
const READY_TIMEOUT_MS = 600_000;

/**
 * Starts `sextant serve` on a free port and waits for /readyz, then for its whole search index
 * (`search: memory`): a first start serves once its servers are indexed and indexes the tools
 * while it serves, which no scenario should measure beside its own load.
 */
export async function startSextant(options: SextantOptions): Promise<Running> {
  const port = await freePort();
  const metricsPort = options.metrics ? await freePort() : null;
  const profile = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [];
  const proc = spawnTracked(options.cores, process.execPath, [...options.runtime.serveFlags, ...profile, ...options.runtime.args, 'serve'], {
    cwd: options.root,
    env: { ...serverEnv(options.databaseFile, port, options.databaseUrl), WORKERS: String(options.workers ?? 1), ...(metricsPort ? { METRICS_PORT: String(metricsPort) } : {}) },
  });
  const url = `http://127.0.0.1:${port}`;
  let servingAt: number;
  try {
    await waitReady(`${url}/readyz`, proc, READY_TIMEOUT_MS);
    servingAt = performance.now();
    await waitReady(`${url}/readyz`, proc, READY_TIMEOUT_MS, wholeIndex);
  } catch (err) {
    await stopProcess(proc, 1000, 'SIGKILL');
    throw err;
  }
  // SIGINT lets `serve` close and exit normally, which is when --cpu-prof writes its profile.
  return {
    url, proc, servingAt, ...(metricsPort ? { metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` } : {}),
    stop: () => stopProcess(proc, options.cpuProfDir ? 30_000 : 5000, 'SIGINT'),
  };
}

/** Whether a /readyz body says searches answer from the whole in-memory index. */
function wholeIndex(body: string): boolean {
  try {
    const readiness: unknown = JSON.parse(body);
    return typeof readiness === 'object' && readiness !== null && 'search' in readiness && readiness.search === 'memory';
  } catch {
    return false;
  }
}

/** Starts the bare node:http server answering every request with a fixed JSON body of `bytes` bytes. */
export async function startBaseline(root: string, bytes: number, cores: string | null): Promise<Running> {
  const port = await freePort();
  // From bench/, so `--import tsx` finds the bench's own tsx.
  const proc = spawnTracked(cores, process.execPath, ['--import', 'tsx', join(root, 'bench', 'src', 'baseline-server.ts'), String(port), String(bytes)], {
    cwd: join(root, 'bench'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(`${url}/`, proc, 30_000);
  return { url, proc, stop: () => stopProcess(proc, 5000) };
}
