/**
 * Times one ingest of a corpus into a fresh database with the real CLI (`sextant ingest
 * <file...>`, from the same build as the server under test), in a child process bounded by a
 * timeout: past it the child is stopped and the run reports how long it had taken so far.
 */
import { statSync } from 'node:fs';
import type { CorpusManifest } from './corpus.js';
import { memoryOf, spawnTracked, stopProcess } from './processes.js';
import type { IngestResult } from './report.js';
import type { Runtime } from './servers.js';

/** `… catalog has 10000 servers and 96671 tools (13.38 s)`: the CLI's summary line (src/main.ts `summaryLine`). */
const SUMMARY = /catalog has (\d+) servers and (\d+) tools \(([\d.]+) s\)/;

function sizeMb(file: string): number | null {
  let bytes = 0;
  for (const suffix of ['', '-wal']) {
    try {
      bytes += statSync(`${file}${suffix}`).size;
    } catch {
      // not there
    }
  }
  return bytes > 0 ? Math.round(bytes / 1e6) : null;
}

export interface IngestRun {
  readonly root: string;
  readonly runtime: Runtime;
  readonly manifest: CorpusManifest;
  /** Must not exist yet. */
  readonly databaseFile: string;
  /** The database's URL when it is not that SQLite file (an empty PostgreSQL database). */
  readonly databaseUrl?: string;
  readonly cores: string | null;
  readonly timeoutSeconds: number;
}

/**
 * Ingests every file of the manifest with Node's default flags, as an operator runs it; the rate
 * is from the seconds the CLI reports for `ingest()` itself.
 */
export async function runIngest(run: IngestRun): Promise<IngestResult> {
  const started = performance.now();
  const proc = spawnTracked(run.cores, process.execPath, [...run.runtime.args, 'ingest', ...run.manifest.files], {
    cwd: run.root,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: run.databaseUrl ?? `sqlite:${run.databaseFile}`, LOG_LEVEL: 'error' },
  });
  let peak: number | null = null;
  const sampler = setInterval(() => {
    const memory = memoryOf(proc.pid);
    if (memory) peak = Math.max(peak ?? 0, memory.hwmMb);
  }, 500);
  const timer = setTimeout(() => void stopProcess(proc, 2000, 'SIGKILL'), run.timeoutSeconds * 1000);
  const code = await proc.exited;
  clearTimeout(timer);
  clearInterval(sampler);
  const wallSeconds = Math.round((performance.now() - started) / 10) / 100;
  const match = SUMMARY.exec(proc.output());
  if (code !== '0') {
    const timedOut = wallSeconds >= run.timeoutSeconds;
    return {
      ok: false,
      servers: run.manifest.servers,
      tools: run.manifest.tools,
      seconds: wallSeconds,
      wallSeconds,
      serversPerSecond: Number.NaN,
      toolsPerSecond: Number.NaN,
      maxRssMb: peak,
      databaseMb: sizeMb(run.databaseFile),
      error: timedOut ? `stopped after the ${run.timeoutSeconds} s limit (BENCH_INGEST_TIMEOUT)` : `exit ${code}: ${proc.output().slice(-1500)}`,
    };
  }
  // Without the summary line (its format changed), the process's wall time is the conservative measure.
  const servers = match ? Number(match[1]) : run.manifest.servers;
  const tools = match ? Number(match[2]) : run.manifest.tools;
  const seconds = match ? Number(match[3]) : wallSeconds;
  return {
    ok: true,
    servers,
    tools,
    seconds,
    wallSeconds,
    serversPerSecond: Math.round(servers / seconds),
    toolsPerSecond: Math.round(tools / seconds),
    maxRssMb: peak,
    databaseMb: sizeMb(run.databaseFile),
    error: null,
  };
}
