/**
 * A SQLite file with damaged pages in the middle: the service starts on it, but /readyz says 503
 * with the reason, and the log says the file is damaged, where it used to report ready while
 * lookups that touched the damaged pages answered 500. A file damaged where the start reads is a
 * start error in one sentence.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, openSync, closeSync, readSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { ingest } from '../../src/ingest/ingest-service.js';
import { createStore } from '../../src/store/index.js';
import { freshSqliteFile, type TestDatabase } from '../support/database.js';
import { officialDocument } from '../support/generated-catalog.js';
import { startHarness, type Harness } from '../support/harness.js';

/** Overwrites `pages` whole pages in the middle of the SQLite file at `path` with bytes no page has. */
function damageMiddlePages(path: string, pages: number): void {
  const fd = openSync(path, 'r+');
  try {
    const header = Buffer.alloc(100);
    readSync(fd, header, 0, 100, 0);
    // The header's page size (bytes 16-17, big-endian; 1 means 65,536).
    const raw = header.readUInt16BE(16);
    const pageSize = raw === 1 ? 65_536 : raw;
    const count = Math.floor(statSync(path).size / pageSize);
    const garbage = Buffer.alloc(pageSize, 0xa5);
    const first = Math.floor(count / 2) - Math.floor(pages / 2);
    for (let page = first; page < first + pages; page += 1) writeSync(fd, garbage, 0, pageSize, page * pageSize);
  } finally {
    closeSync(fd);
  }
}

describe('a SQLite database file with damaged pages', function () {
  this.timeout(60_000);
  let dir: string;
  let h: Harness | undefined;
  const logs: Array<Record<string, unknown>> = [];

  before(async () => {
    // A catalog of some size, written and closed (its log folded into the file), then copied and damaged.
    const source = freshSqliteFile();
    const store = createStore(source.url);
    try {
      await store.migrate();
      await ingest(store, [{ file: 'harbour.json', text: officialDocument('harbour', 1500) }]);
    } finally {
      await store.close();
    }
    dir = mkdtempSync(join(tmpdir(), 'sextant-corrupt-'));
    const file = join(dir, 'catalog.sqlite');
    copyFileSync(source.url.slice('sqlite:'.length), file);
    await source.drop();
    damageMiddlePages(file, 8);
    const database: TestDatabase = { url: `sqlite:${file}`, storedText: async () => [], drop: async () => undefined };
    const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
    h = await startHarness({ demo: false, database, logger });
  });
  after(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is reported by /readyz as not ready, with the reason, instead of served as healthy', async () => {
    const ready = await h!.request('/readyz');
    expect(ready.status).to.equal(503);
    expect(ready.body).to.deep.include({ status: 'not_ready', checks: { database: 'ok', migrations: 'ok', integrity: 'corrupt' } });
    expect(ready.body.reason).to.match(/^The database file is damaged: the integrity check at start found (a problem|\d+ problems) \(the service's log says which\)\. Restore it from a backup\.$/);
  });

  it('is named in the log at start, with what the check found', async () => {
    const line = logs.find((entry) => entry.msg === 'the database file is damaged (SQLite quick_check): not ready; restore it from a backup');
    expect(line, JSON.stringify(logs)).to.not.equal(undefined);
    expect(line?.level).to.equal(50);
    expect(line?.problems).to.be.an('array').that.is.not.empty;
  });

  it('stops a start on a file that is no database with one sentence saying so', async () => {
    const file = join(dir, 'not-a-database.sqlite');
    writeFileSync(file, Buffer.alloc(8192, 0x5a));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
      env: { ...process.env, DATABASE_URL: `sqlite:${file}`, PORT: '0', DEMO_CATALOG: 'off', MONITOR_INTERVAL: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).to.equal(1);
    expect(stderr.trim()).to.equal('sextant: the database file is damaged (SQLITE_NOTADB: file is not a database); restore it from a backup');
  });
});
