/**
 * The full-text tables hold the text the catalog writer now writes (src/catalog/search-text.ts):
 * names split into their words beside the name as written, CJK runs as overlapping pairs, and a
 * new `schema` column of `tools_fts` with each tool's input schema's property names and
 * descriptions. Every row is rewritten from its stored text (the transformation applies to the
 * text the earlier writer wrote, column by column) and each tool's stored input schema; the
 * content generation moves on, so what was built from the old text is built again. This
 * migration uses the writer's own functions: its job is to make stored rows equal to what the
 * writer writes today.
 */
import type { Knex } from 'knex';
import { FTS_COLUMNS } from '../fts.js';
import { serverSearchRow, toolSearchRow } from '../../catalog/search-text.js';
import { dialectOf } from '../dialect.js';

/** Rows rewritten per statement. */
const CHUNK = 1_000;

type ServerText = { rowid: number; name: string; title: string; description: string; categories: string; tools: string };
type ToolText = { rowid: number; name: string; title: string; description: string; server: string; input_schema: string | null };

const toolText = (table: string): string => `SELECT f.rowid AS rowid, f.name, f.title, f.description, f.server, t.input_schema FROM ${table} f LEFT JOIN tools t ON t.seq = f.rowid`;

function schemaOf(text: string | null): unknown {
  try {
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/** Each chunk of a table's rows in rowid order. */
async function eachChunk<Row extends { rowid: number }>(knex: Knex, sql: string, visit: (rows: Row[]) => Promise<void>): Promise<void> {
  for (let after = -1; ;) {
    const rows = (await knex.raw(`${sql} WHERE f.rowid > ? ORDER BY f.rowid LIMIT ${CHUNK}`, [after])) as Row[] | { rows: Row[] };
    const list = Array.isArray(rows) ? rows : rows.rows;
    if (list.length === 0) return;
    await visit(list);
    after = Number((list[list.length - 1] as Row).rowid);
  }
}

const serverRow = (r: ServerText) => [r.rowid, ...serverSearchRow(r.name, r.title, r.description, r.categories, r.tools)];
const toolRow = (r: ToolText) => [r.rowid, ...toolSearchRow(r.name, r.title, r.description, r.server, schemaOf(r.input_schema))];

/** Inserts `rows` (rowid first, then `columns`) into `table`. */
async function insertRows(knex: Knex, table: string, columns: readonly string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): Promise<void> {
  if (rows.length === 0) return;
  const one = `(${['rowid', ...columns].map(() => '?').join(', ')})`;
  await knex.raw(`INSERT INTO ${table} (rowid, ${columns.join(', ')}) VALUES ${rows.map(() => one).join(', ')}`, rows.flat() as Knex.RawBinding[]);
}

async function rebuildSqlite(knex: Knex): Promise<void> {
  const tokenize = 'tokenize = "unicode61 remove_diacritics 2"';
  for (const table of ['servers_fts', 'tools_fts'] as const) {
    const columns = FTS_COLUMNS[table];
    await knex.raw(`DROP TABLE IF EXISTS ${table}_vocab`);
    await knex.raw(`ALTER TABLE ${table} RENAME TO ${table}_old`);
    await knex.raw(`CREATE VIRTUAL TABLE ${table} USING fts5(${columns.join(', ')}, ${tokenize})`);
    if (table === 'servers_fts') {
      await eachChunk<ServerText>(knex, 'SELECT f.rowid AS rowid, f.name, f.title, f.description, f.categories, f.tools FROM servers_fts_old f', (rows) => insertRows(knex, table, columns, rows.map(serverRow)));
    } else {
      await eachChunk<ToolText>(knex, toolText('tools_fts_old'), (rows) => insertRows(knex, table, columns, rows.map(toolRow)));
    }
    await knex.raw(`DROP TABLE ${table}_old`);
    await knex.raw(`CREATE VIRTUAL TABLE ${table}_vocab USING fts5vocab(${table}, row)`);
  }
}

/** The tsvector PostgreSQL indexes, as migration 001 defines its words (split at anything not a letter or digit). */
const words = (column: string): string => `to_tsvector('simple', regexp_replace(coalesce(${column}, ''), '[^[:alnum:]]+', ' ', 'g'))`;

async function rebuildPostgres(knex: Knex): Promise<void> {
  const documents = {
    servers_fts: `setweight(${words('name')}, 'A') || setweight(${words('title')}, 'B') || setweight(${words('description')}, 'C') || setweight(${words("categories || ' ' || tools")}, 'D')`,
    tools_fts: `setweight(${words('name')}, 'A') || setweight(${words('title')}, 'B') || setweight(${words('description')}, 'C') || setweight(${words("server || ' ' || schema")}, 'D')`,
  };
  await knex.raw("ALTER TABLE tools_fts ADD COLUMN schema text NOT NULL DEFAULT ''");
  for (const table of ['servers_fts', 'tools_fts'] as const) {
    const columns = FTS_COLUMNS[table];
    // The document is made once, after the text is rewritten.
    await knex.raw(`ALTER TABLE ${table} DROP COLUMN document`);
    const update = async (rows: ReadonlyArray<ReadonlyArray<unknown>>): Promise<void> => {
      if (rows.length === 0) return;
      const one = `(?::integer, ${columns.map(() => '?::text').join(', ')})`;
      await knex.raw(
        `UPDATE ${table} f SET ${columns.map((c) => `${c} = v.${c}`).join(', ')} FROM (VALUES ${rows.map(() => one).join(', ')}) AS v(rowid, ${columns.join(', ')}) WHERE f.rowid = v.rowid`,
        rows.flat() as Knex.RawBinding[],
      );
    };
    if (table === 'servers_fts') {
      await eachChunk<ServerText>(knex, 'SELECT f.rowid AS rowid, f.name, f.title, f.description, f.categories, f.tools FROM servers_fts f', (rows) => update(rows.map(serverRow)));
    } else {
      await eachChunk<ToolText>(knex, toolText('tools_fts'), (rows) => update(rows.map(toolRow)));
    }
    await knex.raw(`ALTER TABLE ${table} ADD COLUMN document tsvector GENERATED ALWAYS AS (${documents[table]}) STORED`);
    await knex.raw(`CREATE INDEX ${table}_document ON ${table} USING gin (document)`);
  }
}

export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) === 'postgres') await rebuildPostgres(knex);
  else await rebuildSqlite(knex);
  await knex('catalog_generation').whereIn('id', [1, 2]).increment('generation', 1);
}

export async function down(): Promise<void> {
  // The new text is a correct index of the same catalog, and the schema column is only searched.
}
