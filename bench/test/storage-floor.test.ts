/** The bench's storage floor (src/storage-floor.ts): a faithful copy of an ingested catalog, timed. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import sqlite3 from 'sqlite3';
import { ingest } from '../../src/ingest/ingest-service.js';
import { createStore } from '../../src/store/index.js';
import { measureHandoverFloor, measureStorageFloor } from '../src/storage-floor.js';
import { fixture } from '../../test/support/harness.js';

function query<T>(file: string, sql: string): Promise<T[]> {
  const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
  return new Promise<T[]>((resolve, reject) => db.all<T>(sql, (err, rows) => (err ? reject(err) : resolve(rows)))).finally(
    () => new Promise<void>((resolve) => db.close(() => resolve())),
  );
}

/**
 * The schema, every table's row count (full-text shadow tables included, but for the segments of
 * the full-text indexes, `_data` and `_idx`, when `segments` is false: written in several
 * statements, the same index is kept in more segments), servers and tools in full, a full-text
 * query and the full-text settings.
 */
async function contentOf(file: string, segments = true): Promise<unknown> {
  const schema = await query<{ type: string; name: string; sql: string | null }>(file, "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name");
  const counts: Record<string, number> = {};
  for (const { name } of schema.filter((s) => s.type === 'table' && (segments || !/_fts_(data|idx)$/.test(s.name)))) counts[name] = (await query<{ n: number }>(file, `SELECT count(*) AS n FROM "${name}"`))[0]?.n ?? -1;
  return {
    schema,
    counts,
    servers: await query(file, 'SELECT * FROM servers ORDER BY seq'),
    tools: await query(file, 'SELECT * FROM tools ORDER BY seq'),
    matches: await query(file, "SELECT rowid FROM tools_fts WHERE tools_fts MATCH 'search OR file' ORDER BY rank, rowid"),
    serverMatches: await query(file, "SELECT rowid FROM servers_fts WHERE servers_fts MATCH 'git* OR file' ORDER BY rank, rowid"),
    settings: await query(file, 'SELECT * FROM servers_fts_config UNION ALL SELECT * FROM tools_fts_config'),
  };
}

describe('bench storage floor', function () {
  this.timeout(60_000);
  let dir: string;
  let catalog: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sextant-floor-'));
    catalog = join(dir, 'catalog.sqlite');
    const store = createStore(`sqlite:${catalog}`);
    try {
      await store.migrate();
      await ingest(store, ['official-small.json', 'docker-small.json', 'toolsdk-small.json'].map(fixture));
    } finally {
      await store.close();
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('copies every table, index and full-text setting of an ingested catalog, and times each step', async () => {
    const copy = join(dir, 'copy.sqlite');
    const floor = await measureStorageFloor(catalog, copy, 7);
    expect(floor.error).to.equal(null);
    expect(floor.ok).to.equal(true);
    expect(floor.seconds).to.be.greaterThan(0);
    expect(floor.serversPerSecond).to.equal(Math.round(7 / floor.seconds));
    expect(floor.steps).to.include.keys('servers', 'tools', 'sources', 'servers_fts', 'tools_fts', 'indexes', 'commit');
    const original = await contentOf(catalog);
    expect((original as { tools: unknown[] }).tools).to.not.be.empty;
    expect((original as { matches: unknown[] }).matches).to.not.be.empty;
    expect(await contentOf(copy)).to.deep.equal(original);
  });

  it('hands the same rows to SQLite from JavaScript, a step at a time, and times each table', async () => {
    const copy = join(dir, 'handover.sqlite');
    // Three rows a step: every table of more takes several reads and hand-overs.
    const floor = await measureHandoverFloor(catalog, copy, 7, 3);
    expect(floor.error).to.equal(null);
    expect(floor.ok).to.equal(true);
    expect(floor.seconds).to.be.greaterThan(0);
    expect(floor.serversPerSecond).to.equal(Math.round(7 / floor.seconds));
    expect(floor.steps).to.include.keys('servers', 'tools', 'sources', 'servers_fts', 'tools_fts', 'indexes', 'commit');
    const original = await contentOf(catalog, false);
    expect((original as { counts: Record<string, number> }).counts.tools).to.be.greaterThan(3);
    expect((original as { serverMatches: unknown[] }).serverMatches).to.not.be.empty;
    expect(await contentOf(copy, false)).to.deep.equal(original);
  });

  it('reports a database without a catalog, or no database, as a failed measurement and creates nothing there', async () => {
    const empty = join(dir, 'empty.sqlite');
    const db = new sqlite3.Database(empty);
    await new Promise<void>((resolve, reject) => db.exec('CREATE TABLE other (x)', (err) => (err ? reject(err) : resolve())));
    await new Promise<void>((resolve) => db.close(() => resolve()));
    const noCatalog = await measureStorageFloor(empty, join(dir, 'copy-2.sqlite'), 7);
    expect(noCatalog.ok).to.equal(false);
    expect(noCatalog.error).to.match(/holds no catalog/);
    expect(noCatalog.seconds).to.be.NaN;

    const missing = join(dir, 'missing.sqlite');
    const none = await measureStorageFloor(missing, join(dir, 'copy-3.sqlite'), 7);
    expect(none.ok).to.equal(false);
    expect(none.error).to.match(/unable to open/);
    expect(existsSync(missing)).to.equal(false);
    const handedNone = await measureHandoverFloor(missing, join(dir, 'copy-4.sqlite'), 7);
    expect(handedNone.ok).to.equal(false);
    expect(handedNone.error).to.match(/unable to open/);
    expect(existsSync(missing)).to.equal(false);
    const handedNoCatalog = await measureHandoverFloor(empty, join(dir, 'copy-5.sqlite'), 7);
    expect(handedNoCatalog.error).to.match(/holds no catalog/);
  });
});
