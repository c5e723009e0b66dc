/**
 * Two servers set up differently (metrics off and on; one process and two workers), both up at
 * once, loaded in turn in short passes, A B B A …: this machine's speed drifts by more than the
 * few percent such a difference is, over the minutes two separate scenarios lie apart, but
 * hardly within one round of a few seconds. The result is B's req/s over A's, per round and
 * their median.
 */
import { runLoad, type LoadOptions, type LoadRequest, type LoadResult } from './load.js';
import { scrapeEachSecond, type MetricsScrapes } from './metrics-scrape.js';
import type { ServerSetup } from './scenarios.js';
import type { ServerHandle } from './server-handle.js';

export interface PairedResult {
  readonly a: ServerSetup;
  readonly b: ServerSetup;
  /** req/s of each in each round. */
  readonly rounds: ReadonlyArray<{ readonly a: number; readonly b: number }>;
  /** The median over the rounds of B's req/s over A's. */
  readonly medianRatio: number;
  /** B's scrapes during its passes, where B serves metrics. */
  readonly metrics: MetricsScrapes | null;
  /** B's passes together (for the errors check and the table). */
  readonly load: LoadResult;
}

const ROUNDS = 6;
const PASS_SECONDS = 3;

export async function measurePaired(a: ServerHandle, b: ServerHandle, setups: readonly [ServerSetup, ServerSetup], requests: readonly LoadRequest[], options: LoadOptions): Promise<PairedResult> {
  await a.start(setups[0]);
  await b.start(setups[1]);
  // A lap of every request on each, so that both passes measure kept answers alike.
  const lap = Math.max(1, Math.ceil(requests.length / 200));
  for (const handle of [a, b]) await runLoad(handle.url, requests, { ...options, seconds: lap, warmupSeconds: 0 });
  const scraping = setups[1].metrics && b.metricsUrl ? scrapeEachSecond(b.metricsUrl) : null;
  const rounds: Array<{ a: number; b: number }> = [];
  const passes: LoadResult[] = [];
  const pass = async (handle: ServerHandle): Promise<number> => {
    const load = await runLoad(handle.url, requests, { ...options, seconds: PASS_SECONDS, warmupSeconds: 0.5 });
    if (handle === b) passes.push(load);
    return load.rps;
  };
  for (let round = 0; round < ROUNDS; round += 1) {
    // A B, then B A: a drift within a round weighs on both alike.
    if (round % 2 === 0) {
      const ra = await pass(a);
      rounds.push({ a: ra, b: await pass(b) });
    } else {
      const rb = await pass(b);
      rounds.push({ a: await pass(a), b: rb });
    }
  }
  const metrics = (await scraping?.stop()) ?? null;
  const medianRatio = median(rounds.map((r) => r.b / Math.max(r.a, 1e-9)));
  return { a: setups[0], b: setups[1], rounds, medianRatio: Math.round(medianRatio * 1000) / 1000, metrics, load: combined(passes) };
}

/** The median of a non-empty list: the middle value, or the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1 ? (sorted[Math.floor(middle)] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Several passes as one: counts summed, rates over the summed seconds, percentiles the worst pass's. */
function combined(passes: readonly LoadResult[]): LoadResult {
  const first = passes[0];
  if (!first) throw new Error('no pass ran');
  const sum = (pick: (l: LoadResult) => number): number => passes.reduce((total, l) => total + pick(l), 0);
  const worst = (pick: (l: LoadResult) => number): number => Math.max(...passes.map(pick));
  const seconds = sum((l) => l.seconds);
  const statusCodes: Record<string, number> = {};
  for (const l of passes) for (const [code, n] of Object.entries(l.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    requests: sum((l) => l.requests), unanswered: sum((l) => l.unanswered), seconds, rps: Math.round((10 * sum((l) => l.requests)) / seconds) / 10,
    p50: worst((l) => l.p50), p90: worst((l) => l.p90), p99: worst((l) => l.p99), max: worst((l) => l.max),
    errors: sum((l) => l.errors), timeouts: sum((l) => l.timeouts), non2xx: sum((l) => l.non2xx), statusCodes,
    bytesPerSecond: Math.round(sum((l) => l.bytesPerSecond * l.seconds) / seconds),
    autocannon: { p50: worst((l) => l.autocannon.p50), p99: worst((l) => l.autocannon.p99), rpsMean: first.autocannon.rpsMean },
  };
}
