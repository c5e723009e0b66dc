/**
 * SQLite's full-text tables lose their prefix indexes (`prefix = '2 3'`). Those kept extra
 * postings for every 2- and 3-character prefix of every token: a third of what a bulk ingest
 * wrote into the full-text tables. Searches that SQL answers (the in-memory index answers
 * relevance searches whenever it is current) still match words as prefixes; FTS5 finds a short
 * prefix by scanning the terms it covers instead of reading one list. Each table is rebuilt with
 * its rows and rowids as they were. PostgreSQL's search tables are untouched.
 */
import type { Knex } from 'knex';
import { dialectOf } from '../dialect.js';

/** The tables and columns as migration 001 made them (a migration keeps its own copy: it is history). */
const TABLES = {
  servers_fts: ['name', 'title', 'description', 'categories', 'tools'],
  tools_fts: ['name', 'title', 'description', 'server'],
} as const;

const TOKENIZE = 'tokenize = "unicode61 remove_diacritics 2"';

export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) === 'sqlite') await rebuild(knex, '');
}

export async function down(knex: Knex): Promise<void> {
  if (dialectOf(knex) === 'sqlite') await rebuild(knex, `, prefix = '2 3'`);
}

async function rebuild(knex: Knex, options: string): Promise<void> {
  for (const [table, columns] of Object.entries(TABLES)) {
    const list = columns.join(', ');
    await knex.raw(`ALTER TABLE ${table} RENAME TO ${table}_old`);
    await knex.raw(`CREATE VIRTUAL TABLE ${table} USING fts5(${list}, ${TOKENIZE}${options})`);
    await knex.raw(`INSERT INTO ${table} (rowid, ${list}) SELECT rowid, ${list} FROM ${table}_old`);
    await knex.raw(`DROP TABLE ${table}_old`);
  }
}
