/**
 * Which files of src/ one request passes through: the service on the demo catalog (SQLite, in a
 * temporary directory), a request of each kind sent once to warm it, then another of the same
 * kind with V8's call counts reset, and the files (and folders) in which a function ran for it.
 * The counted request asks what nothing asked before, so it goes down to the search and the store.
 * Beside each count, the files of its own: those a `GET /healthz` (the edge alone) does not pass.
 *
 *   npx tsx scripts/request-files.ts            one line a request, then its files
 *   npx tsx scripts/request-files.ts --count    one line a request
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeCoverage } from 'node:v8';
import { pino } from 'pino';
import { testServiceConfig } from '../test/support/service-config.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// V8 counts calls only when NODE_V8_COVERAGE is set as the process starts: run again with it.
if (!process.env.NODE_V8_COVERAGE) {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-coverage-'));
  const run = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env: { ...process.env, NODE_V8_COVERAGE: dir } });
  rmSync(dir, { recursive: true, force: true });
  process.exit(run.status ?? 1);
}

interface Probe {
  readonly label: string;
  /** Two requests of one kind: the first warms the code, the second is counted. */
  readonly warm: RequestInit & { readonly path: string };
  readonly counted: RequestInit & { readonly path: string };
}

const mcpCall = (q: string): RequestInit & { path: string } => ({
  path: '/mcp',
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_servers', arguments: { q } } }),
});

const probes = (servers: readonly string[]): Probe[] => [
  { label: 'REST search', warm: { path: '/api/v1/servers/search?q=weather' }, counted: { path: '/api/v1/servers/search?q=github' } },
  { label: 'MCP tools/call', warm: mcpCall('slack'), counted: mcpCall('postgres') },
  { label: '/v0.1/servers page', warm: { path: '/v0.1/servers?limit=30&search=file' }, counted: { path: '/v0.1/servers?limit=30&search=git' } },
  { label: 'web server page', warm: { path: `/servers/${encodeURIComponent(servers[0] ?? '')}` }, counted: { path: `/servers/${encodeURIComponent(servers[1] ?? '')}` } },
];

/** The src/ files in which some function ran since the counts were last reset. */
function filesRun(dir: string): string[] {
  const newest = readdirSync(dir).map((name) => join(dir, name)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!newest) return [];
  const { result } = JSON.parse(readFileSync(newest, 'utf8')) as { result: Array<{ url: string; functions: Array<{ ranges: Array<{ count: number }> }> }> };
  const files = result
    .filter((script) => script.url.startsWith(`file://${ROOT}src/`))
    .filter((script) => script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0))
    .map((script) => relative(ROOT, fileURLToPath(script.url)));
  return [...new Set(files)].sort();
}

const { createService } = await import('../src/compose.js');
const { loadDemoCatalogIfEmpty } = await import('../src/ingest/demo.js');
const dir = mkdtempSync(join(tmpdir(), 'sextant-request-files-'));
const service = await createService(testServiceConfig(`sqlite:${join(dir, 'catalog.sqlite')}`), pino({ level: 'silent' }));
await loadDemoCatalogIfEmpty(service.store);
await service.warmSearch();
const server = service.app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const send = async ({ path, ...init }: RequestInit & { path: string }): Promise<unknown> => {
  const res = await fetch(`${base}${path}`, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return text.startsWith('{') ? JSON.parse(text) : text;
};
try {
  const listed = (await send({ path: '/api/v1/servers/search?sort=a-z&limit=2' })) as { items: Array<{ id: string }> };
  // What the start leaves running (the index's snapshot is kept after the first searches) ends first.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const counted = async (probe: Probe): Promise<string[]> => {
    await send(probe.warm);
    takeCoverage();
    await send(probe.counted);
    takeCoverage();
    return filesRun(process.env.NODE_V8_COVERAGE ?? '');
  };
  const edge = new Set(await counted({ label: 'edge', warm: { path: '/healthz' }, counted: { path: '/healthz' } }));
  console.log(`GET /healthz (the edge): ${edge.size} files`);
  if (!process.argv.includes('--count')) for (const file of edge) console.log(`  ${file}`);
  for (const probe of probes(listed.items.map((item) => item.id))) {
    const files = await counted(probe);
    const own = files.filter((file) => !edge.has(file));
    const folders = new Set(own.map((file) => file.split('/').slice(0, -1).join('/')));
    console.log(`${probe.label}: ${files.length} files, ${own.length} beyond the edge's in ${folders.size} folders`);
    if (!process.argv.includes('--count')) for (const file of own) console.log(`  ${file}`);
  }
} finally {
  server.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
