/**
 * One benchmark run: for each catalog size, the corpus, a timed ingest into a fresh database,
 * the server, the baseline (with the body size of a typical search page, found once), every
 * scenario each followed by a baseline run of its own, the memory; then targets, the table and
 * the JSON record.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join, relative } from 'node:path';
import { ensureCorpus, type CorpusManifest } from './corpus.js';
import { runIngest } from './ingest-run.js';
import { runLoad, type LoadOptions } from './load.js';
import { HAS_TASKSET } from './processes.js';
import { formatProfile, summarizeProfile, type ProfileSummary } from './profile.js';
import { checkTargets, formatReport, unusedResultFile, type BaselineRun, type ScenarioResult, type SizeResult } from './report.js';
import { buildScenarios, preflight, type Scenario, type ServerSetup } from './scenarios.js';
import { measurePaired } from './paired.js';
import { cpuProbe, ServerHandle, type CpuShare } from './server-handle.js';
import { startBaseline, type Runtime } from './servers.js';
import type { BenchDatabase, Settings } from './settings.js';
import { checkColdStart, checkPgTargets, coldStartScenario, COLD_START, measureColdStart } from './cold-start.js';
import { createPgDatabase } from './pg-database.js';
import { measureStorageFloor, removeDatabase, type StorageFloor } from './storage-floor.js';

export interface RunContext {
  readonly root: string;
  /** Temporary folder for the databases and profiles of this run. */
  readonly work: string;
  readonly settings: Settings;
  readonly runtime: Runtime;
  readonly pinning: { readonly server: string; readonly load: string; readonly all: string } | null;
  readonly log: (line: string) => void;
}

/**
 * The bare server's body size (a typical search page) and its run at the start. Each scenario
 * is compared with a run of its own, made right after it (ScenarioResult.baseline).
 */
interface Baseline {
  readonly bytes: number;
  readonly start: BaselineRun;
}

/** Runs everything; returns the exit code (0 once results are written, whatever the targets say). */
export async function runAll(ctx: RunContext): Promise<number> {
  const startedAt = new Date();
  const source = sourceOf(ctx.root);
  ctx.log(source ? `source: ${source.commit}${source.modified ? ' with uncommitted changes to tracked files' : ''}` : 'source: not a git checkout');
  const sizes: SizeResult[] = [];
  const state: { baseline: Baseline | null; profiles: Profile[] } = { baseline: null, profiles: [] };
  for (const database of ctx.settings.databases) {
    for (const size of ctx.settings.sizes) sizes.push(await runSize(ctx, size, database, size === ctx.settings.sizes.at(-1), state));
  }
  const on = (database: BenchDatabase) => sizes.filter((s) => (s.database ?? 'sqlite') === database);
  const targets = [
    ...(ctx.settings.databases.includes('sqlite') ? checkTargets(on('sqlite')) : []),
    ...(ctx.settings.databases.includes('pg') ? checkPgTargets(on('pg')) : []),
    ...checkColdStart(sizes),
  ];
  console.log(`\n${formatReport(state.baseline?.start ?? null, state.baseline?.bytes ?? 0, sizes, targets)}`);
  for (const profile of state.profiles) {
    const cpu = profile.cpu;
    console.log(`\n${profile.scenario} at ${profile.size} servers: ${formatProfile(profile)}`);
    if (cpu) console.log(`server CPU during the profiled pass: ${cpu.serverPercent}% = main thread ${cpu.serverMainThreadPercent}% + other threads (libuv pool with SQLite, V8 helpers) ${cpu.serverOtherThreadsPercent}%`);
  }
  const folder = join(ctx.root, 'bench', 'results');
  await mkdir(folder, { recursive: true });
  const file = await resultFile(folder, startedAt, resultSuffix(ctx.settings));
  const record = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    command: 'npm run bench',
    source,
    machine: machineFacts(ctx),
    settings: ctx.settings,
    server: { runtime: ctx.runtime.kind, buildError: ctx.runtime.buildError },
    baseline: state.baseline,
    sizes,
    derived: derived(sizes.filter((s) => (s.database ?? 'sqlite') === 'sqlite')),
    targets,
    profiles: state.profiles,
  };
  await writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
  console.log(`\nwritten ${file}`);
  return 0;
}

/**
 * `<date><suffix>.json`. A partial or quick run replaces the last one of its day; a second full run
 * of the day gets its own file (`<date>-2.json`, …) instead of replacing the first.
 */
async function resultFile(folder: string, startedAt: Date, suffix: string): Promise<string> {
  const day = startedAt.toISOString().slice(0, 10);
  if (suffix !== '') return join(folder, `${day}${suffix}.json`);
  return unusedResultFile(folder, day);
}

/** '' for a full run with the default settings; a partial run does not overwrite the day's full results. */
function resultSuffix(settings: Settings): string {
  if (settings.quick) return '-quick';
  const full = settings.scenarios === null && settings.seconds === 10 && settings.connections === 32 && settings.sizes.join(',') === '10000,100000';
  return full ? '' : '-partial';
}

/** The commit the run measures, and whether tracked files differed from it (null outside a git checkout). */
function sourceOf(root: string): { commit: string; modified: boolean } | null {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  const head = git('rev-parse', 'HEAD');
  if (head.status !== 0) return null;
  const status = git('status', '--porcelain', '--untracked-files=no');
  return { commit: head.stdout.trim(), modified: status.status !== 0 || status.stdout.trim() !== '' };
}

function machineFacts(ctx: RunContext): Record<string, unknown> {
  return {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    node: process.version,
    platform: `${platform()} ${release()}`,
    memoryMb: Math.round(totalmem() / 2 ** 20),
    loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100),
    taskset: HAS_TASKSET,
    pinned: ctx.pinning !== null,
    serverCore: ctx.pinning?.server ?? null,
    loadGeneratorCore: ctx.pinning?.load ?? null,
  };
}

function derived(sizes: readonly SizeResult[]): Record<string, unknown> {
  const rps = (s: SizeResult, name: string): number | null => s.scenarios.find((x) => x.name === name)?.load?.rps ?? null;
  const ratio = (s: SizeResult, name: string): number | null => s.scenarios.find((x) => x.name === name)?.ratio ?? null;
  const p50 = (size: number): number | null => sizes.find((s) => s.size === size)?.scenarios.find((x) => x.name === 'search-q')?.load?.p50 ?? null;
  const small = p50(10_000);
  const big = p50(100_000);
  return {
    searchP50Ratio100kTo10k: small && big ? Math.round((100 * big) / small) / 100 : null,
    mcpToRestSearch: Object.fromEntries(sizes.map((s) => {
      const [mcp, rest] = [rps(s, 'mcp-search'), rps(s, 'search-q')];
      return [String(s.size), mcp !== null && rest ? Math.round((100 * mcp) / rest) / 100 : null];
    })),
    /** The same, each against the baseline run beside it (the machine's drift between the two passes taken out). */
    mcpToRestSearchBesideBaselines: Object.fromEntries(sizes.map((s) => {
      const [mcp, rest] = [ratio(s, 'mcp-search'), ratio(s, 'search-q')];
      return [String(s.size), mcp !== null && rest ? Math.round((100 * mcp) / rest) / 100 : null];
    })),
    ingestServersPerSecond: Object.fromEntries(sizes.map((s) => [String(s.size), s.ingest.serversPerSecond])),
    ingestToolsPerSecond: Object.fromEntries(sizes.map((s) => [String(s.size), s.ingest.toolsPerSecond])),
    storageFloorServersPerSecond: Object.fromEntries(sizes.map((s) => [String(s.size), s.storageFloor?.serversPerSecond ?? null])),
  };
}

async function runSize(ctx: RunContext, size: number, database: BenchDatabase, last: boolean, state: { baseline: Baseline | null; profiles: Profile[] }): Promise<SizeResult> {
  if (database === 'sqlite') return runSizeOn(ctx, size, null, last, state);
  const pg = await createPgDatabase(ctx.settings.pgUrl, size);
  try {
    return await runSizeOn(ctx, size, pg.url, last, state);
  } finally {
    await pg.drop();
  }
}

/** One size on SQLite (`databaseUrl` null: a file in the work folder) or on the PostgreSQL database `databaseUrl`. */
async function runSizeOn(ctx: RunContext, size: number, databaseUrl: string | null, last: boolean, state: { baseline: Baseline | null; profiles: Profile[] }): Promise<SizeResult> {
  const { settings } = ctx;
  const database: BenchDatabase = databaseUrl === null ? 'sqlite' : 'pg';
  const log = (line: string): void => ctx.log(database === 'pg' ? `[pg] ${line}` : line);
  const url = databaseUrl === null ? {} : { databaseUrl };
  const manifest = await ensureCorpus(join(ctx.root, 'bench', 'corpus'), size, settings.seed, settings.dataDir, log);
  const corpus = { servers: manifest.servers, tools: manifest.tools, entries: manifest.entries, megabytes: Math.round(manifest.bytes / 1e6), files: manifest.files.length };
  const databaseFile = join(ctx.work, `catalog-${size}.sqlite`);
  log(`ingest ${size}: ${manifest.files.length} files into a fresh database (limit ${settings.ingestTimeoutSeconds} s)`);
  const ingest = await runIngest({ root: ctx.root, runtime: ctx.runtime, manifest, databaseFile, ...url, cores: ctx.pinning?.all ?? null, timeoutSeconds: settings.ingestTimeoutSeconds });
  log(ingest.ok
    ? `ingest ${size}: ${ingest.servers} servers, ${ingest.tools} tools in ${ingest.seconds} s = ${ingest.serversPerSecond} servers/s, ${ingest.toolsPerSecond} tools/s`
    : `ingest ${size} did not finish: ${ingest.error}`);
  const memory = { afterRunMb: null, peakUnderLoadMb: null, hwmMb: null };
  if (!ingest.ok) return { size, database, corpus, ingest, storageFloor: null, scenarios: [], memory, serverStarts: 0 };
  const storageFloor = database === 'sqlite' ? await storageFloorOf(ctx, size, databaseFile, ingest.servers, ingest.seconds) : null;
  const handle = new ServerHandle({ root: ctx.root, runtime: ctx.runtime, databaseFile, ...url, cores: ctx.pinning?.server ?? null, allCores: ctx.pinning?.all ?? null, drainTimeoutSeconds: settings.drainTimeoutSeconds, log });
  let scenarios: Scenario[] = [];
  let readySeconds: number | null = null;
  let wholeIndexSeconds: number | null = null;
  try {
    await handle.start();
    readySeconds = handle.readySeconds;
    wholeIndexSeconds = handle.wholeIndexSeconds;
    log(`server (${ctx.runtime.kind}) on ${handle.url}, pid ${handle.pid}, ready ${readySeconds} s after its start, whole search index ${wholeIndexSeconds} s`);
    const every = [...(await buildScenarios(handle.url, manifest)), coldStartScenario(manifest)];
    scenarios = every.filter((s) => settings.scenarios === null || settings.scenarios.includes(s.name));
    // The baseline's body is a search page's whichever scenarios run, so ratios compare across runs.
    if (state.baseline === null) state.baseline = await measureBaseline(ctx, handle, every);
  } finally {
    await handle.stop();
  }
  const results: ScenarioResult[] = [];
  for (const s of scenarios) results.push(await runScenario(ctx, handle, s, state.baseline?.bytes ?? null));
  for (const s of last ? scenarios.filter((x) => settings.profile.includes(x.name)) : []) {
    const profile = await profileScenario(ctx, databaseFile, manifest, s, databaseUrl);
    if (profile) state.profiles.push(profile);
  }
  const ends = results.map((r) => r.rssAfterMb).filter((v): v is number => v !== null);
  const later = handle.readyTimes.slice(1).sort((a, b) => a - b);
  return {
    size,
    database,
    readySeconds,
    wholeIndexSeconds,
    readyLaterSeconds: later.length > 0 ? (later[Math.floor(later.length / 2)] as number) : null,
    corpus,
    ingest,
    storageFloor,
    scenarios: results,
    memory: { afterRunMb: ends.length > 0 ? Math.max(...ends) : null, peakUnderLoadMb: handle.peakUnderLoadMb, hwmMb: handle.hwmMb },
    serverStarts: handle.starts,
  };
}

/** SQLite alone copying the catalog just ingested into a fresh database (the storage floor). */
async function storageFloorOf(ctx: RunContext, size: number, databaseFile: string, servers: number, ingestSeconds: number): Promise<StorageFloor> {
  const copyFile = join(ctx.work, `floor-${size}.sqlite`);
  ctx.log(`storage floor ${size}: SQLite alone copies the catalog just ingested into a fresh database`);
  const storageFloor = await measureStorageFloor(databaseFile, copyFile, servers);
  await removeDatabase(copyFile);
  ctx.log(storageFloor.ok
    ? `storage floor ${size}: ${storageFloor.seconds} s = ${storageFloor.serversPerSecond} servers/s (ingest ${Math.round((100 * ingestSeconds) / storageFloor.seconds) / 100}× that)`
    : `storage floor ${size} not measured: ${storageFloor.error}`);
  return storageFloor;
}

function loadOptions(settings: Settings): LoadOptions {
  return { connections: settings.connections, seconds: settings.seconds, warmupSeconds: settings.warmupSeconds, timeoutSeconds: 10 };
}

/** The body size of a typical search page (median of the search-q preflight), then the bare server with that body, alone on the server core. */
async function measureBaseline(ctx: RunContext, handle: ServerHandle, scenarios: readonly Scenario[]): Promise<Baseline> {
  const search = scenarios.find((s) => s.name === 'search-q') ?? scenarios[0];
  const sample = search ? await preflight(handle.url, search, 40, 10_000, 30_000) : null;
  const bytes = sample && Number.isFinite(sample.medianBytes) ? sample.medianBytes : 15_000;
  await handle.stop();
  ctx.log(`baseline: bare node:http, ${bytes} B JSON body, at the start and after each scenario`);
  return { bytes, start: await baselineRun(ctx, bytes, 'start') };
}

/** The bare node:http server with a `bytes` body, alone on the server core. */
async function baselineRun(ctx: RunContext, bytes: number, when: string): Promise<BaselineRun> {
  const bare = await startBaseline(ctx.root, bytes, ctx.pinning?.server ?? null);
  try {
    const probe = cpuProbe(() => bare.proc.pid);
    const load = await runLoad(bare.url, [{ method: 'GET', path: '/' }], loadOptions(ctx.settings), probe.hooks);
    const cpu = probe.result();
    ctx.log(`baseline (${when}): ${load.rps} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms; CPU server ${cpu.serverPercent}%, load generator ${cpu.loadGeneratorPercent}%`
      + ((cpu.serverPercent ?? 100) < 90 ? ' (the bare server is not saturated: the limit is the load generator or the wake-ups between the two cores)' : ''));
    return { when, load, cpu };
  } finally {
    await bare.stop();
  }
}

/**
 * One scenario on a fresh server (so no scenario inherits another's caches or backlog):
 * preflight, restart if the preflight left it busy, warm-up, measured pass, memory; then,
 * with the server stopped, the bare server's run it is compared with.
 */
async function runScenario(ctx: RunContext, handle: ServerHandle, s: Scenario, baselineBytes: number | null): Promise<ScenarioResult> {
  const measured = await measureScenario(ctx, handle, s);
  if (measured.load === null || baselineBytes === null) return measured;
  const baseline = await baselineRun(ctx, baselineBytes, `beside ${s.name}`);
  return { ...measured, baseline, ratio: Math.round((1000 * measured.load.rps) / Math.max(baseline.load.rps, 1e-9)) / 1000 };
}

async function measureScenario(ctx: RunContext, handle: ServerHandle, s: Scenario): Promise<ScenarioResult> {
  const base = { name: s.name, label: s.label, distinctRequests: new Set(s.requests.map((r) => `${r.path} ${r.body ?? ''}`)).size, baseline: null, ratio: null };
  try {
    if (s.pair) return { ...base, ...(await measurePair(ctx, handle, s, s.pair)) };
    await handle.start(s.server ?? {});
    if (s.name === COLD_START) return { ...base, ...(await measureColdStart(loadOptions(ctx.settings), handle, s)) };
    const check = await preflight(handle.url, s, s.name === 'search-q' ? 48 : 20, 10_000, 20_000);
    if (check.failures.length > 0) ctx.log(`${s.name}: preflight failures: ${check.failures.join(' | ')}`);
    const restarted = !(await handle.ensureDrained());
    const probe = cpuProbe(() => handle.pid, { start: () => handle.startSampling(), stop: () => handle.stopSampling() });
    const load = await runLoad(handle.url, s.requests, loadOptions(ctx.settings), probe.hooks);
    const cpu = probe.result();
    const rssAfterMb = handle.memory().rssMb;
    ctx.log(`${s.name}: ${load.rps} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms, ${load.errors} errors, ${load.non2xx} non-2xx, ${load.unanswered} unanswered;`
      + ` CPU server ${cpu.serverPercent}% (main thread ${cpu.serverMainThreadPercent}%), load generator ${cpu.loadGeneratorPercent}%; RSS ${rssAfterMb} MB (preflight median ${check.medianMs} ms, ${check.empty}/${check.ok} empty)`);
    return { ...base, preflight: check, load, restarted, cpu, rssAfterMb, error: null };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    ctx.log(`${s.name}: failed: ${message}`);
    return { ...base, preflight: null, load: null, restarted: false, cpu: null, rssAfterMb: null, error: message };
  } finally {
    await handle.stop();
  }
}

/** A pair of servers loaded in turn (paired.ts): the second's req/s over the first's, with no bare-server run beside it. */
async function measurePair(ctx: RunContext, handle: ServerHandle, s: Scenario, pair: readonly [ServerSetup, ServerSetup]): Promise<Omit<ScenarioResult, 'name' | 'label' | 'distinctRequests' | 'baseline' | 'ratio'>> {
  const second = handle.twin();
  try {
    const paired = await measurePaired(handle, second, pair, s.requests, loadOptions(ctx.settings));
    const m = paired.metrics;
    ctx.log(`${s.name}: ${paired.rounds.map((r) => `${Math.round(r.a)}/${Math.round(r.b)}`).join(', ')} req/s (first/second, by round): the second at ${paired.medianRatio}× the first (median)`
      + (m ? `; metrics scraped ${m.scrapes} times under load (${m.failures} failed, slowest ${m.slowestMs} ms), counting ${m.requestsCounted} requests` : ''));
    return { preflight: null, load: paired.load, restarted: false, cpu: null, rssAfterMb: null, error: null, paired };
  } finally {
    await second.stop();
    await handle.stop();
  }
}

/** A scenario again on a server started with --cpu-prof; the profile's top self times during the measured pass. */
type Profile = ProfileSummary & { readonly scenario: string; readonly size: number; readonly cpu: CpuShare | null; readonly file: string };

async function profileScenario(ctx: RunContext, databaseFile: string, manifest: CorpusManifest, search: Scenario, databaseUrl: string | null): Promise<Profile | null> {
  const dir = join(ctx.work, `profile-${manifest.servers}-${search.name}`);
  await mkdir(dir, { recursive: true });
  const handle = new ServerHandle({ root: ctx.root, runtime: ctx.runtime, databaseFile, ...(databaseUrl ? { databaseUrl } : {}), cores: ctx.pinning?.server ?? null, drainTimeoutSeconds: ctx.settings.drainTimeoutSeconds, cpuProfDir: dir, log: ctx.log });
  ctx.log(`profile: ${search.name} at ${manifest.servers} servers with --cpu-prof`);
  let window = { fromMs: 0, toMs: Number.POSITIVE_INFINITY };
  let cpu: CpuShare | null = null;
  try {
    await handle.start();
    const probe = cpuProbe(() => handle.pid, {
      start: () => {
        window = { ...window, fromMs: performance.now() - handle.spawnedAt };
      },
      stop: () => {
        window = { ...window, toMs: performance.now() - handle.spawnedAt };
      },
    });
    await runLoad(handle.url, search.requests, loadOptions(ctx.settings), probe.hooks);
    cpu = probe.result();
  } finally {
    await handle.stop();
  }
  const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'));
  if (!file) {
    ctx.log('profile: no .cpuprofile was written (the server did not exit cleanly)');
    return null;
  }
  const kept = join(ctx.root, 'bench', 'profiles', `${new Date().toISOString().slice(0, 10)}-${search.name}-${manifest.servers}${databaseUrl ? '-pg' : ''}.cpuprofile`);
  await mkdir(join(ctx.root, 'bench', 'profiles'), { recursive: true });
  await copyFile(join(dir, file), kept);
  ctx.log(`profile: kept ${kept}`);
  // Offsets are from the spawn, the profile starts a little later: the window is slightly late, never early.
  return { ...summarizeProfile(JSON.parse(await readFile(join(dir, file), 'utf8')), 15, window), scenario: search.name, size: manifest.servers, cpu, file: relative(ctx.root, kept) };
}
