/**
 * What the store's SQLite adapter (src/store/sqlite-client.ts) relies on knex and sqlite3 to do.
 * Each test fails if a knex or sqlite3 upgrade changes one of those behaviours.
 */
import { existsSync } from 'node:fs';
import { expect } from 'chai';
import knexFactory from 'knex';
import sqlite3 from 'sqlite3';
import { dialectOf, openDatabase, openStatement, rowsOf, selectPrepared, type Db } from '../../src/store/db.js';
import { SqliteClient } from '../../src/store/sqlite-client.js';
import { freshDatabase, freshSqliteFile, TEST_DIALECT, type TestDatabase } from '../support/database.js';

interface Row {
  seq: number;
  name: string;
}

const ROWS: readonly Row[] = [1, 2, 3, 4, 5].map((seq) => ({ seq, name: `server-${seq} é ✓` }));

async function withRows(db: Db): Promise<void> {
  await db.schema.createTable('items', (table) => {
    table.integer('seq').primary();
    table.text('name');
  });
  await db('items').insert([...ROWS]);
}

/** Why a connection of `db`'s pool could not be closed, if one could not (tarn reports it as an event). */
function destroyFailures(db: Db): Error[] {
  const failures: Error[] = [];
  db.client.pool.on('destroyFail', (_id: number, _connection: unknown, err: Error) => failures.push(err));
  return failures;
}

const byPage = 'SELECT seq, name FROM items WHERE seq IN (?, ?) ORDER BY seq';

describe('SQLite through the store\'s knex client', () => {
  let file: TestDatabase;
  beforeEach(() => {
    file = freshSqliteFile();
  });
  afterEach(() => file.drop());

  it('knex builds our client for a sqlite: URL, on the class it builds for client sqlite3', async () => {
    const db = openDatabase(file.url);
    const plain = knexFactory({ client: 'sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
    try {
      expect(db.client).to.be.instanceOf(SqliteClient);
      expect(Object.getPrototypeOf(SqliteClient)).to.equal(plain.client.constructor);
      expect(db.client.dialect).to.equal('sqlite3');
      expect(dialectOf(db)).to.equal('sqlite');
      expect(db.client.destroyRawConnection).to.equal(SqliteClient.prototype.destroyRawConnection);
    } finally {
      await Promise.all([db.destroy(), plain.destroy()]);
    }
  });

  it('runs the pragmas on connect and keeps one connection: a second acquire waits for the release', async () => {
    const db = openDatabase(file.url);
    try {
      const first: unknown = await db.client.acquireConnection();
      expect(first).to.be.instanceOf(sqlite3.Database);
      let second: unknown = null;
      const waiting = db.client.acquireConnection().then((connection: unknown) => (second = connection));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(second, 'acquired while the only connection was out').to.equal(null);
      await db.client.releaseConnection(first);
      await waiting;
      expect(second).to.equal(first);
      await db.client.releaseConnection(second);
      expect(rowsOf<{ journal_mode: string }>(await db.raw('PRAGMA journal_mode'))[0]?.journal_mode).to.equal('wal');
    } finally {
      await db.destroy();
    }
  });

  it('a prepared read on sqlite::memory: returns its rows, again with other values', async () => {
    const db = openDatabase('sqlite::memory:');
    try {
      await withRows(db);
      expect(await selectPrepared<Row>(db, byPage, [1, 2])).to.deep.equal(ROWS.slice(0, 2));
      expect(await selectPrepared<Row>(db, byPage, [4, 5])).to.deep.equal(ROWS.slice(3, 5));
    } finally {
      await db.destroy();
    }
  });

  it('destroy finalizes the prepared statements, so the connection closes (its WAL file goes)', async () => {
    const db = openDatabase(file.url);
    const failures = destroyFailures(db);
    await withRows(db);
    // More distinct reads than the adapter keeps, so some are finalized to make room.
    for (let n = 0; n < 140; n += 1) {
      const rows = await selectPrepared<Row>(db, `SELECT seq, name FROM items WHERE seq = ? AND ${n} = ${n}`, [(n % 5) + 1]);
      expect(rows).to.deep.equal([ROWS[n % 5]]);
    }
    const wal = `${file.url.slice('sqlite:'.length)}-wal`;
    expect(existsSync(wal)).to.equal(true);
    await db.destroy();
    expect(failures.map(String)).to.deep.equal([]);
    expect(existsSync(wal), 'the connection was not closed').to.equal(false);
  });

  it("knex's own sqlite3 client cannot close a connection with a statement still prepared (why the adapter finalizes them)", async () => {
    const db = knexFactory({ client: 'sqlite3', connection: { filename: file.url.slice('sqlite:'.length) }, useNullAsDefault: true, log: { warn: () => undefined } });
    const failures = destroyFailures(db);
    const connection: sqlite3.Database = await db.client.acquireConnection();
    const statement = await new Promise<sqlite3.Statement>((resolve, reject) => {
      const made = connection.prepare('SELECT 1', (err) => (err ? reject(err) : resolve(made)));
    });
    db.client.releaseConnection(connection);
    await db.destroy();
    expect(failures.map(String).join('\n')).to.match(/unfinalized statements/);
    // Closed here instead, so the file can go.
    await new Promise((resolve) => statement.finalize(resolve));
    await new Promise((resolve) => connection.close(resolve));
  });

  it('knex closes connections through the client class it was given', async () => {
    const closed: unknown[] = [];
    class Recording extends SqliteClient {
      override async destroyRawConnection(connection: sqlite3.Database): Promise<void> {
        closed.push(connection);
        await super.destroyRawConnection(connection);
      }
    }
    const db = knexFactory({ client: Recording, connection: { filename: ':memory:' }, useNullAsDefault: true });
    const connection: unknown = await db.client.acquireConnection();
    db.client.releaseConnection(connection);
    await db.destroy();
    expect(closed).to.deep.equal([connection]);
  });

  it("inside a transaction, statements run on the transaction's connection and its writes are read back", async () => {
    const db = openDatabase(file.url);
    const failures = destroyFailures(db);
    try {
      await withRows(db);
      const outside: unknown = await db.client.acquireConnection();
      db.client.releaseConnection(outside);
      await db.transaction(async (trx) => {
        expect(trx.client).to.be.instanceOf(SqliteClient);
        expect(await trx.client.acquireConnection()).to.equal(outside);
        const insert = await openStatement(trx, 'INSERT INTO items (seq, name) VALUES (?, ?)');
        try {
          await insert.run([6, 'six']);
          await insert.run([7, null]);
        } finally {
          await insert.close();
        }
        expect(await selectPrepared<Row>(trx, byPage, [6, 7])).to.deep.equal([{ seq: 6, name: 'six' }, { seq: 7, name: null }]);
      });
      expect(await selectPrepared<Row>(db, byPage, [6, 7])).to.deep.equal([{ seq: 6, name: 'six' }, { seq: 7, name: null }]);
    } finally {
      await db.destroy();
    }
    expect(failures.map(String)).to.deep.equal([]);
  });

  it('a statement that does not prepare gives its connection back', async () => {
    const db = openDatabase(file.url);
    try {
      await withRows(db);
      let failed: unknown = null;
      await openStatement(db, 'INSERT INTO nowhere VALUES (?)').catch((err: unknown) => (failed = err));
      expect(String(failed)).to.match(/no such table/);
      await selectPrepared(db, 'SELECT * FROM nowhere', []).catch((err: unknown) => (failed = err));
      expect(String(failed)).to.match(/no such table/);
      expect(await selectPrepared<Row>(db, byPage, [1, 2])).to.deep.equal(ROWS.slice(0, 2));
    } finally {
      await db.destroy();
    }
  });
});

describe(`a prepared read on the suite's database (${TEST_DIALECT})`, () => {
  it('returns the rows db.raw returns for the same SQL and values', async () => {
    const database = await freshDatabase();
    const db = openDatabase(database.url);
    try {
      await withRows(db);
      for (const seqs of [[1, 2], [3, 5], [2, 9]]) {
        expect(await selectPrepared<Row>(db, byPage, seqs)).to.deep.equal(rowsOf<Row>(await db.raw(byPage, seqs)));
      }
      const insert = await openStatement(db, 'INSERT INTO items (seq, name) VALUES (?, ?)');
      await insert.run([8, 'eight']);
      await insert.close();
      expect(await selectPrepared<Row>(db, byPage, [8, 1])).to.deep.equal([ROWS[0], { seq: 8, name: 'eight' }]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
