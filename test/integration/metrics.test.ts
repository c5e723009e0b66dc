/**
 * Prometheus metrics on METRICS_PORT: `serve` publishes them on loopback apart from the public
 * port, they move with the traffic (requests by operation and status, MCP calls by tool and
 * outcome, searches by engine, the answer cache), and they read the database's state (pool,
 * ingest runs, endpoint states) at each scrape.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startHarness } from '../support/harness.js';
import { freePort, startServe, type ServeProcess } from '../support/serve-process.js';

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * A scrape's samples (the text exposition format: `name{label="value",...} number`), after
 * checking that every family has its HELP and TYPE.
 */
async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  expect(response.status).to.equal(200);
  expect(response.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  const lines = (await response.text()).split('\n').filter((line) => line !== '');
  const typed = new Set(lines.filter((line) => line.startsWith('# TYPE ')).map((line) => line.split(' ')[2]));
  return lines.filter((line) => !line.startsWith('#')).map((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    expect(match, `a sample line: ${line}`).to.not.equal(null);
    const [, name, labels = '', number] = match!;
    expect([...typed].some((family) => name === family || name!.startsWith(`${family}_`)), `${name} has a TYPE`).to.equal(true);
    return { name: name!, labels: Object.fromEntries([...labels.matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]])), value: Number(number) };
  });
}

/** The samples of `name` whose labels include `labels`. */
const samples = (all: readonly Sample[], name: string, labels: Record<string, string> = {}): Sample[] =>
  all.filter((sample) => sample.name === name && Object.entries(labels).every(([key, v]) => sample.labels[key] === v));

/** The one sample of `name` with `labels`. */
function value(all: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples(all, name, labels);
  expect(found, `one ${name} sample for ${JSON.stringify(labels)}`).to.have.length(1);
  return found[0]!.value;
}

const sextant = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

describe('metrics on METRICS_PORT', function () {
  this.timeout(120_000);
  let dir: string;
  let serve: ServeProcess;
  let metricsUrl: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sextant-metrics-'));
    const env = { DATABASE_URL: `sqlite:${dir}/catalog.sqlite` };
    // One ingest that completes and one that fails (a truncated file): both are recorded runs.
    expect(sextant(['ingest', 'test/fixtures/official-small.json'], env).status).to.equal(0);
    expect(sextant(['ingest', 'test/fixtures/truncated.json'], env).status).to.equal(1);
    const metricsPort = await freePort();
    serve = await startServe(dir, { METRICS_PORT: String(metricsPort) });
    const served = await serve.waitFor(/"url":"(http:\/\/127\.0\.0\.1:\d+\/metrics)"[^\n]*"msg":"metrics are served"/);
    metricsUrl = served[1]!;
    expect(metricsUrl).to.equal(`http://127.0.0.1:${metricsPort}/metrics`);
  });
  after(async () => {
    expect(await serve?.stop()).to.deep.equal({ code: 0, signal: null });
    rmSync(dir, { recursive: true, force: true });
  });

  it('counts requests, MCP calls, searches and cache lookups as they happen', async () => {
    const base = `http://127.0.0.1:${serve.port}`;
    const before = await scrape(metricsUrl);
    const searchesBefore = samples(before, 'sextant_http_request_duration_seconds_count', { operation: 'searchServers', status: '200' }).length;
    expect(searchesBefore, 'no search was made yet').to.equal(0);
    for (let i = 0; i < 20; i += 1) await (await fetch(`${base}/api/v1/servers/search?q=github`)).arrayBuffer();
    expect((await fetch(`${base}/api/v1/servers/search?limit=0`)).status).to.equal(400);
    const call = (name: string, args: object) =>
      fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }) }).then((r) => r.json());
    expect((await call('search_tools', { q: 'read a file' })).result.isError).to.equal(false);
    expect((await call('search_tools', { q: 42 })).result.isError).to.equal(true);
    expect((await call('get_server', { id: 'no.such~server' })).result.isError).to.equal(true);
    expect((await call('no_such_tool', {})).error.code).to.equal(-32602);
    await (await fetch(`${base}/v0.1/servers?search=github`)).arrayBuffer();

    const after = await scrape(metricsUrl);
    expect(value(after, 'sextant_http_request_duration_seconds_count', { operation: 'searchServers', method: 'GET', status: '200' })).to.equal(20);
    expect(value(after, 'sextant_http_request_duration_seconds_count', { operation: 'searchServers', method: 'GET', status: '400' })).to.equal(1);
    expect(value(after, 'sextant_http_request_duration_seconds_count', { operation: 'postMcp', method: 'POST', status: '200' })).to.equal(4);
    expect(value(after, 'sextant_http_request_duration_seconds_count', { operation: 'registryListServers', status: '200' })).to.equal(1);
    expect(samples(after, 'sextant_mcp_tool_calls_total').map((s) => ({ ...s.labels, n: s.value }))).to.have.deep.members([
      { tool: 'search_tools', outcome: 'ok', n: 1 },
      { tool: 'search_tools', outcome: 'invalid_arguments', n: 1 },
      { tool: 'get_server', outcome: 'tool_error', n: 1 },
    ]);
    // The first search is computed by the in-memory engine; the 19 after it are kept answers.
    expect(value(after, 'sextant_search_duration_seconds_count', { engine: 'memory', kind: 'servers' })).to.be.at.least(1);
    expect(value(after, 'sextant_search_duration_seconds_count', { engine: 'memory', kind: 'tools' })).to.equal(1);
    expect(value(after, 'sextant_search_duration_seconds_count', { kind: 'rank' })).to.equal(1);
    expect(value(after, 'sextant_answer_cache_lookups_total', { result: 'hit' })).to.be.at.least(19);
    expect(value(after, 'sextant_answer_cache_lookups_total', { result: 'miss' })).to.be.at.least(1);
    expect(value(after, 'sextant_answer_cache_bytes')).to.be.above(0);
  });

  it('reads the pool, the recorded ingest runs and the process at each scrape', async () => {
    const families = await scrape(metricsUrl);
    expect(value(families, 'sextant_db_pool_connections', { state: 'max' })).to.equal(1);
    expect(value(families, 'sextant_catalog_runs', { command: 'ingest', status: 'complete' })).to.equal(1);
    expect(value(families, 'sextant_catalog_runs', { command: 'ingest', status: 'failed' })).to.equal(1);
    const lastSuccess = value(families, 'sextant_catalog_run_last_success_timestamp_seconds', { command: 'ingest' });
    expect(lastSuccess).to.be.within(Date.now() / 1000 - 300, Date.now() / 1000);
    expect(samples(families, 'sextant_catalog_run_last_success_timestamp_seconds', { command: 'sync' }), 'no sync ran: none is claimed').to.have.length(0);
    expect(value(families, 'nodejs_eventloop_lag_seconds')).to.be.at.least(0);
    expect(value(families, 'process_resident_memory_bytes')).to.be.above(0);
  });

  it('is not on the public port', async () => {
    const response = await fetch(`http://127.0.0.1:${serve.port}/metrics`);
    expect(response.status).to.equal(404);
    expect(await response.text()).to.not.include('sextant_');
  });
});

describe('endpoint states for the metrics', function () {
  this.timeout(30_000);
  it('counts each scheduled endpoint once, by its newest check, and those never checked as unchecked', async () => {
    const h = await startHarness({ demo: true });
    try {
      const monitor = h.service.store.monitor;
      await monitor.scheduleEndpoints();
      const due = await monitor.claimDue('test', '9999', '9999', 1000);
      expect(due.length, 'the demo catalog has remote endpoints').to.be.at.least(2);
      const [first, second] = due;
      const check = (endpoint: typeof first, state: 'up' | 'down', checkedAt: string) => ({
        serverId: endpoint!.serverId, url: endpoint!.url, checkedAt, state, httpStatus: state === 'up' ? 200 : null, latencyMs: 10, protocolVersion: null, toolCount: null, error: null,
      });
      await monitor.recordCheck(check(first, 'down', '2026-01-01T00:00:00.000Z'), 10);
      await monitor.recordCheck(check(first, 'up', '2026-01-02T00:00:00.000Z'), 10);
      await monitor.recordCheck(check(second, 'down', '2026-01-01T00:00:00.000Z'), 10);
      expect(await monitor.endpointStates()).to.deep.equal({ up: 1, down: 1, unchecked: due.length - 2 });
    } finally {
      await h.close();
    }
  });
});
