/**
 * The cold-start scenario and the PostgreSQL targets. Cold start: a fresh server (nothing kept,
 * nothing warmed by a preflight) asked 1,600 distinct searches, measured from the first request.
 */
import type { CorpusManifest } from './corpus.js';
import { runLoad, type LoadOptions } from './load.js';
import { besideP99, type ScenarioResult, type SizeResult, type Target } from './report.js';
import type { Scenario } from './scenarios.js';
import { cpuProbe, type ServerHandle } from './server-handle.js';

export const COLD_START = 'cold-start';
const DISTINCT = 1600;
const TARGET_SIZE = 100_000;

/** 1,600 distinct `q` searches (fewer if the corpus has fewer queries). */
export function coldStartScenario(manifest: CorpusManifest): Scenario {
  const queries = manifest.serverQueries.slice(0, DISTINCT);
  return {
    name: COLD_START,
    label: `cold start: ${queries.length} distinct q, fresh server`,
    expect: 'page',
    requests: queries.map((s) => ({ method: 'GET', path: `/api/v1/servers/search?q=${encodeURIComponent(s.q)}` })),
    kinds: queries.map((s) => s.kind),
  };
}

/** The measured pass on the server `handle` has just started: no preflight, no warm-up. */
export async function measureColdStart(
  options: LoadOptions,
  handle: ServerHandle,
  s: Scenario,
): Promise<Pick<ScenarioResult, 'preflight' | 'load' | 'restarted' | 'cpu' | 'rssAfterMb' | 'error'>> {
  const probe = cpuProbe(() => handle.pid, { start: () => handle.startSampling(), stop: () => handle.stopSampling() });
  const load = await runLoad(handle.url, s.requests, { ...options, warmupSeconds: 0 }, probe.hooks);
  return { preflight: null, load, restarted: false, cpu: probe.result(), rssAfterMb: handle.memory().rssMb, error: null };
}

function fmt(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '—';
}

function check(label: string, value: number | null | undefined, op: '>=' | '<=', threshold: number, unit: string, at: string): Target {
  if (value === null || value === undefined || Number.isNaN(value)) return { target: label, status: 'n/a', value: '—', note: `not measured${at}` };
  const pass = op === '>=' ? value >= threshold : value <= threshold;
  const factor = op === '>=' ? value / threshold : threshold / Math.max(value, 1e-9);
  return { target: label, status: pass ? 'PASS' : 'MISS', value: `${fmt(value, value < 10 ? 3 : 1)}${unit}`, note: `${pass ? 'margin' : 'reaches'} ${fmt(factor, 2)}×${at}` };
}

function largestOf(sizes: readonly SizeResult[]): { size: SizeResult | undefined; at: string } {
  const measured = sizes.filter((s) => s.scenarios.some((x) => x.load !== null));
  const size = measured.find((s) => s.size === TARGET_SIZE) ?? measured.at(-1);
  return { size, at: size?.size === TARGET_SIZE ? '' : ` (at ${size?.size ?? '?'} servers; the target is at ${TARGET_SIZE})` };
}

/** The PostgreSQL targets, at 100k where that size ran. */
export function checkPgTargets(sizes: readonly SizeResult[]): Target[] {
  const { size, at } = largestOf(sizes);
  const of = (name: string) => size?.scenarios.find((x) => x.name === name);
  const others = (size?.scenarios ?? []).filter((x) => x.name !== 'search-q' && x.name !== COLD_START && x.ratio !== null);
  const worst = others.reduce<ScenarioResult | undefined>((low, x) => (low === undefined || (x.ratio ?? 0) < (low.ratio ?? 0) ? x : low), undefined);
  const ready = sizes.find((s) => s.size === TARGET_SIZE) ?? sizes.at(-1);
  return [
    check('PostgreSQL: server search with q ≥ 0.3 × baseline', of('search-q')?.ratio, '>=', 0.3, '×', at),
    check('PostgreSQL: server search with q p99 ≤ 20 ms', of('search-q')?.load?.p99, '<=', 20, ' ms', `${at}${besideP99(of('search-q'))}`),
    check(`PostgreSQL: every other scenario ≥ 0.2 × baseline${worst ? ` (lowest: ${worst.name})` : ''}`, worst?.ratio, '>=', 0.2, '×', at),
    check('PostgreSQL: ready to serve within 60 s of start', ready?.readySeconds, '<=', 60, ' s', `; the first start after the ingest, which builds the index${ready?.size === TARGET_SIZE ? '' : ` (at ${ready?.size ?? '?'} servers)`}`),
    check('PostgreSQL: later starts ready within 60 s (index snapshot)', ready?.readyLaterSeconds, '<=', 60, ' s', ready?.size === TARGET_SIZE ? '' : ` (at ${ready?.size ?? '?'} servers)`),
  ];
}

/** Cold start ≥ 0.1 × the baseline with no error, on each database. */
export function checkColdStart(sizes: readonly SizeResult[]): Target[] {
  const databases = [...new Set(sizes.map((s) => s.database ?? 'sqlite'))];
  return databases.flatMap((database) => {
    const { size, at } = largestOf(sizes.filter((s) => (s.database ?? 'sqlite') === database));
    const cold = size?.scenarios.find((x) => x.name === COLD_START);
    if (!cold) return [];
    const faults = cold.load ? cold.load.errors + cold.load.non2xx : null;
    const ratio = check(`${database}: cold start ≥ 0.1 × baseline`, cold.ratio, '>=', 0.1, '×', at);
    const clean: Target = { target: `${database}: cold start without errors`, status: faults === 0 ? 'PASS' : faults === null ? 'n/a' : 'MISS', value: `${faults ?? '—'} errors/non-2xx`, note: at.trim() };
    return [ratio, clean];
  });
}
