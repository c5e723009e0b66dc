/**
 * The figures of issue 43's clean-failure items, through the `sextant` CLI as an operator runs it
 * (child processes, loopback only, a TMPDIR and databases of its own, removed at the end):
 *   spool:   a stop signal mid-ingest (while it reads, and while it writes): the spool's size when
 *            the signal was sent, the exit status, the first line on stderr, what was left in TMPDIR;
 *   corrupt: the real catalog (../shared/data) with 8 leaf pages of its servers table overwritten,
 *            served: /readyz, the start's log line, and every server's GET /api/v1/servers/{id}.
 * Usage: npx tsx scripts/fault-checks.ts [spool] [corrupt]   (both by default)
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sqlite3 from 'sqlite3';
import { officialDocument } from '../test/support/generated-catalog.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA = fileURLToPath(new URL('../../shared/data/', import.meta.url));
const REAL = ['official-registry-v0.1-snapshot-2025-12.json', 'docker-mcp-catalog-servers.json', 'toolsdk-mcp-registry-servers.json'];

interface Child {
  readonly kill: (signal: NodeJS.Signals) => void;
  readonly done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function sextant(args: readonly string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/tsx-in-workers.mjs', 'src/main.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { kill: (signal) => child.kill(signal), done: once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr })) };
}

async function until(probe: () => boolean, ms = 120_000): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) if (probe()) return true;
  return false;
}

/** Bytes of ingest's spools under `tmp` (tsx keeps a cache there too, which is not counted). */
function spooled(tmp: string): number {
  let bytes = 0;
  for (const dir of readdirSync(tmp).filter((name) => name.startsWith('sextant-'))) {
    for (const file of readdirSync(join(tmp, dir))) bytes += statSync(join(tmp, dir, file), { throwIfNoEntry: false })?.size ?? 0;
  }
  return bytes;
}

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

async function spoolCheck(work: string): Promise<void> {
  const inputs = ['harbour', 'almanac'].map((prefix) => {
    const path = join(work, `${prefix}.json`);
    writeFileSync(path, officialDocument(prefix, 6_000));
    return path;
  });
  console.log(`spool: two inputs of ${mb(statSync(inputs[0] as string).size)} each (6,000 servers), SQLite`);
  for (const [phase, signal] of [['read', 'SIGTERM'], ['write', 'SIGTERM'], ['write', 'SIGINT']] as const) {
    const tmp = mkdtempSync(join(work, 'tmp-'));
    const file = join(mkdtempSync(join(work, 'db-')), 'catalog.sqlite');
    const run = sextant(['ingest', ...inputs], { TMPDIR: tmp, DATABASE_URL: `sqlite:${file}` });
    const reached = await until(() => spooled(tmp) > 0 && (phase === 'read' || existsSync(`${file}-journal`)));
    const atSignal = spooled(tmp);
    run.kill(signal);
    const { code, stderr } = await run.done;
    console.log(`  ${signal} while it ${phase}s${reached ? '' : ' (phase not seen)'}: spool ${mb(atSignal)} when sent; exit ${code}; stderr "${stderr.trim().split('\n')[0] ?? ''}"; left in TMPDIR ${mb(spooled(tmp))}`);
  }
}

/** Leaf pages of `table` in the SQLite file (SQLite's dbstat table), in file order. */
function leafPages(file: string, table: string): Promise<{ pages: number[]; pageSize: number }> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
    db.all("SELECT pageno, pgsize FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY pageno", [table], (err, rows: Array<{ pageno: number; pgsize: number }>) => {
      db.close();
      if (err) reject(err);
      else resolve({ pages: rows.map((row) => row.pageno), pageSize: rows[0]?.pgsize ?? 4096 });
    });
  });
}

/** Overwrites `count` leaf pages of `table`, spread evenly over its pages (pages are numbered from 1). */
async function damageTable(file: string, table: string, count: number): Promise<number> {
  const { pages, pageSize } = await leafPages(file, table);
  const fd = openSync(file, 'r+');
  try {
    for (let n = 0; n < count; n += 1) {
      const page = pages[Math.floor(((n + 0.5) * pages.length) / count)] as number;
      writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
    }
  } finally {
    closeSync(fd);
  }
  return pages.length;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function serverIds(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
    db.all('SELECT id FROM servers ORDER BY id', (err, rows: Array<{ id: string }>) => {
      db.close();
      if (err) reject(err);
      else resolve(rows.map((row) => row.id));
    });
  });
}

async function corruptCheck(work: string): Promise<void> {
  if (!REAL.every((name) => existsSync(join(DATA, name)))) {
    console.log(`corrupt: skipped, ${DATA} has not the real data`);
    return;
  }
  const healthy = join(work, 'healthy.sqlite');
  const ingested = await sextant(['ingest', ...REAL.map((name) => join(DATA, name))], { DATABASE_URL: `sqlite:${healthy}` }).done;
  if (ingested.code !== 0) throw new Error(`ingest failed: ${ingested.stderr}`);
  const ids = await serverIds(healthy);
  const file = join(work, 'damaged.sqlite');
  copyFileSync(healthy, file);
  const leaves = await damageTable(file, 'servers', 8);
  console.log(`corrupt: the real catalog (${ids.length} servers, ${mb(statSync(file).size)}), 8 of the ${leaves} leaf pages of its servers table overwritten`);
  const port = await freePort();
  const server = sextant(['serve'], { DATABASE_URL: `sqlite:${file}`, PORT: String(port), DEMO_CATALOG: 'off', MONITOR_INTERVAL: '0', DISCOVERY_RATE_LIMIT: '0', METRICS_PORT: '0', LOG_LEVEL: 'info' });
  const base = `http://127.0.0.1:${port}`;
  try {
    let up = false;
    for (const deadline = Date.now() + 120_000; !up && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      up = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    }
    if (!up) {
      console.log('  the service did not start');
      return;
    }
    const ready = await fetch(`${base}/readyz`);
    console.log(`  /readyz: ${ready.status} ${await ready.text()}`);
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < ids.length) {
        const id = ids[next++] as string;
        const response = await fetch(`${base}/api/v1/servers/${encodeURIComponent(id)}`);
        await response.arrayBuffer();
        const status = response.status;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }));
    console.log(`  GET /api/v1/servers/{id} for every server: ${[...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${n} × ${status}`).join(', ')}`);
  } finally {
    server.kill('SIGTERM');
    const { code, stdout, stderr } = await server.done;
    if (stderr.trim() !== '') console.log(`  the service exited ${code}; stderr: ${stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
    const damaged = stdout.split('\n').filter((line) => /damaged|integrity/.test(line));
    console.log(`  log lines about the file: ${damaged.length === 0 ? 'none' : damaged.map((line) => line.slice(0, 240)).join('\n    ')}`);
  }
}

const parts = process.argv.slice(2);
const work = mkdtempSync(join(tmpdir(), 'sextant-fault-checks-'));
try {
  if (parts.length === 0 || parts.includes('spool')) await spoolCheck(work);
  if (parts.length === 0 || parts.includes('corrupt')) await corruptCheck(work);
} finally {
  rmSync(work, { recursive: true, force: true });
}
