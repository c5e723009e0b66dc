/** The benchmark's settings, read once from the environment; a bad value stops the run before anything starts. */
import { resolve } from 'node:path';

export interface Settings {
  readonly quick: boolean;
  readonly sizes: readonly number[];
  readonly seconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Only these scenarios (all when null). */
  readonly scenarios: readonly string[] | null;
  readonly seed: string;
  /** Scenarios to run again under --cpu-prof at the largest size (BENCH_PROFILE=1 means search-q). */
  readonly profile: readonly string[];
  readonly ingestTimeoutSeconds: number;
  /** How long the server may take to answer /readyz after a scenario before it is restarted. */
  readonly drainTimeoutSeconds: number;
  readonly dataDir: string;
  readonly keep: boolean;
  /** The databases every size runs on (BENCH_DB=sqlite|pg|both, default both), each with its own ingest, server and baselines. */
  readonly databases: readonly BenchDatabase[];
  /** The PostgreSQL server the pg runs create their databases on (BENCH_PG_URL). */
  readonly pgUrl: string;
}

export type BenchDatabase = 'sqlite' | 'pg';

type Env = Readonly<Record<string, string | undefined>>;

export function loadSettings(env: Env, root = resolve('.')): Settings {
  const problems: string[] = [];
  const quick = env.BENCH_QUICK === '1';
  const number = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max) {
      problems.push(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  };
  const sizes = (env.BENCH_SIZES?.trim() || (quick ? '10000' : '10000,100000')).split(',').map((s) => Number(s.trim()));
  if (sizes.some((s) => !Number.isInteger(s) || s < 100 || s > 1_000_000)) problems.push(`BENCH_SIZES must list whole numbers from 100 to 1000000, got "${env.BENCH_SIZES}"`);
  const settings: Settings = {
    quick,
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    seconds: number('BENCH_DURATION', quick ? 2 : 10, 1, 600),
    warmupSeconds: number('BENCH_WARMUP', 1, 0, 60),
    connections: number('BENCH_CONNECTIONS', 32, 1, 1000),
    scenarios: env.BENCH_SCENARIOS?.trim() ? env.BENCH_SCENARIOS.split(',').map((s) => s.trim()) : null,
    seed: env.BENCH_SEED?.trim() || 'sextant-bench-1',
    profile: !env.BENCH_PROFILE?.trim() || env.BENCH_PROFILE.trim() === '0' ? [] : env.BENCH_PROFILE.trim() === '1' ? ['search-q'] : env.BENCH_PROFILE.split(',').map((s) => s.trim()),
    ingestTimeoutSeconds: number('BENCH_INGEST_TIMEOUT', 900, 10, 7200),
    drainTimeoutSeconds: number('BENCH_DRAIN_TIMEOUT', 20, 1, 600),
    dataDir: resolve(root, env.BENCH_DATA_DIR?.trim() || '../shared/data'),
    keep: env.BENCH_KEEP === '1',
    databases: databasesOf(env.BENCH_DB, problems),
    pgUrl: env.BENCH_PG_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres',
  };
  if (problems.length > 0) throw new Error(`invalid benchmark settings:\n  ${problems.join('\n  ')}`);
  return Object.freeze(settings);
}

function databasesOf(raw: string | undefined, problems: string[]): BenchDatabase[] {
  const value = raw?.trim() || 'both';
  if (value === 'both') return ['sqlite', 'pg'];
  if (value === 'sqlite' || value === 'pg') return [value];
  problems.push(`BENCH_DB must be sqlite, pg or both, got "${raw}"`);
  return ['sqlite'];
}
