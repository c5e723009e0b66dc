/**
 * `npm run bench:ingest`: per size, `sextant ingest` into a fresh SQLite database under
 * `/usr/bin/time -v`, its storage and hand-over floors, the same ingest into PostgreSQL with
 * BENCH_PG_URL, and search latency while a re-ingest changes half the catalog. Settings: README.md.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ensureCorpus, type CorpusManifest } from './corpus.js';
import { Latencies, runLoad, type LoadRequest, type LoadResult } from './load.js';
import { descendantsRssMb, killAll, spawnTracked, stopChildrenOnSignals } from './processes.js';
import { serveNodeFlags, startSextant, type Runtime } from './servers.js';
import { unusedResultFile } from './report.js';
import { measureHandoverFloor, measureStorageFloor, removeDatabase, type StorageFloor } from './storage-floor.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const log = (line: string): void => console.error(`[bench:ingest ${new Date().toISOString().slice(11, 19)}] ${line}`);

/** `… catalog has 10000 servers and 96671 tools (13.38 s)`: the CLI's summary line (src/main.ts `summaryLine`). */
const SUMMARY = /ingested (\d+) records.*: (\d+) servers added, (\d+) updated, (\d+) unchanged; catalog has (\d+) servers and (\d+) tools \(([\d.]+) s\)/;

export interface TimedIngest {
  readonly ok: boolean;
  readonly servers: number;
  readonly tools: number;
  readonly added: number;
  readonly updated: number;
  /** Seconds `ingest()` reported; the process's wall time beside it. */
  readonly seconds: number;
  readonly wallSeconds: number;
  readonly serversPerSecond: number;
  /** Maximum resident set size, from `/usr/bin/time -v`: of the largest single process. */
  readonly peakRssMb: number | null;
  /**
   * The most the run's processes held together, sampled every 200 ms: `sextant ingest` on Linux
   * is two processes (src/main.ts starts the run again with two malloc arenas and waits).
   */
  readonly peakTreeRssMb: number | null;
  readonly error: string | null;
}

/** `sextant ingest <files>` with Node's default flags, measured by `/usr/bin/time -v`. */
export async function timedIngest(runtime: Runtime, files: readonly string[], databaseUrl: string): Promise<TimedIngest> {
  const started = performance.now();
  const proc = spawnTracked(null, '/usr/bin/time', ['-v', process.execPath, ...runtime.args, 'ingest', ...files], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' },
  });
  let peakTree = 0;
  const sampler = setInterval(() => {
    peakTree = Math.max(peakTree, descendantsRssMb(proc.pid));
  }, 200);
  const code = await proc.exited.finally(() => clearInterval(sampler));
  const wallSeconds = Math.round((performance.now() - started) / 10) / 100;
  const output = proc.output();
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(output);
  const peakRssMb = rss ? Math.round(Number(rss[1]) / 1024) : null;
  const peakTreeRssMb = peakTree > 0 ? peakTree : null;
  const match = SUMMARY.exec(output);
  if (code !== '0' || !match) {
    return { ok: false, servers: 0, tools: 0, added: 0, updated: 0, seconds: wallSeconds, wallSeconds, serversPerSecond: Number.NaN, peakRssMb, peakTreeRssMb, error: output.slice(-1500) };
  }
  const seconds = Number(match[7]);
  const servers = Number(match[5]);
  const written = Number(match[2]) + Number(match[3]);
  return {
    ok: true, servers, tools: Number(match[6]), added: Number(match[2]), updated: Number(match[3]), seconds, wallSeconds,
    serversPerSecond: Math.round((written || servers) / seconds), peakRssMb, peakTreeRssMb, error: null,
  };
}

/** A copy of the corpus with every other file changed (each server's description), for a re-ingest that updates half the catalog. */
async function changedCorpus(manifest: CorpusManifest, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const [i, file] of manifest.files.entries()) {
    if (i % 2 === 1) {
      files.push(file);
      continue;
    }
    const text = await readFile(file, 'utf8');
    const out = join(dir, `changed-${i}.json`);
    await writeFile(out, text.replaceAll('"description":"', '"description":"Edition 2. '));
    files.push(out);
  }
  return files;
}

export interface ReadsDuringWrites {
  readonly idle: Pick<LoadResult, 'requests' | 'rps' | 'p50' | 'p99' | 'errors' | 'non2xx'>;
  /**
   * Consecutive passes while the re-ingest ran: requests, p50 (median of the passes), p99 (worst
   * pass), p99 over every request of the passes, errors and non-2xx summed.
   */
  readonly duringWrite: { readonly passes: number; readonly requests: number; readonly p50: number; readonly p99: number; readonly p99AllRequests: number; readonly errors: number; readonly non2xx: number };
  readonly reingest: TimedIngest;
  /** The worst pass's p99 over the idle p99. */
  readonly p99OverIdle: number;
  /** The p99 of every search made during the re-ingest over the idle p99: the figure the target is set on. */
  readonly p99AllOverIdle: number;
}

/** Search load on the served catalog, idle and then while a re-ingest with changes runs. */
async function readsDuringWrites(runtime: Runtime, manifest: CorpusManifest, databaseFile: string, work: string, seconds: number, connections: number): Promise<ReadsDuringWrites> {
  const requests: LoadRequest[] = manifest.serverQueries.map((q) => ({ method: 'GET', path: `/api/v1/servers/search?q=${encodeURIComponent(q.q)}&limit=20` }));
  const files = await changedCorpus(manifest, join(work, 'changed'));
  const server = await startSextant({ root: ROOT, runtime, databaseFile, cores: null });
  try {
    const options = { connections, seconds, warmupSeconds: 2, timeoutSeconds: 10 };
    const idle = await runLoad(server.url, requests, options);
    log(`reads idle: ${idle.rps} req/s, p50 ${idle.p50} ms, p99 ${idle.p99} ms, errors ${idle.errors}, non-2xx ${idle.non2xx}`);
    const writing = timedIngest(runtime, files, `sqlite:${databaseFile}`);
    let done = false;
    void writing.finally(() => {
      done = true;
    });
    const passes: LoadResult[] = [];
    const all = new Latencies();
    while (!done) {
      const pass = await runLoad(server.url, requests, { ...options, seconds: 5, warmupSeconds: 0, record: all });
      passes.push(pass);
      log(`reads during the re-ingest, pass ${passes.length}: ${pass.rps} req/s, p50 ${pass.p50} ms, p99 ${pass.p99} ms`);
    }
    const reingest = await writing;
    const p50s = passes.map((p) => p.p50).sort((a, b) => a - b);
    const duringWrite = {
      passes: passes.length,
      requests: passes.reduce((n, p) => n + p.requests, 0),
      p50: p50s[Math.floor(p50s.length / 2)] ?? Number.NaN,
      p99: Math.max(...passes.map((p) => p.p99)),
      p99AllRequests: Math.round(100 * all.percentile(99)) / 100,
      errors: passes.reduce((n, p) => n + p.errors, 0),
      non2xx: passes.reduce((n, p) => n + p.non2xx, 0),
    };
    log(`reads during the re-ingest (${reingest.updated} updated in ${reingest.seconds} s): p50 ${duringWrite.p50} ms, p99 ${duringWrite.p99AllRequests} ms (the worst pass ${duringWrite.p99} ms), errors ${duringWrite.errors}, non-2xx ${duringWrite.non2xx}`);
    const pick = ({ requests: n, rps, p50, p99, errors, non2xx }: LoadResult) => ({ requests: n, rps, p50, p99, errors, non2xx });
    const overIdle = (p99: number): number => Math.round((100 * p99) / Math.max(idle.p99, 1e-9)) / 100;
    return { idle: pick(idle), duringWrite, reingest, p99OverIdle: overIdle(duringWrite.p99), p99AllOverIdle: overIdle(duringWrite.p99AllRequests) };
  } finally {
    await server.stop();
  }
}

/** A fresh PostgreSQL database for one ingest, dropped afterwards. */
async function withPgDatabase<T>(serverUrl: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `sextant_bench_ingest_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

interface SizeResult {
  readonly size: number;
  readonly corpus: { readonly files: number; readonly megabytes: number; readonly tools: number };
  readonly sqlite: TimedIngest;
  readonly storageFloor: StorageFloor | null;
  /** Ingest's rate over the storage floor's. */
  readonly overFloor: number | null;
  /** The same rows handed to SQLite from JavaScript as the writer hands them (storage-floor.ts `measureHandoverFloor`). */
  readonly handoverFloor: StorageFloor | null;
  /** The hand-over floor's rate over the storage floor's: the most any ingest in JavaScript can reach of it. */
  readonly handoverOverFloor: number | null;
  /** Ingest's rate over the hand-over floor's: how much of the time is the ingest's own JavaScript. */
  readonly overHandover: number | null;
  readonly postgres: TimedIngest | null;
  readonly reads: ReadsDuringWrites | null;
}

async function runSize(runtime: Runtime, size: number, work: string, env: NodeJS.ProcessEnv, reads: boolean): Promise<SizeResult> {
  const manifest = await ensureCorpus(join(ROOT, 'bench', 'corpus'), size, env.BENCH_SEED?.trim() || 'sextant-bench-1', resolve(ROOT, env.BENCH_DATA_DIR?.trim() || '../shared/data'), log);
  const databaseFile = join(work, `ingest-${size}.sqlite`);
  log(`ingest ${size}: ${manifest.files.length} files (${Math.round(manifest.bytes / 1e6)} MB) into a fresh SQLite database`);
  const sqlite = await timedIngest(runtime, manifest.files, `sqlite:${databaseFile}`);
  log(sqlite.ok ? `ingest ${size}: ${sqlite.seconds} s, ${sqlite.serversPerSecond} servers/s, peak RSS ${sqlite.peakRssMb} MB (its processes together: ${sqlite.peakTreeRssMb} MB)` : `ingest ${size} failed: ${sqlite.error}`);
  let storageFloor: StorageFloor | null = null;
  let handoverFloor: StorageFloor | null = null;
  // Below a million only: at a million servers the copy would need the catalog's tens of gigabytes again on disk.
  if (sqlite.ok && size < 1_000_000) {
    const copy = join(work, `floor-${size}.sqlite`);
    storageFloor = await measureStorageFloor(databaseFile, copy, sqlite.servers);
    await removeDatabase(copy);
    log(`storage floor ${size}: ${storageFloor.seconds} s = ${storageFloor.serversPerSecond} servers/s; ingest at ${ratio(sqlite.serversPerSecond, storageFloor.serversPerSecond)}× that`);
    handoverFloor = await measureHandoverFloor(databaseFile, copy, sqlite.servers);
    await removeDatabase(copy);
    log(handoverFloor.ok
      ? `hand-over floor ${size}: ${handoverFloor.seconds} s = ${handoverFloor.serversPerSecond} servers/s (${ratio(handoverFloor.serversPerSecond, storageFloor.serversPerSecond)}× the storage floor); ingest at ${ratio(sqlite.serversPerSecond, handoverFloor.serversPerSecond)}× that`
      : `hand-over floor ${size} not measured: ${handoverFloor.error}`);
  }
  const overFloor = sqlite.ok && storageFloor?.ok ? ratio(sqlite.serversPerSecond, storageFloor.serversPerSecond) : null;
  const handoverOverFloor = handoverFloor?.ok && storageFloor?.ok ? ratio(handoverFloor.serversPerSecond, storageFloor.serversPerSecond) : null;
  const overHandover = sqlite.ok && handoverFloor?.ok ? ratio(sqlite.serversPerSecond, handoverFloor.serversPerSecond) : null;
  const pgUrl = env.BENCH_PG_URL?.trim();
  const postgres = pgUrl ? await withPgDatabase(pgUrl, (url) => timedIngest(runtime, manifest.files, url)) : null;
  if (postgres) log(postgres.ok ? `PostgreSQL ingest ${size}: ${postgres.seconds} s, ${postgres.serversPerSecond} servers/s, peak RSS ${postgres.peakRssMb} MB (together: ${postgres.peakTreeRssMb} MB)` : `PostgreSQL ingest ${size} failed: ${postgres.error}`);
  const connections = Number(env.BENCH_CONNECTIONS ?? 8);
  const readResult = reads && sqlite.ok ? await readsDuringWrites(runtime, manifest, databaseFile, work, Number(env.BENCH_DURATION ?? 10), connections) : null;
  await removeDatabase(databaseFile);
  return { size, corpus: { files: manifest.files.length, megabytes: Math.round(manifest.bytes / 1e6), tools: manifest.tools }, sqlite, storageFloor, overFloor, handoverFloor, handoverOverFloor, overHandover, postgres, reads: readResult };
}

/**
 * src/ built into bench/.build-ingest (not bench/.build, which `npm run bench` empties when it
 * starts: the two may run at once). A build that fails stops the run: an ingest from tsx would
 * not measure what operators run.
 */
function buildRuntime(): Runtime {
  const build = join(ROOT, 'bench', '.build-ingest');
  rmSync(build, { recursive: true, force: true });
  mkdirSync(build, { recursive: true });
  log('building src/ (tsc -p tsconfig.build.json) into bench/.build-ingest/dist');
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json', '--outDir', join(build, 'dist'), '--tsBuildInfoFile', join(build, 'dist', '.tsbuildinfo')], { cwd: ROOT, encoding: 'utf8' });
  if (tsc.status !== 0) throw new Error(`the build failed:\n${`${tsc.stdout}${tsc.stderr}`.trim().split('\n').slice(0, 20).join('\n')}`);
  copyFileSync(join(ROOT, 'openapi.yaml'), join(build, 'openapi.yaml'));
  return { kind: 'dist', args: [join(build, 'dist', 'main.js')], serveFlags: serveNodeFlags(ROOT), buildError: null };
}

async function main(): Promise<number> {
  const env = process.env;
  const sizes = (env.BENCH_SIZES?.trim() || '100000').split(',').map(Number);
  if (env.BENCH_MILLION === '1') sizes.push(1_000_000);
  if (sizes.some((s) => !Number.isInteger(s) || s < 100 || s > 1_000_000)) throw new Error(`BENCH_SIZES must list whole numbers from 100 to 1000000, got "${env.BENCH_SIZES}"`);
  const work = await mkdtemp(join(tmpdir(), 'sextant-bench-ingest-'));
  stopChildrenOnSignals();
  try {
    const runtime = buildRuntime();
    const existing = env.BENCH_READS_ON?.trim();
    if (existing) {
      // Reads during writes alone, on a catalog already ingested from the corpus of BENCH_SIZES (its first size).
      const size = sizes[0] ?? 100_000;
      const manifest = await ensureCorpus(join(ROOT, 'bench', 'corpus'), size, env.BENCH_SEED?.trim() || 'sextant-bench-1', resolve(ROOT, env.BENCH_DATA_DIR?.trim() || '../shared/data'), log);
      const reads = await readsDuringWrites(runtime, manifest, resolve(existing), work, Number(env.BENCH_DURATION ?? 10), Number(env.BENCH_CONNECTIONS ?? 8));
      console.log(JSON.stringify({ size, reads }, null, 2));
      return 0;
    }
    const readsAt = env.BENCH_READS === '0' ? null : Math.max(...sizes.filter((s) => s < 1_000_000));
    const results: SizeResult[] = [];
    for (const size of [...new Set(sizes)].sort((a, b) => a - b)) results.push(await runSize(runtime, size, work, env, size === readsAt));
    console.log(`\n${format(results)}`);
    const folder = join(ROOT, 'bench', 'results');
    await mkdir(folder, { recursive: true });
    // A second run of the day gets its own file (`<date>-ingest-2.json`, …) instead of replacing the first.
    const file = await unusedResultFile(folder, `${new Date().toISOString().slice(0, 10)}-ingest`);
    const commit = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
    await writeFile(file, `${JSON.stringify({ command: 'npm run bench:ingest', commit, finishedAt: new Date().toISOString(), results }, null, 2)}\n`);
    console.log(`\nwritten ${file}`);
    return 0;
  } finally {
    killAll();
    await rm(work, { recursive: true, force: true });
  }
}

/** a / b to hundredths. */
function ratio(a: number, b: number): number {
  return Math.round((100 * a) / b) / 100;
}

function format(results: readonly SizeResult[]): string {
  const lines = ['servers     ingest s   servers/s   peak RSS MB (all processes)   floor servers/s   × floor   hand-over servers/s (× floor)   × hand-over   PG servers/s   PG RSS MB'];
  for (const r of results) {
    const handover = r.handoverFloor?.ok ? `${r.handoverFloor.serversPerSecond} (${r.handoverOverFloor ?? '—'})` : '—';
    const cells = [r.size, r.sqlite.seconds, r.sqlite.serversPerSecond, `${r.sqlite.peakRssMb} (${r.sqlite.peakTreeRssMb ?? '—'})`, r.storageFloor?.serversPerSecond ?? '—', r.overFloor ?? '—', handover, r.overHandover ?? '—', r.postgres?.serversPerSecond ?? '—', r.postgres?.peakRssMb ?? '—'];
    lines.push(cells.map((c, i) => String(c).padStart(i === 0 ? 7 : [11, 12, 30, 18, 10, 32, 14, 15, 12][i - 1] ?? 10)).join(''));
  }
  for (const r of results) {
    if (!r.reads) continue;
    const { idle, duringWrite, p99OverIdle, p99AllOverIdle, reingest } = r.reads;
    lines.push('', `reads during writes at ${r.size}: idle p50 ${idle.p50} ms, p99 ${idle.p99} ms; during a re-ingest updating ${reingest.updated} servers (${reingest.seconds} s): p50 ${duringWrite.p50} ms, p99 of its ${duringWrite.requests} searches ${duringWrite.p99AllRequests} ms (${p99AllOverIdle}× idle; target 5×), the worst 5-second pass ${duringWrite.p99} ms (${p99OverIdle}× idle), errors ${duringWrite.errors + duringWrite.non2xx}`);
  }
  return lines.join('\n');
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    killAll();
    process.exit(1);
  },
);
