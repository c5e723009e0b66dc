/**
 * Multi-row INSERT statements as large as the database takes, for the catalog writer's bulk
 * writes. Rows are value arrays in the order of `columns`; the SQL is written once per statement
 * size instead of being compiled by knex's builder from one object per row.
 */
import type { Knex } from 'knex';
import { openStatement, type WriteStatement } from './db.js';

/**
 * Bound values per statement: SQLite's limit (SQLITE_MAX_VARIABLE_NUMBER, 32766 since 3.32);
 * PostgreSQL takes up to 65535.
 */
const MAX_BINDINGS = 32_766;

/** A column's value as the writer stores it: text (JSON included), a number, or NULL. */
export type Value = string | number | null | undefined;
export type Row = readonly Value[];

export interface BulkInsert {
  readonly table: string;
  readonly columns: readonly string[];
  /** Written after VALUES: an ON CONFLICT clause. */
  readonly onConflict?: string;
}

/**
 * Inserts `rows` in as few statements as the binding limit allows, one after another. Rows are
 * taken from the iterable one statement at a time, so a lazy one is never all in memory.
 */
export async function insertMany(trx: Knex.Transaction, insert: BulkInsert, rows: Iterable<Row>): Promise<void> {
  const width = insert.columns.length;
  const perStatement = Math.floor(MAX_BINDINGS / width);
  const head = `INSERT INTO ${quote(insert.table)} (${insert.columns.map(quote).join(', ')}) VALUES `;
  const tuple = `(${new Array(width).fill('?').join(', ')})`;
  const tail = insert.onConflict === undefined ? '' : ` ${insert.onConflict}`;
  const sqlOf = (count: number): string => `${head}${new Array(count).fill(tuple).join(', ')}${tail}`;
  let bindings: Array<string | number | null> = [];
  let count = 0;
  // Full statements all have the same SQL: prepared once, on first use. The driver runs one
  // statement's calls in order, so the next run is handed over (its values copied) while the
  // last one is still being written; at most two are in flight.
  let full: WriteStatement | null = null;
  const inFlight: Array<Promise<void>> = [];
  try {
    for (const row of rows) {
      if (row.length !== width) throw new Error(`${insert.table}: a row of ${row.length} values for ${width} columns`);
      // knex's builder writes an undefined value as NULL (useNullAsDefault): so does this.
      for (const value of row) bindings.push(value ?? null);
      count += 1;
      if (count === perStatement) {
        full ??= await openStatement(trx, sqlOf(perStatement));
        const run = full.run(bindings);
        // Awaited below, or settled in `finally` when an earlier one failed.
        run.catch(() => undefined);
        inFlight.push(run);
        bindings = [];
        count = 0;
        if (inFlight.length > 1) await inFlight.shift();
      }
    }
    for (let run = inFlight.shift(); run; run = inFlight.shift()) await run;
  } finally {
    await Promise.allSettled(inFlight);
    await full?.close();
  }
  if (count > 0) {
    const last = await openStatement(trx, sqlOf(count));
    try {
      await last.run(bindings);
    } finally {
      await last.close();
    }
  }
}

/** `ON CONFLICT (keys) DO UPDATE` every other inserted column: knex's `.onConflict(keys).merge()`. */
export function mergeOn(keys: readonly string[], columns: readonly string[]): string {
  const updates = columns.map((column) => `${quote(column)} = excluded.${quote(column)}`);
  return `ON CONFLICT (${keys.map(quote).join(', ')}) DO UPDATE SET ${updates.join(', ')}`;
}

/** Identifiers here are the store's own table and column names; quoted as both databases quote. */
function quote(identifier: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(identifier)) throw new Error(`not a plain identifier: ${identifier}`);
  return `"${identifier}"`;
}
