/**
 * `sextant backup` and `sextant restore` on SQLite: a backup taken while the catalog is being
 * written restores to a file that passes SQLite's full integrity check and serves; a restore
 * refuses a damaged file or a file a `serve` holds, and changes nothing then. On PostgreSQL the
 * commands say which tools to use instead.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import sqlite3 from 'sqlite3';
import { BackupError, backupSqlite, restoreSqlite } from '../../src/store/backup.js';
import { sqliteFileOf } from '../../src/store/db.js';
import { holdServeLock } from '../../src/store/serve-lock.js';
import { freshSqliteFile, type TestDatabase } from '../support/database.js';
import { fixture, startHarness, type Harness } from '../support/harness.js';

/** Every row of `sql` on a read-only connection to `file`. */
function rows<T>(file: string, sql: string): Promise<T[]> {
  return new Promise((done, fail) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (opened) => {
      if (opened) return fail(opened);
      db.all(sql, (err, found) => db.close(() => (err ? fail(err) : done(found as T[]))));
    });
  });
}

const digest = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (err) {
    expect(err).to.be.instanceOf(BackupError);
    return (err as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('sextant backup and restore (SQLite)', function () {
  this.timeout(120_000);
  let source: TestDatabase;
  let restored: TestDatabase;
  let live: Harness;
  let backup: string;
  let writesDuringBackup = 0;

  before(async () => {
    source = freshSqliteFile();
    restored = freshSqliteFile();
    live = await startHarness({ database: source, demo: true, inputs: [fixture('official-small.json'), fixture('docker-small.json')] });
    backup = join(sqliteFileOf(restored.url) as string, '..', 'backup.sqlite');
    // Writes go on while the backup is taken: endpoint checks, and a source ingested again.
    const servers = (await live.request('/api/v1/servers/search?sort=a-z&limit=20')).body.items.map((item: { id: string }) => item.id);
    let writing = true;
    let backingUp = false;
    const writes = (async () => {
      for (let i = 0; writing; i += 1) {
        await live.service.store.monitor.recordCheck({ serverId: servers[i % servers.length], url: 'https://example.com/mcp', checkedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), state: 'up', httpStatus: 200, latencyMs: i, protocolVersion: '2025-11-25', toolCount: 1, error: null }, 5);
        if (backingUp) writesDuringBackup += 1;
      }
    })();
    const ingestAgain = (async () => {
      const { ingest } = await import('../../src/ingest/ingest-service.js');
      await ingest(live.service.store, [fixture('toolsdk-small.json')]);
    })();
    backingUp = true;
    await backupSqlite(source.url, backup);
    backingUp = false;
    await ingestAgain;
    writing = false;
    await writes;
  });
  after(async () => {
    await live?.close();
    await source?.drop();
    await restored?.drop();
  });

  it('takes a backup while the catalog is written, and the copy passes the full integrity check', async () => {
    expect(writesDuringBackup, 'writes committed while the backup ran').to.be.greaterThan(0);
    expect(await rows(backup, 'PRAGMA integrity_check')).to.deep.equal([{ integrity_check: 'ok' }]);
    expect(await rows(backup, 'PRAGMA foreign_key_check')).to.deep.equal([]);
    const [counts] = await rows<{ servers: number; versions: number }>(backup, 'SELECT (SELECT count(*) FROM servers) AS servers, (SELECT count(*) FROM registry_versions) AS versions');
    expect(counts?.servers).to.be.greaterThan(10);
    expect(counts?.versions).to.be.at.least(counts?.servers ?? 0);
  });

  it('refuses to write a backup over a file that exists', async () => {
    const before = digest(backup);
    expect(await refusal(backupSqlite(source.url, backup))).to.match(/exists: a backup writes a new file/);
    expect(digest(backup)).to.equal(before);
  });

  it('restores the backup into a catalog that serves it', async () => {
    const [inBackup] = await rows<{ servers: number }>(backup, 'SELECT count(*) AS servers FROM servers');
    const done = await restoreSqlite(restored.url, backup);
    expect(done.servers).to.equal(inBackup?.servers);
    const file = sqliteFileOf(restored.url) as string;
    expect(await rows(file, 'PRAGMA integrity_check')).to.deep.equal([{ integrity_check: 'ok' }]);
    const served = await startHarness({ database: restored, demo: false });
    try {
      const all = await served.request('/api/v1/servers/search?sort=a-z&limit=1');
      expect(all.status).to.equal(200);
      expect(all.body.total).to.equal(inBackup?.servers);
      const found = await served.request('/api/v1/servers/search?q=github');
      expect(found.body.items.length).to.be.greaterThan(0);
      const ready = await served.request('/readyz');
      expect(ready.body.checks.integrity).to.equal('ok');
    } finally {
      await served.close();
    }
  });

  it('refuses a damaged or foreign file, and changes nothing', async () => {
    const file = sqliteFileOf(restored.url) as string;
    const before = digest(file);
    const junk = join(file, '..', 'junk.sqlite');
    writeFileSync(junk, 'not a database at all, only text '.repeat(200));
    expect(await refusal(restoreSqlite(restored.url, junk))).to.match(/^Nothing was changed: .*not a Sextant catalog/);
    const damaged = join(file, '..', 'damaged.sqlite');
    const bytes = readFileSync(backup);
    // Pages in the middle overwritten: the header still reads as SQLite's.
    bytes.fill(0x5a, Math.floor(bytes.length / 2), Math.floor(bytes.length / 2) + 16384);
    writeFileSync(damaged, bytes);
    expect(await refusal(restoreSqlite(restored.url, damaged))).to.match(/^Nothing was changed: .*(damaged|not a Sextant catalog)/);
    expect(digest(file)).to.equal(before);
  });

  it('refuses while a serve holds the file, and changes nothing', async () => {
    const file = sqliteFileOf(restored.url) as string;
    const before = digest(file);
    const serving = await holdServeLock(restored.url);
    try {
      expect(serving.alone).to.equal(true);
      expect(await refusal(restoreSqlite(restored.url, backup))).to.match(/^Nothing was changed: a sextant serve runs on /);
    } finally {
      await serving.release();
    }
    expect(digest(file)).to.equal(before);
  });

  it('says on PostgreSQL which tools back it up, and exits 2', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'backup', join(sqliteFileOf(restored.url) as string, '..', 'pg.dump')], {
      env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/nothing', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).to.equal(2);
    expect(err).to.match(/pg_dump --format=custom/).and.match(/pg_restore/);
  });
});
