/**
 * Search reads a server's name without its reverse-DNS namespace (DESIGN.md "Search quality":
 * `io.github.someone/` in `io.github.someone/weather` is who published it, not what it does):
 * the full-text rows written before are rewritten as the writer now writes them, the server's
 * name column and the server name that leads a tool's `server` column. The content generation
 * moves on, so what was built from the old text is built again.
 */
import type { Knex } from 'knex';

/** A migration keeps its own copy of the rule (it is history): catalog/namespace.ts states it for the code. */
function withoutNamespace(name: string): string {
  const slash = name.indexOf('/');
  return slash > 0 && name.slice(0, slash).includes('.') ? name.slice(slash + 1) : name;
}

const CHUNK = 1_000;

export async function up(knex: Knex): Promise<void> {
  const servers: Array<{ seq: number; name: string; title: string | null }> = await knex('servers').select('seq', 'name', 'title');
  let changed = 0;
  for (let i = 0; i < servers.length; i += CHUNK) {
    for (const server of servers.slice(i, i + CHUNK)) {
      const short = withoutNamespace(server.name);
      if (short === server.name) continue;
      changed += 1;
      await knex.raw('UPDATE servers_fts SET name = ? WHERE rowid = ?', [short, server.seq]);
      // A tool's server column is `${name} ${title}` (catalog-writer.ts).
      await knex.raw(
        'UPDATE tools_fts SET server = ? WHERE rowid IN (SELECT t.seq FROM tools t JOIN servers s ON s.id = t.server_id WHERE s.seq = ?)',
        [`${short} ${server.title ?? ''}`, server.seq],
      );
    }
  }
  if (changed > 0) await knex('catalog_generation').whereIn('id', [1, 2]).increment('generation', 1);
}

export async function down(): Promise<void> {
  // The namespace-free text is a correct index of the same catalog: nothing to undo.
}
