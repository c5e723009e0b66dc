/**
 * SQLite: each full-text table gets an `fts5vocab` table (`servers_fts_vocab`, `tools_fts_vocab`)
 * listing the words it holds, among which the search engines find a mistyped word's typos
 * (src/search/typos.ts). They hold nothing themselves: FTS5 reads them from the index. On
 * PostgreSQL, ts_stat lists the lexemes of the tsvectors and nothing is needed.
 */
import type { Knex } from 'knex';
import { dialectOf } from '../dialect.js';

const TABLES = ['servers_fts', 'tools_fts'] as const;

export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'sqlite') return;
  for (const table of TABLES) await knex.raw(`CREATE VIRTUAL TABLE ${table}_vocab USING fts5vocab(${table}, row)`);
}

export async function down(knex: Knex): Promise<void> {
  if (dialectOf(knex) !== 'sqlite') return;
  for (const table of TABLES) await knex.raw(`DROP TABLE IF EXISTS ${table}_vocab`);
}
