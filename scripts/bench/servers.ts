/**
 * The processes under load: Sextant (the built JS that `npm start` runs, compiled into a
 * private folder so the working tree's dist/ is left alone; tsx on src/ when the build fails)
 * and the bare node:http baseline. Both are pinned to the server core.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, spawnTracked, stopProcess, waitReady, type Tracked } from './processes.js';

export interface Runtime {
  /** `dist`: compiled JS (what `npm start` runs); `tsx`: src/ through the tsx loader. */
  readonly kind: 'dist' | 'tsx';
  /** Node arguments before the subcommand. */
  readonly args: readonly string[];
  readonly buildError: string | null;
}

export interface Running {
  readonly url: string;
  readonly proc: Tracked;
  stop(): Promise<void>;
}

/** Compiles src/ with tsconfig.build.json into bench/.build/dist (openapi.yaml beside it, where the code looks for it). */
export function prepareRuntime(root: string, log: (line: string) => void): Runtime {
  const build = join(root, 'bench', '.build');
  rmSync(build, { recursive: true, force: true });
  mkdirSync(build, { recursive: true });
  log('building src/ (tsc -p tsconfig.build.json) into bench/.build/dist');
  const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', join(build, 'dist')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (tsc.status === 0) {
    copyFileSync(join(root, 'openapi.yaml'), join(build, 'openapi.yaml'));
    return { kind: 'dist', args: [join(build, 'dist', 'main.js')], buildError: null };
  }
  const error = `${tsc.stdout}${tsc.stderr}`.trim().split('\n').slice(0, 20).join('\n');
  log(`build failed; serving src/ through tsx instead:\n${error}`);
  return { kind: 'tsx', args: ['--import', 'tsx', join(root, 'src', 'main.ts')], buildError: error };
}

/** The environment of the server under test: nothing inherited but PATH and HOME. */
export function serverEnv(databaseFile: string, port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    DATABASE_URL: `sqlite:${databaseFile}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    DEMO_CATALOG: 'off',
    MONITOR_INTERVAL: '0',
    LOG_LEVEL: 'error',
    DISCOVERY_RATE_LIMIT: '0',
    PROXY_RATE_LIMIT: '0',
    ASSESSMENT_LIMIT: '0',
  };
}

export interface SextantOptions {
  readonly root: string;
  readonly runtime: Runtime;
  readonly databaseFile: string;
  readonly cores: string | null;
  /** Write a V8 CPU profile into this folder when the process exits. */
  readonly cpuProfDir?: string;
}

/** Starts `sextant serve` on a free port and waits for /readyz. */
export async function startSextant(options: SextantOptions): Promise<Running> {
  const port = await freePort();
  const profile = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [];
  const proc = spawnTracked(options.cores, process.execPath, [...profile, ...options.runtime.args, 'serve'], {
    cwd: options.root,
    env: serverEnv(options.databaseFile, port),
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(`${url}/readyz`, proc, 120_000);
  } catch (err) {
    await stopProcess(proc, 1000, 'SIGKILL');
    throw err;
  }
  // SIGINT lets `serve` close and exit normally, which is when --cpu-prof writes its profile.
  return { url, proc, stop: () => stopProcess(proc, options.cpuProfDir ? 30_000 : 5000, 'SIGINT') };
}

/** Starts the bare node:http server answering every request with a fixed JSON body of `bytes` bytes. */
export async function startBaseline(root: string, bytes: number, cores: string | null): Promise<Running> {
  const port = await freePort();
  const proc = spawnTracked(cores, process.execPath, ['--import', 'tsx', join(root, 'scripts', 'bench', 'baseline-server.ts'), String(port), String(bytes)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp' },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(`${url}/`, proc, 30_000);
  return { url, proc, stop: () => stopProcess(proc, 5000) };
}
