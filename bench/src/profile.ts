/**
 * Reads a V8 `.cpuprofile` (from `node --cpu-prof`) and sums self time per function and per
 * area (a package under node_modules, node internals, Sextant's own modules, GC, idle).
 *
 * Also runnable on its own: npm --prefix bench run profile -- <file.cpuprofile> [top]
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

export interface SelfTime {
  readonly name: string;
  readonly where: string;
  readonly ms: number;
  readonly percent: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  /** Share of samples where the process was not idle. */
  readonly busyPercent: number;
  readonly functions: readonly SelfTime[];
  readonly areas: readonly SelfTime[];
}

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

function isProfile(value: unknown): value is CpuProfile {
  return typeof value === 'object' && value !== null && 'nodes' in value && Array.isArray(value.nodes) && 'samples' in value && Array.isArray(value.samples)
    && 'timeDeltas' in value && Array.isArray(value.timeDeltas);
}

/** `file:///work/main/bench/.build/dist/store/x.js` → `dist/store/x.js`; node_modules paths keep the package. */
function shortUrl(url: string): string {
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (modules) return `${modules[1]}/${modules[2]}`;
  const own = /\/(dist|src|scripts)\/(.*)$/.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  return url === '' ? '(native)' : url.replace(/^file:\/\//, '');
}

function areaOf(frame: CallFrame): string {
  if (frame.url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native / V8 builtins)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(frame.url);
  if (modules?.[1]) return modules[1];
  if (frame.url.startsWith('node:')) return 'node internals';
  const own = /\/(?:dist|src)\/([^/]+)\//.exec(frame.url);
  return own?.[1] ? `sextant ${own[1]}/` : 'sextant (top level)';
}

function top(map: ReadonlyMap<string, { name: string; where: string; us: number }>, total: number, count: number): SelfTime[] {
  return [...map.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, count)
    .map((e) => ({ name: e.name, where: e.where, ms: Math.round(e.us / 1000), percent: Math.round((1000 * e.us) / Math.max(total, 1)) / 10 }));
}

/** Only the samples taken between these offsets from the profile's start, ms. */
export interface Window {
  readonly fromMs: number;
  readonly toMs: number;
}

/** Self time per function and per area, largest first. */
export function summarizeProfile(profile: unknown, count = 15, window: Window = { fromMs: 0, toMs: Number.POSITIVE_INFINITY }): ProfileSummary {
  if (!isProfile(profile)) throw new Error('not a V8 CPU profile');
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const functions = new Map<string, { name: string; where: string; us: number }>();
  const areas = new Map<string, { name: string; where: string; us: number }>();
  let total = 0;
  let idle = 0;
  let at = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    const frame = byId.get(id);
    if (!frame || at < window.fromMs * 1000 || at > window.toMs * 1000) return;
    total += us;
    if (frame.functionName === '(idle)') idle += us;
    const key = `${frame.functionName}\u0000${frame.url}\u0000${frame.lineNumber}`;
    const fn = functions.get(key) ?? { name: frame.functionName || '(anonymous)', where: `${shortUrl(frame.url)}:${frame.lineNumber + 1}`, us: 0 };
    fn.us += us;
    functions.set(key, fn);
    const area = areaOf(frame);
    const entry = areas.get(area) ?? { name: area, where: '', us: 0 };
    entry.us += us;
    areas.set(area, entry);
  });
  return {
    totalMs: Math.round(total / 1000),
    busyPercent: Math.round((1000 * (total - idle)) / Math.max(total, 1)) / 10,
    functions: top(functions, total, count),
    areas: top(areas, total, count),
  };
}

/** Lines for the console. */
export function formatProfile(summary: ProfileSummary): string {
  const lines = [
    `CPU profile of the main thread: ${summary.totalMs} ms sampled, ${summary.busyPercent}% busy`
      + ' ("(idle)" includes waiting for SQLite, which the sqlite3 driver runs on libuv pool threads the profiler does not sample)',
    'top self time by function:',
  ];
  for (const f of summary.functions) lines.push(`  ${f.percent.toFixed(1).padStart(5)}%  ${String(f.ms).padStart(6)} ms  ${f.name}  ${f.where}`);
  lines.push('self time by area:');
  for (const a of summary.areas) lines.push(`  ${a.percent.toFixed(1).padStart(5)}%  ${String(a.ms).padStart(6)} ms  ${a.name}`);
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: npm --prefix bench run profile -- <file.cpuprofile> [top]');
    process.exit(2);
  }
  const summary = summarizeProfile(JSON.parse(await readFile(file, 'utf8')), Number(process.argv[3] ?? 20));
  console.log(formatProfile(summary));
}
