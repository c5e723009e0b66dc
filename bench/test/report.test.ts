/** The bench's report (src/report.ts): ratios against the baseline run beside each scenario. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { LoadResult } from '../src/load.js';
import { besideP99, checkTargets, formatReport, unusedResultFile, type BaselineRun, type ScenarioResult, type SizeResult } from '../src/report.js';

function load(rps: number): LoadResult {
  return {
    requests: rps * 10, unanswered: 0, seconds: 10, rps, p50: 0.7, p90: 1, p99: 2.5, max: 9, errors: 0, timeouts: 0, non2xx: 0,
    statusCodes: { 200: rps * 10 }, bytesPerSecond: rps * 13_000, autocannon: { p50: 1, p99: 3, rpsMean: rps },
  };
}

const cpu = (serverPercent: number): BaselineRun['cpu'] => ({ serverPercent, serverMainThreadPercent: serverPercent - 2, serverOtherThreadsPercent: 2, loadGeneratorPercent: 98 });

function baseline(rps: number, serverPercent = 95): BaselineRun {
  return { when: 'beside', load: load(rps), cpu: cpu(serverPercent) };
}

function scenario(name: string, rps: number, besideRps: number): ScenarioResult {
  return {
    name, label: name, distinctRequests: 100, preflight: null, load: load(rps), baseline: baseline(besideRps), ratio: Math.round((1000 * rps) / besideRps) / 1000,
    restarted: false, cpu: cpu(95), rssAfterMb: 300, error: null,
  };
}

function size(servers: number, scenarios: ScenarioResult[]): SizeResult {
  return {
    size: servers, corpus: { servers, tools: servers * 10, entries: servers, megabytes: 40, files: 2 },
    ingest: { ok: true, servers, tools: servers * 10, seconds: servers / 2000, wallSeconds: servers / 2000, serversPerSecond: 2000, toolsPerSecond: 20_000, maxRssMb: 700, databaseMb: 280, error: null },
    storageFloor: null, scenarios, memory: { afterRunMb: 300, peakUnderLoadMb: 320, hwmMb: 330 }, serverStarts: scenarios.length,
  };
}

describe('bench report', () => {
  // REST search ran while the machine was fast (bare server 80k), MCP once it had slowed (40k).
  const sizes = [size(100_000, [scenario('search-q', 40_000, 80_000), scenario('mcp-search', 14_000, 40_000)])];

  it('takes MCP against REST with each divided by the baseline run beside it, and gives the raw ratio beside', () => {
    const mcp = checkTargets(sizes).find((t) => t.target.startsWith('MCP'));
    // 0.35 / 0.5: the machine's slowdown between the two passes is taken out; raw req/s would say 0.35 (a MISS against 0.6).
    expect(mcp).to.deep.include({ status: 'PASS', value: '0.700×' });
    expect(mcp?.note).to.match(/; 0\.350× in raw req\/s$/);
  });

  it('gives the bare server\'s p99 beside the search p99 it is read against', () => {
    const p99 = checkTargets(sizes).find((t) => t.target === 'server search with q p99 ≤ 20 ms');
    expect(p99).to.deep.include({ status: 'PASS', value: '2.500 ms' });
    expect(p99?.note).to.match(/; the bare server beside it: p99 2\.5 ms$/);
    expect(besideP99(undefined)).to.equal('');
  });

  it('prints each scenario with its own baseline run, and the range the bare server covered', () => {
    const text = formatReport(baseline(70_000, 80), 13_280, sizes, checkTargets(sizes));
    const rows = text.split('\n').filter((line) => /^100k/.test(line)).map((line) => line.split(/\s{2,}/).slice(1, 5));
    expect(rows).to.deep.equal([['search-q', '40000', '80000', '0.500'], ['mcp-search', '14000', '40000', '0.350']]);
    expect(text).to.include('Over this run the bare server gave 40000 to 80000 req/s in 3 runs');
    expect(text).to.include('In 1 of 3 baseline runs the bare server used less than 90% of its core (80-80%)');
  });

  it('names a result file no earlier run of the day took, never replacing one', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'bench-results-'));
    try {
      expect(await unusedResultFile(folder, '2026-11-26-ingest')).to.equal(join(folder, '2026-11-26-ingest.json'));
      await writeFile(join(folder, '2026-11-26-ingest.json'), '{}');
      await writeFile(join(folder, '2026-11-26.json'), '{}');
      expect(await unusedResultFile(folder, '2026-11-26-ingest')).to.equal(join(folder, '2026-11-26-ingest-2.json'));
      await writeFile(join(folder, '2026-11-26-ingest-2.json'), '{}');
      expect(await unusedResultFile(folder, '2026-11-26-ingest')).to.equal(join(folder, '2026-11-26-ingest-3.json'));
      expect(await unusedResultFile(folder, '2026-11-26')).to.equal(join(folder, '2026-11-26-2.json'));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
