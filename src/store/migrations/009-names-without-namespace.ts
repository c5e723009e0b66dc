/**
 * Search reads a server's name without its reverse-DNS namespace (DESIGN.md "Search quality":
 * `io.github.someone/` in `io.github.someone/weather` is who published it, not what it does):
 * the full-text rows written before are rewritten as the writer now writes them, the server's
 * name column and the server name that leads a tool's `server` column (`${name} ${title}`), in
 * one statement each (set-based: a catalog of any size in seconds). The content generation moves
 * on, so what was built from the old text is built again. The rule is catalog/namespace.ts's,
 * restated in SQL (a migration keeps its own copy: it is history).
 */
import type { Knex } from 'knex';
import { dialectOf } from '../dialect.js';

export async function up(knex: Knex): Promise<void> {
  if (dialectOf(knex) === 'postgres') {
    const slash = 'strpos(s.name, \'/\')';
    const namespaced = `${slash} > 1 AND strpos(substr(s.name, 1, ${slash} - 1), '.') > 0`;
    const short = `substr(s.name, ${slash} + 1)`;
    await knex.raw(`UPDATE servers_fts f SET name = ${short} FROM servers s WHERE s.seq = f.rowid AND ${namespaced}`);
    await knex.raw(`UPDATE tools_fts f SET server = ${short} || ' ' || coalesce(s.title, '') FROM tools t JOIN servers s ON s.id = t.server_id WHERE t.seq = f.rowid AND ${namespaced}`);
  } else {
    const slash = "instr(s.name, '/')";
    const namespaced = `${slash} > 1 AND instr(substr(s.name, 1, ${slash} - 1), '.') > 0`;
    const short = `substr(s.name, ${slash} + 1)`;
    await knex.raw(`UPDATE servers_fts SET name = (SELECT ${short} FROM servers s WHERE s.seq = servers_fts.rowid)
      WHERE rowid IN (SELECT s.seq FROM servers s WHERE ${namespaced})`);
    await knex.raw(`UPDATE tools_fts SET server = (SELECT ${short} || ' ' || coalesce(s.title, '') FROM tools t JOIN servers s ON s.id = t.server_id WHERE t.seq = tools_fts.rowid)
      WHERE rowid IN (SELECT t.seq FROM tools t JOIN servers s ON s.id = t.server_id WHERE ${namespaced})`);
  }
  await knex('catalog_generation').whereIn('id', [1, 2]).increment('generation', 1);
}

export async function down(): Promise<void> {
  // The namespace-free text is a correct index of the same catalog: nothing to undo.
}
