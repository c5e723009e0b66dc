/** What a run measured: the result types, the targets checked against them, and the table printed on stdout. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoadResult } from './load.js';
import type { PairedResult } from './paired.js';
import type { Preflight } from './scenarios.js';
import type { CpuShare } from './server-handle.js';
import type { StorageFloor } from './storage-floor.js';

export interface IngestResult {
  readonly ok: boolean;
  readonly servers: number;
  readonly tools: number;
  /** Seconds inside `ingest()` (parse, merge, write, index), or until the run was stopped. */
  readonly seconds: number;
  /** Seconds of the whole child process (start, file reads, migrations included). */
  readonly wallSeconds: number;
  readonly serversPerSecond: number;
  readonly toolsPerSecond: number;
  readonly maxRssMb: number | null;
  readonly databaseMb: number | null;
  readonly error: string | null;
}

export interface ScenarioResult {
  readonly name: string;
  readonly label: string;
  readonly distinctRequests: number;
  readonly preflight: Preflight | null;
  readonly load: LoadResult | null;
  /**
   * The bare node:http baseline run right after this scenario (same core, body size and load):
   * this machine's speed drifts over a run, so each scenario is compared with the limit as it was then.
   */
  readonly baseline: BaselineRun | null;
  /** requests/s over the requests/s of `baseline`. */
  readonly ratio: number | null;
  /** Whether the server was restarted after the preflight because it was still busy (a backlog of slow requests). */
  readonly restarted: boolean;
  readonly cpu: CpuShare | null;
  /** The server's VmRSS at the end of the scenario, MB. */
  readonly rssAfterMb: number | null;
  readonly error: string | null;
  /** A pair of servers loaded in turn: the second's req/s over the first's (its `load`: the second's passes). */
  readonly paired?: PairedResult;
}

export interface SizeResult {
  readonly size: number;
  /** Which database the size ran on (absent: SQLite). */
  readonly database?: 'sqlite' | 'pg';
  /** Seconds from the server's first start after the ingest to /readyz answering (its in-memory index built from the catalog). */
  readonly readySeconds?: number | null;
  /** Seconds from the first start to its whole search index (it serves once its servers are indexed). */
  readonly wholeIndexSeconds?: number | null;
  /** The median of the later starts, which load the index's snapshot the first start kept. */
  readonly readyLaterSeconds?: number | null;
  readonly corpus: { readonly servers: number; readonly tools: number; readonly entries: number; readonly megabytes: number; readonly files: number };
  readonly ingest: IngestResult;
  /** SQLite alone writing the same catalog (null when the ingest did not finish). */
  readonly storageFloor: StorageFloor | null;
  readonly scenarios: readonly ScenarioResult[];
  /** afterRunMb: the highest VmRSS at the end of a scenario (each scenario runs on a fresh server). */
  readonly memory: { readonly afterRunMb: number | null; readonly peakUnderLoadMb: number | null; readonly hwmMb: number | null };
  readonly serverStarts: number;
}

/** One pass of the bare node:http server: at the start of the run, or beside a scenario. */
export interface BaselineRun {
  readonly when: string;
  readonly load: LoadResult;
  readonly cpu: CpuShare;
}

export interface Target {
  readonly target: string;
  readonly status: 'PASS' | 'MISS' | 'n/a';
  readonly value: string;
  readonly note: string;
}

const TARGET_SIZE = 100_000;

function scenarioAt(sizes: readonly SizeResult[], size: number | undefined, name: string): ScenarioResult | undefined {
  return sizes.find((s) => s.size === size)?.scenarios.find((s) => s.name === name);
}

function fmt(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : value.toFixed(digits);
}

/** `value` against a ≥ or ≤ threshold: PASS/MISS and how far off. */
function check(label: string, value: number | null | undefined, op: '>=' | '<=', threshold: number, unit: string, at: string): Target {
  if (value === null || value === undefined || Number.isNaN(value)) return { target: label, status: 'n/a', value: '—', note: `not measured${at}` };
  if (op === '>=' && value <= 0) return { target: label, status: 'MISS', value: `0${unit}`, note: `no request completed${at}` };
  const pass = op === '>=' ? value >= threshold : value <= threshold;
  const factor = op === '>=' ? threshold / Math.max(value, 1e-9) : value / threshold;
  const how = pass ? `margin ${fmt(op === '>=' ? value / threshold : threshold / Math.max(value, 1e-9), 2)}×` : `${fmt(factor, 2)}× ${op === '>=' ? 'short' : 'over'}`;
  return { target: label, status: pass ? 'PASS' : 'MISS', value: `${fmt(value, value < 10 ? 3 : 1)}${unit}`, note: `${how}${at}` };
}

/**
 * The p99 of the bare server's run beside a scenario, for a p99 target's note: when the load
 * generator is the bound, its own queueing is in every p99 it measures, the bare server's too.
 */
export function besideP99(scenario: ScenarioResult | undefined): string {
  const p99 = scenario?.baseline?.load.p99;
  return p99 === undefined ? '' : `; the bare server beside it: p99 ${fmt(p99, 1)} ms`;
}

/** Every target, measured at 100k where that size ran, else at the largest size that did. */
export function checkTargets(sizes: readonly SizeResult[]): Target[] {
  const measured = sizes.filter((s) => s.scenarios.some((x) => x.load !== null));
  const largest = measured.some((s) => s.size === TARGET_SIZE) ? TARGET_SIZE : measured.at(-1)?.size;
  const at = largest === TARGET_SIZE ? '' : ` (at ${largest ?? '?'} servers; the target is at ${TARGET_SIZE})`;
  const ratio = (name: string): number | null | undefined => scenarioAt(sizes, largest, name)?.ratio;
  const search = scenarioAt(sizes, largest, 'search-q')?.load;
  const small = scenarioAt(sizes, 10_000, 'search-q')?.load;
  const big = scenarioAt(sizes, TARGET_SIZE, 'search-q')?.load;
  const ingestAt = sizes.filter((s) => s.ingest.ok).at(-1) ?? sizes.at(-1);
  const floor = ingestAt?.storageFloor?.ok ? ingestAt.storageFloor : null;
  const ingestNote = `${ingestAt && ingestAt.size !== TARGET_SIZE ? ` (at ${ingestAt.size} servers)` : ''}${floor ? `; SQLite alone ${fmt(floor.serversPerSecond, 0)} servers/s` : ''}`;
  const memory = sizes.find((s) => s.size === largest)?.memory.peakUnderLoadMb;
  const faults = sizes.flatMap((s) => s.scenarios.flatMap((x) => {
    const l = x.load;
    if (!l || (l.errors === 0 && l.non2xx === 0 && l.requests > 0)) return [];
    return [`${s.size}/${x.name}: ${l.errors} errors (${l.timeouts} timeouts), ${l.non2xx} non-2xx${l.requests === 0 ? ', no request completed' : ''}`];
  }));
  const unmeasured = sizes.flatMap((s) => s.scenarios.filter((x) => x.load === null).map((x) => `${s.size}/${x.name}`));
  return [
    check('server search with q ≥ 0.15 × baseline req/s', ratio('search-q'), '>=', 0.15, '×', at),
    check('server search with q p99 ≤ 20 ms', search?.p99, '<=', 20, ' ms', `${at}${besideP99(scenarioAt(sizes, largest, 'search-q'))}`),
    check('get server by id ≥ 0.25 × baseline', ratio('get-server'), '>=', 0.25, '×', at),
    check('get tool by id ≥ 0.25 × baseline', ratio('get-tool'), '>=', 0.25, '×', at),
    check('tool search ≥ 0.10 × baseline', ratio('tool-search'), '>=', 0.1, '×', at),
    check('server search, a 12-word sentence ≥ 0.3 × baseline', ratio('search-sentence'), '>=', 0.3, '×', at),
    check('server search, a 12-word sentence p99 ≤ 20 ms', scenarioAt(sizes, largest, 'search-sentence')?.load?.p99, '<=', 20, ' ms', `${at}${besideP99(scenarioAt(sizes, largest, 'search-sentence'))}`),
    check('tool search, a 12-word sentence ≥ 0.3 × baseline', ratio('tool-sentence'), '>=', 0.3, '×', at),
    check('tool search, a 12-word sentence p99 ≤ 20 ms', scenarioAt(sizes, largest, 'tool-sentence')?.load?.p99, '<=', 20, ' ms', `${at}${besideP99(scenarioAt(sizes, largest, 'tool-sentence'))}`),
    check('registry API search (/v0.1/servers?search) ≥ 0.3 × baseline', ratio('registry-search'), '>=', 0.3, '×', at),
    check('web search results page ≥ 0.3 × baseline', ratio('web-search'), '>=', 0.3, '×', at),
    check('web server page ≥ 0.3 × baseline', ratio('web-server'), '>=', 0.3, '×', at),
    mcpTarget(scenarioAt(sizes, largest, 'mcp-search'), scenarioAt(sizes, largest, 'search-q'), at),
    metricsTarget(scenarioAt(sizes, largest, 'metrics-cost'), at),
    workersTarget(scenarioAt(sizes, largest, 'workers'), at),
    check('search p50 at 100k ≤ 2 × p50 at 10k', big && small ? big.p50 / Math.max(small.p50, 1e-9) : null, '<=', 2, '×', big && small ? ` (${fmt(big.p50, 2)} ms vs ${fmt(small.p50, 2)} ms)` : ''),
    check('ingest ≥ 5,000 servers/s (tools and index included)', ingestAt?.ingest.serversPerSecond, '>=', 5000, ' servers/s', ingestNote),
    check('server RSS ≤ 400 MB under load', memory, '<=', 400, ' MB', at),
    {
      target: 'zero errors and zero non-2xx in every scenario',
      status: faults.length === 0 && unmeasured.length === 0 ? 'PASS' : faults.length > 0 ? 'MISS' : 'n/a',
      value: `${faults.length} scenario(s) with errors`,
      note: [...faults, ...(unmeasured.length > 0 ? [`not run: ${unmeasured.join(', ')}`] : [])].join('; '),
    },
  ];
}

/**
 * MCP against REST search, each taken against the baseline run beside it: the two passes run
 * minutes apart, and the ratio of their raw req/s would carry the machine's drift in between.
 */
function mcpTarget(mcp: ScenarioResult | undefined, rest: ScenarioResult | undefined, at: string): Target {
  // Below 1: MCP's exchange (a POST answered with the page twice) costs even a bare server more than REST's GET.
  const label = 'MCP search_servers ≥ 0.6 × REST search req/s';
  const target = check(label, mcp?.ratio && rest?.ratio ? mcp.ratio / rest.ratio : null, '>=', 0.6, '×', at);
  const raw = mcp?.load && rest?.load ? mcp.load.rps / Math.max(rest.load.rps, 1e-9) : null;
  return raw === null || target.status === 'n/a' ? target : { ...target, note: `${target.note}; ${fmt(raw, 3)}× in raw req/s` };
}

/**
 * Metrics on and scraped once a second under load: every scrape answers and counts the load. What
 * they cost is counted in instructions (metrics-instructions.ts): the req/s of the two servers
 * loaded in turn is in the note, but this machine's speed moves by more than the 5% asked.
 */
function metricsTarget(pair: ScenarioResult | undefined, at: string): Target {
  const paired = pair?.paired;
  const scrapes = paired?.metrics;
  const label = 'metrics scraped each second under load: every scrape answered';
  if (!paired || !scrapes) return { target: label, status: 'n/a', value: '—', note: `not measured${at}` };
  const answered = scrapes.failures === 0 && scrapes.scrapes > 0 && (scrapes.requestsCounted ?? 0) >= paired.load.requests;
  return {
    target: label,
    status: answered ? 'PASS' : 'MISS',
    value: `${scrapes.scrapes - scrapes.failures}/${scrapes.scrapes}`,
    note: `slowest ${scrapes.slowestMs ?? '—'} ms, counting ${scrapes.requestsCounted ?? '—'} requests; req/s with metrics over without ${fmt(paired.medianRatio, 3)}× (median of rounds ${paired.rounds.map((r) => fmt(r.b / Math.max(r.a, 1e-9), 2)).join(', ')}); the cost in instructions: npm --prefix bench run metrics-instructions${at}`,
  };
}

/** WORKERS=2 against 1, both on both cores (which the load generator shares), loaded in turn. */
function workersTarget(pair: ScenarioResult | undefined, at: string): Target {
  const paired = pair?.paired;
  const target = check('WORKERS=2 ≥ 1 process, on the two cores the load generator shares', paired?.medianRatio, '>=', 1, '×', at);
  return paired ? { ...target, note: `${target.note}; rounds ${paired.rounds.map((r) => `${Math.round(r.a)}/${Math.round(r.b)}`).join(', ')} req/s` } : target;
}

/** The storage floor against the ingest: SQLite's own share of an ingest's time. */
function floorText(floor: StorageFloor | null, ingest: IngestResult): string {
  if (floor === null) return 'not measured (the ingest did not finish)';
  if (!floor.ok) return `not measured (${floor.error ?? '?'})`;
  return `SQLite alone writes the same catalog in ${fmt(floor.seconds, 1)} s (${fmt(floor.serversPerSecond, 0)} servers/s), copying it from the finished database`
    + ` into a fresh one with no JavaScript; the ingest takes ${fmt(ingest.seconds / floor.seconds, 2)}× that`;
}

/** Every run of the bare server: the one at the start, then the one beside each scenario. */
function baselineRuns(start: BaselineRun | null, sizes: readonly SizeResult[]): BaselineRun[] {
  return [start, ...sizes.flatMap((s) => s.scenarios.map((x) => x.baseline))].filter((run): run is BaselineRun => run !== null);
}

/** How far the bare server's req/s moved over the run: the machine's drift, which the ratios beside each scenario take out. */
function baselineRange(runs: readonly BaselineRun[]): string {
  const all = runs.map((run) => run.load.rps);
  if (all.length < 2) return '';
  return `Over this run the bare server gave ${fmt(Math.min(...all), 0)} to ${fmt(Math.max(...all), 0)} req/s in ${all.length} runs: this machine's speed varies.`;
}

/** A warning when the bare server was not the bound: its ratios then flatter the service. */
function saturationNote(runs: readonly BaselineRun[]): string[] {
  const short = runs.filter((run) => (run.cpu.serverPercent ?? 100) < 90);
  if (short.length === 0) return [];
  const percents = short.map((run) => run.cpu.serverPercent ?? 0);
  return [`In ${short.length} of ${runs.length} baseline runs the bare server used less than 90% of its core (${Math.min(...percents)}-${Math.max(...percents)}%): there`
    + ' the load generator was the bound, so the ratios against those runs flatter the service.'];
}

function cpuText(percent: number | null, main: number | null): string {
  return percent === null ? '—' : `${percent}% (${main ?? '?'})`;
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

/** The results table and the targets, as printed at the end of a run. */
export function formatReport(start: BaselineRun | null, baselineBytes: number, sizes: readonly SizeResult[], targets: readonly Target[]): string {
  const lines: string[] = [];
  const head = ['catalog', 'scenario', 'req/s', 'base req/s', '× base', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'srv CPU (JS)', 'empty', 'paths', 'laps'];
  const widths = [8, 34, 9, 10, 7, 8, 8, 7, 8, 12, 7, 6, 6];
  const row = (cells: string[]): string => cells.map((cell, i) => pad(cell, widths[i] ?? 8, i >= 2)).join('  ');
  lines.push(row(head), '-'.repeat(widths.reduce((a, b) => a + b + 2, -2)));
  if (start) {
    const l = start.load;
    lines.push(row(['—', `bare node:http, ${baselineBytes} B body †`, fmt(l.rps, 0), fmt(l.rps, 0), '1.00', fmt(l.p50, 2), fmt(l.p99, 2), String(l.errors), String(l.non2xx), cpuText(start.cpu.serverPercent, start.cpu.serverMainThreadPercent), '', '1', '']));
  }
  for (const size of sizes) {
    const label = `${size.database === 'pg' ? 'pg ' : ''}${size.size >= 1000 ? `${size.size / 1000}k` : String(size.size)}`;
    for (const s of size.scenarios) {
      const l = s.load;
      const empty = s.preflight ? `${s.preflight.empty}/${s.preflight.ok}` : '';
      const name = `${s.label}${s.restarted ? ' *' : ''}`;
      if (!l) {
        lines.push(row([label, name, '—', '—', '—', '—', '—', '—', '—', '—', empty, String(s.distinctRequests), '—']) + (s.error ? `  ${s.error.split('\n')[0]}` : ''));
        continue;
      }
      lines.push(row([label, name, fmt(l.rps, 0), fmt(s.baseline?.load.rps, 0), fmt(s.ratio, 3), fmt(l.p50, 2), fmt(l.p99, 2), String(l.errors), String(l.non2xx), cpuText(s.cpu?.serverPercent ?? null, s.cpu?.serverMainThreadPercent ?? null), empty, String(s.distinctRequests), fmt(l.requests / Math.max(1, s.distinctRequests), 1)]));
    }
  }
  lines.push(
    '',
    'req/s over the measured pass (after a warm-up), latencies per request; "empty": preflight answers with no results / preflight answers;',
    '"paths": distinct requests in the rotation; "laps": responses / paths in the measured pass (it goes on from where the warm-up stopped);',
    'below 1 lap few requests repeat, so a read cache can hardly help; well above 1 the numbers are mostly cache hits;',
    '"srv CPU (JS)": server process CPU / wall time (100% = its one core), in brackets its',
    'main (JavaScript) thread, the rest being other threads (the libuv pool where the sqlite3 driver runs queries, V8 helpers);',
    '* the server was still busy with the preflight\'s requests and was restarted before the load.',
    '"base req/s": the bare node:http server (same core, same body, same load) run right after the scenario; "× base" is req/s over it.',
    `† its run at the start of the run. ${baselineRange(baselineRuns(start, sizes))}`,
    ...saturationNote(baselineRuns(start, sizes)),
    '',
  );
  for (const size of sizes) {
    const i = size.ingest;
    lines.push(
      `${size.database === 'pg' ? 'PostgreSQL, ' : ''}${size.size} servers: ready ${fmt(size.readySeconds, 1)} s after the first start (servers indexed; tools too at ${fmt(size.wholeIndexSeconds, 1)} s), ${fmt(size.readyLaterSeconds, 1)} s after later ones (median; its snapshot loaded); ingest ${i.ok ? '' : `DID NOT FINISH (${i.error ?? '?'}) `}${fmt(i.seconds, 1)} s in ingest() (${fmt(i.wallSeconds, 1)} s process), `
        + `${fmt(i.serversPerSecond, 0)} servers/s, ${fmt(i.toolsPerSecond, 0)} tools/s, ${i.tools} tools, DB ${fmt(i.databaseMb, 0)} MB, ingest peak RSS ${fmt(i.maxRssMb, 0)} MB; `
        + `server RSS at the end of a scenario ≤ ${fmt(size.memory.afterRunMb, 0)} MB, peak under load ${fmt(size.memory.peakUnderLoadMb, 0)} MB (VmHWM ${fmt(size.memory.hwmMb, 0)} MB), ${size.serverStarts} server start(s)`,
      `  storage floor: ${size.database === 'pg' ? 'measured on SQLite only' : floorText(size.storageFloor, i)}`,
    );
  }
  lines.push('', 'Targets:');
  for (const t of targets) lines.push(`  ${pad(t.status, 4)}  ${pad(t.target, 52)} ${pad(t.value, 18)} ${t.note}`);
  return lines.join('\n');
}

/** `<stem>.json` in `folder`, or else `<stem>-2.json`, `<stem>-3.json`, …: the first name no earlier run took. */
export async function unusedResultFile(folder: string, stem: string): Promise<string> {
  const taken = new Set(await readdir(folder));
  for (let n = 1; ; n += 1) {
    const name = n === 1 ? `${stem}.json` : `${stem}-${n}.json`;
    if (!taken.has(name)) return join(folder, name);
  }
}
