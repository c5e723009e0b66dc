/**
 * `sextant ingest` as an operator runs it, as a child process, when things go wrong: a stop signal
 * mid-run, an input that fails, two first runs at once on a fresh SQLite file, the database lost
 * mid-run. Each time the run says so in one sentence, changes nothing, and leaves no spool in its
 * TMPDIR (a folder of the test's own).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { createStore } from '../../src/store/index.js';
import { startFixture } from '../support/fixture-servers.js';
import { officialDocument } from '../support/generated-catalog.js';
import { freshDatabase, freshSqliteFile, TEST_DIALECT, withClient, type TestDatabase } from '../support/database.js';

/** What a finished `sextant` run left. */
interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A `sextant` child process (the launcher, src/main.ts, as the `sextant` command runs it). */
function sextant(args: readonly string[], env: Record<string, string>): { readonly pid: number; kill(signal: NodeJS.Signals): void; readonly done: Promise<Run> } {
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/tsx-in-workers.mjs', 'src/main.ts', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = once(child, 'exit').then(([code]) => ({ code: code as number | null, stdout, stderr }));
  return { pid: child.pid ?? 0, kill: (signal) => child.kill(signal), done };
}

/** Polls `probe` every 20 ms until it holds or `ms` pass; whether it held. */
async function eventually(probe: () => boolean | Promise<boolean>, ms = 60_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

/** Ingest's spools under `tmp` (tsx, which runs the CLI from source here, keeps a cache there too). */
function spools(tmp: string): string[] {
  return readdirSync(tmp).filter((name) => name.startsWith('sextant-'));
}

/** The files of ingest's spools under `tmp`, with their sizes. */
function spoolFiles(tmp: string): Array<{ path: string; bytes: number }> {
  return spools(tmp)
    .flatMap((dir) => (statSync(join(tmp, dir), { throwIfNoEntry: false })?.isDirectory() ? readdirSync(join(tmp, dir)).map((name) => join(tmp, dir, name)) : []))
    .map((path) => ({ path, bytes: statSync(path, { throwIfNoEntry: false })?.size ?? 0 }));
}

async function serversIn(url: string): Promise<number> {
  const store = createStore(url);
  try {
    return await store.catalog.countServers();
  } finally {
    await store.close();
  }
}

describe('sextant ingest under faults (child processes)', function () {
  this.timeout(120_000);
  let work: string;
  let inputs: string[];

  before(() => {
    work = mkdtempSync(join(tmpdir(), 'sextant-faults-'));
    // Two inputs past the size from which ingest reads on worker threads (read-inputs.ts).
    inputs = ['harbour', 'almanac'].map((prefix) => {
      const path = join(work, `${prefix}.json`);
      writeFileSync(path, officialDocument(prefix, 6_000));
      return path;
    });
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  /** A TMPDIR of the test's own, for one run. */
  const freshTmp = (): string => mkdtempSync(join(work, 'tmp-'));

  for (const { signal, phase, exitCode } of [
    { signal: 'SIGTERM', phase: 'read', exitCode: 143 },
    { signal: 'SIGINT', phase: 'write', exitCode: 130 },
  ] as const) {
    it(`stops on ${signal} while it ${phase}s: exits ${exitCode}, says nothing was changed, changes nothing and leaves no spool`, async () => {
      const tmp = freshTmp();
      const database = freshSqliteFile();
      const file = database.url.slice('sqlite:'.length);
      try {
        const run = sextant(['ingest', ...inputs], { TMPDIR: tmp, DATABASE_URL: database.url, DEMO_CATALOG: 'off' });
        // Reading: the spool holds records. Writing: a first load writes with a rollback journal (src/store/first-load-journal.ts).
        const spooling = (): boolean => spoolFiles(tmp).some((f) => f.bytes > 0);
        const midRun = phase === 'read' ? spooling : () => spooling() && existsSync(`${file}-journal`);
        expect(await eventually(midRun), `the run reached its ${phase} phase`).to.equal(true);
        const spooled = spoolFiles(tmp).reduce((sum, f) => sum + f.bytes, 0);
        expect(spooled, 'bytes spooled when the signal was sent').to.be.greaterThan(0);
        run.kill(signal);
        const { code, stderr } = await run.done;
        expect(code, stderr).to.equal(exitCode);
        expect(stderr.trim()).to.equal(`ingest stopped by ${signal}, nothing was changed`);
        expect(spools(tmp), 'left in TMPDIR').to.deep.equal([]);
        expect(await serversIn(database.url)).to.equal(0);
      } finally {
        await database.drop();
      }
    });
  }

  it('stops sync on SIGTERM between pages: exits 143, says nothing was changed, and leaves nothing in TMPDIR', async () => {
    // An upstream on loopback whose pages come slowly and never end.
    const entries = (JSON.parse(officialDocument('upstream', 50)) as { servers: unknown[] }).servers;
    let pages = 0;
    const upstream = await startFixture((req, res) => {
      pages += 1;
      const start = Number(new URL(req.url ?? '/', 'http://fixture').searchParams.get('cursor') ?? 0);
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ servers: entries, metadata: { count: entries.length, nextCursor: String(start + 1) } })), 100);
    });
    const tmp = freshTmp();
    const database = freshSqliteFile();
    try {
      const run = sextant(['sync', '--upstream', upstream.url], { TMPDIR: tmp, DATABASE_URL: database.url, NET_ALLOW_PRIVATE: '127.0.0.1/32' });
      expect(await eventually(() => pages >= 3 && spools(tmp).length > 0), 'pages pulled into a file in TMPDIR').to.equal(true);
      run.kill('SIGTERM');
      const { code, stderr } = await run.done;
      expect(code, stderr).to.equal(143);
      expect(stderr.trim()).to.equal('sync stopped by SIGTERM, nothing was changed');
      expect(spools(tmp), 'left in TMPDIR').to.deep.equal([]);
      expect(await serversIn(database.url)).to.equal(0);
    } finally {
      await upstream.close();
      await database.drop();
    }
  });

  it('runs first ingests started together on one fresh SQLite file one after another: every one succeeds', async () => {
    const database = freshSqliteFile();
    try {
      // Several, so that their migrations overlap whatever each one's start-up costs.
      const runs = await Promise.all(Array.from({ length: 4 }, () => sextant(['ingest', 'test/fixtures/official-small.json'], { DATABASE_URL: database.url }).done));
      for (const run of runs) expect(run.code, run.stderr).to.equal(0);
      const added = runs.map((run) => /(\d+) servers added/.exec(run.stdout)?.[1]).sort();
      expect(added, runs.map((run) => run.stdout).join('')).to.deep.equal(['0', '0', '0', '4']);
      expect(await serversIn(database.url)).to.equal(4);
    } finally {
      await database.drop();
    }
  });

  it(`migrates a fresh ${TEST_DIALECT === 'postgres' ? 'PostgreSQL schema' : 'SQLite file'} from four stores at once: they queue, and every one succeeds`, async () => {
    for (let round = 0; round < 3; round += 1) {
      const database = await freshDatabase();
      const stores = Array.from({ length: 4 }, () => createStore(database.url));
      try {
        const results = await Promise.allSettled(stores.map((store) => store.migrate()));
        expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).to.deep.equal(['ok', 'ok', 'ok', 'ok']);
        for (const store of stores) expect(await store.check()).to.deep.equal({ database: 'ok', migrations: 'ok' });
      } finally {
        await Promise.all(stores.map((store) => store.close()));
        await database.drop();
      }
    }
  });

  it(`says in one sentence that nothing was changed when PostgreSQL ends its connection mid-run${TEST_DIALECT === 'postgres' ? '' : ' (skipped: npm run test:pg runs it)'}`, async function () {
    if (TEST_DIALECT !== 'postgres') this.skip();
    const database: TestDatabase = await freshDatabase();
    const tmp = freshTmp();
    // Names the run's connections, so the test can end them as an administrator would (or a restart).
    const application = `sextant-fault-${process.pid}`;
    const url = `${database.url}${database.url.includes('?') ? '&' : '?'}application_name=${application}`;
    try {
      const first = await sextant(['ingest', 'test/fixtures/official-small.json'], { DATABASE_URL: url }).done;
      expect(first.code, first.stderr).to.equal(0);
      const run = sextant(['ingest', ...inputs], { TMPDIR: tmp, DATABASE_URL: url });
      // The run's write transaction has begun: its backend holds a transaction id, and has for a
      // while (a short write before it, committed at once, is not the one to end).
      const writing = async (): Promise<boolean> =>
        withClient(async (client) => (await client.query("SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND backend_xid IS NOT NULL AND now() - xact_start > interval '300 milliseconds'", [application])).rows.length > 0);
      expect(await eventually(writing), 'the run began writing').to.equal(true);
      await withClient((client) => client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [application]));
      const { code, stderr } = await run.done;
      expect(code).to.equal(1);
      expect(stderr.trim().split('\n'), stderr).to.have.length(1);
      expect(stderr.trim()).to.match(/^ingest failed, nothing was changed: the database failed \(.+\)$/);
      expect(await serversIn(database.url)).to.equal(4);
      expect(spools(tmp), 'left in TMPDIR').to.deep.equal([]);
    } finally {
      await database.drop();
    }
  });

  it('leaves no spool after a run that ends normally or fails on its input', async () => {
    const tmp = freshTmp();
    const database = freshSqliteFile();
    const broken = join(work, 'broken.json');
    writeFileSync(broken, '{"servers": [{"server": {"name": "io.github.x/y", "description": "cut sh');
    try {
      const ok = await sextant(['ingest', 'test/fixtures/official-small.json'], { TMPDIR: tmp, DATABASE_URL: database.url }).done;
      expect(ok.code, ok.stderr).to.equal(0);
      expect(ok.stdout).to.match(/^ingested 4 records from official: 4 servers added/);
      const failed = await sextant(['ingest', 'test/fixtures/docker-small.json', broken], { TMPDIR: tmp, DATABASE_URL: database.url }).done;
      expect(failed.code).to.equal(1);
      expect(failed.stderr.trim()).to.match(/^ingest failed, nothing was changed: \/\S*\/broken\.json: record document: not valid JSON/);
      expect(spools(tmp), 'left in TMPDIR').to.deep.equal([]);
      expect(await serversIn(database.url)).to.equal(4);
    } finally {
      await database.drop();
    }
  });
});
