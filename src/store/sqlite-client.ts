/**
 * The store's SQLite client for knex: knex's own sqlite3 client (the class `client: 'sqlite3'`
 * names), handed to knex as the `client:` class (its supported way to bring a dialect), with the
 * prepared statements that knex does not offer. Through knex, sqlite3 prepares, runs and
 * finalizes a statement per query, and knex's formatting and queueing around it cost more than
 * a small read itself; here a read is prepared once per connection and run again and again.
 * test/integration/sqlite-client.test.ts fails if knex stops behaving as this class assumes.
 */
import { createRequire } from 'node:module';
import type { Knex } from 'knex';
import type { Database, Statement } from 'sqlite3';

/**
 * knex 3's SQLite3 client class. knex exports only its base `Client`, so this one is loaded from
 * its file (the test checks it is the class `client: 'sqlite3'` builds).
 */
const KnexSqlite3Client: typeof Knex.Client = createRequire(import.meta.url)('knex/lib/dialects/sqlite3/index.js');

/** Statements kept per connection at most (the oldest is finalized to make room). */
const MAX_PREPARED = 128;

/** A value a prepared statement binds. */
type Binding = string | number | null;

/** A write statement prepared once and run with one set of bindings after another. */
export interface WriteStatement {
  run(bindings: readonly Binding[]): Promise<void>;
  /** Finalizes the statement and gives its connection back. */
  close(): Promise<void>;
}

/** knex's SQLite3 client, with statements prepared per connection and finalized before it closes. */
export class SqliteClient extends KnexSqlite3Client {
  /**
   * Statements prepared on each connection, by SQL text, oldest first. knex builds a
   * transaction's client from this class's prototype without running the constructor, so a
   * transaction's client has none (its reads prepare and finalize each time).
   */
  private readonly prepared: WeakMap<Database, Map<string, Statement>> | undefined = new WeakMap();

  /** SQLite will not close a connection that still has prepared statements: finalize them first. */
  override async destroyRawConnection(connection: Database): Promise<void> {
    const statements = this.prepared?.get(connection);
    this.prepared?.delete(connection);
    for (const statement of statements?.values() ?? []) await finalize(statement);
    await super.destroyRawConnection(connection);
  }

  /** The rows of `sql` with `bindings`, through a statement prepared once per connection. */
  async selectPrepared<T>(sql: string, bindings: readonly Binding[]): Promise<T[]> {
    const connection: Database = await this.acquireConnection();
    try {
      const statements = this.statementsOf(connection);
      if (!statements) return await this.selectOnce<T>(connection, sql, bindings);
      const statement = statements.get(sql) ?? (await this.prepareKept(statements, connection, sql));
      return await all<T>(statement, bindings);
    } finally {
      this.releaseConnection(connection);
    }
  }

  /** Prepares `sql` on a connection (a transaction's own, inside one), held until `close`. */
  async openStatement(sql: string): Promise<WriteStatement> {
    const connection: Database = await this.acquireConnection();
    let statement: Statement;
    try {
      statement = await prepare(connection, sql);
    } catch (err) {
      this.releaseConnection(connection);
      throw err;
    }
    return {
      run: (bindings) => new Promise<void>((resolve, reject) => statement.run(bindings, (err) => (err ? reject(err) : resolve()))),
      close: async () => {
        await finalize(statement);
        this.releaseConnection(connection);
      },
    };
  }

  private statementsOf(connection: Database): Map<string, Statement> | undefined {
    if (!this.prepared) return undefined;
    let statements = this.prepared.get(connection);
    if (!statements) this.prepared.set(connection, (statements = new Map()));
    return statements;
  }

  private async prepareKept(statements: Map<string, Statement>, connection: Database, sql: string): Promise<Statement> {
    const statement = await prepare(connection, sql);
    if (statements.size >= MAX_PREPARED) {
      const [oldest] = statements;
      if (oldest) {
        statements.delete(oldest[0]);
        await finalize(oldest[1]);
      }
    }
    statements.set(sql, statement);
    return statement;
  }

  private async selectOnce<T>(connection: Database, sql: string, bindings: readonly Binding[]): Promise<T[]> {
    const statement = await prepare(connection, sql);
    try {
      return await all<T>(statement, bindings);
    } finally {
      await finalize(statement);
    }
  }
}

function prepare(connection: Database, sql: string): Promise<Statement> {
  return new Promise<Statement>((resolve, reject) => {
    const made = connection.prepare(sql, (err) => (err ? reject(err) : resolve(made)));
  });
}

function all<T>(statement: Statement, bindings: readonly Binding[]): Promise<T[]> {
  return new Promise<T[]>((resolve, reject) => statement.all<T>(bindings, (err, rows) => (err ? reject(err) : resolve(rows))));
}

function finalize(statement: Statement): Promise<void> {
  // A statement that cannot be finalized is already gone: nothing to wait for.
  return new Promise((resolve) => statement.finalize(() => resolve()));
}
