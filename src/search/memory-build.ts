/**
 * Builds the in-memory engine's indexes from the catalog's database, a chunk of rows at a time
 * (each chunk indexed in one turn of the event loop): the FTS5 tables' own content for the
 * words, the servers and tools tables for what the ranking rules and filters read.
 */
import { FTS_COLUMNS, type FtsTable } from '../store/fts.js';
import { CLEAN_SERVER } from './engine.js';
import { ServerDocsBuilder, ToolDocsBuilder } from './memory-docs.js';
import type { ServerDocs, ToolDocs } from './memory-index.js';
import { FTS_TOKENIZER, weightsOf } from './ranking.js';
import type { CharacterClassifier, SqlRunner } from './search-source.js';
import type { TextIndex } from './text-index.js';
import { TextIndexBuilder } from './text-index-builder.js';
import type { Unicode61 } from './unicode61.js';

/** Rows read per query while building. */
const CHUNK = 2_000;

/** Where a build reads from; `live()` turns false when the engine closes, and the build stops. */
export interface BuildSource {
  readonly sql: SqlRunner;
  readonly classify: CharacterClassifier;
  /** Learns each new character's class as the build meets it (and keeps it for the next build). */
  readonly tokenizer: Unicode61;
  readonly live: () => boolean;
}

export async function buildServers(source: BuildSource): Promise<ServerDocs> {
  const docs = new ServerDocsBuilder(await textIndexOf(source, 'servers_fts'));
  type Row = { seq: number; source_count: number; sort_name: string; match_names: string; clean: number; flagged: number };
  await eachChunk<Row>(source, `SELECT seq, source_count, sort_name, match_names, CASE WHEN ${CLEAN_SERVER} THEN 1 ELSE 0 END AS clean, flagged FROM servers s WHERE seq > ? ORDER BY seq`, (r) => r.seq, 0, (rows) => {
    for (const row of rows) docs.server(row.seq, row.source_count, row.sort_name, row.match_names.split('\n').filter((name) => name !== ''), Number(row.clean) === 1, Number(row.flagged) === 1);
  });
  for (const row of await source.sql.all<{ seq: number; slug: string }>('SELECT s.seq, c.slug FROM server_categories c JOIN servers s ON s.id = c.server_id')) {
    docs.category(row.seq, row.slug);
  }
  await eachChunk<{ id: string; seq: number }>(source, 'SELECT id, seq FROM servers WHERE id > ? ORDER BY id', (row) => row.id, '', (rows) => {
    for (const row of rows) docs.nextById(row.seq);
  });
  return docs.finish();
}

export async function buildTools(source: BuildSource): Promise<ToolDocs> {
  const docs = new ToolDocsBuilder(await textIndexOf(source, 'tools_fts'));
  await eachChunk<{ seq: number; sort_name: string; authentication: string }>(source, 'SELECT seq, sort_name, authentication FROM tools WHERE seq > ? ORDER BY seq', (r) => r.seq, 0, (rows) => {
    for (const row of rows) docs.tool(row.seq, row.sort_name, row.authentication);
  });
  await eachChunk<{ id: string; seq: number }>(source, 'SELECT id, seq FROM tools WHERE id > ? ORDER BY id', (row) => row.id, '', (rows) => {
    for (const row of rows) docs.nextById(row.seq);
  });
  return docs.finish();
}

/** Every row of `sql` (which takes the last key as its one binding, and orders by it), CHUNK at a time. */
async function eachChunk<Row>({ sql: runner, live }: BuildSource, sql: string, keyOf: (row: Row) => number | string, first: number | string, visit: (rows: Row[]) => void | Promise<void>): Promise<void> {
  for (let after = first; ;) {
    if (!live()) throw new Error('the store closed while the search index was built');
    const rows = await runner.all<Row>(`${sql} LIMIT ${CHUNK}`, [after]);
    if (rows.length === 0) return;
    await visit(rows);
    after = keyOf(rows[rows.length - 1] as Row);
    if (rows.length < CHUNK) return;
  }
}

/** The text index of an FTS5 table, from the table's own content, `CHUNK` rows at a time. */
async function textIndexOf(source: BuildSource, table: FtsTable): Promise<TextIndex> {
  const { tokenizer } = source;
  const columns = FTS_COLUMNS[table];
  const builder = new TextIndexBuilder(weightsOf(table), tokenizer);
  type Row = Record<string, string | null> & { rowid: number };
  await eachChunk<Row>(source, `SELECT rowid, ${columns.join(', ')} FROM ${table} WHERE rowid > ? ORDER BY rowid`, (r) => r.rowid, 0, async (rows) => {
    const texts = rows.map((row) => columns.map((column) => row[column] ?? null));
    const unknown = tokenizer.unknown(texts.flat());
    if (unknown.length > 0) tokenizer.learn(await source.classify(unknown, FTS_TOKENIZER));
    rows.forEach((row, i) => builder.add(row.rowid, texts[i] ?? []));
  });
  return builder.finish();
}
