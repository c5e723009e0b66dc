/**
 * What the curation pass (src/ingest/curation.ts) reads of every stored server, a page at a time,
 * and the aliases it drops with the servers it removes.
 */
import type { Knex } from 'knex';
import type { PolicySubject } from '../catalog/catalog-policy.js';
import { dialectOf } from './dialect.js';
import { inLists } from './in-lists.js';

/** A server as the policy reads it. */
export interface CurationRow extends PolicySubject {
  readonly id: string;
}

const PAGE = 2000;

export interface CurationRows {
  /**
   * Every stored server (or those of `only`) in id order, a page at a time: its id, its names
   * (registry name, catalog name, id, then the names its source records give it) and what the
   * conditions read.
   */
  eachPolicySubject(visit: (rows: readonly CurationRow[]) => void, only?: readonly string[]): Promise<void>;
  /** Drops the aliases that lead to these servers (removed by curation, not merged into another). */
  removeAliasesOf(ids: readonly string[]): Promise<void>;
}

/** On a transaction (the catalog writer's) or the pool (`sextant policy check` reads only). */
export function createCurationRows(trx: Knex | Knex.Transaction): CurationRows {
  return {
    async eachPolicySubject(visit, only) {
      let after: string | null = null;
      for (;;) {
        // A server's versions all carry its one registry name (registry-versions.ts versionRowsOf).
        let query = trx('servers as s')
          .select('s.id', 's.name', 's.tool_findings', 's.flagged', trx.raw('(SELECT min(rv.name) FROM registry_versions rv WHERE rv.server_id = s.id) AS registry_name'))
          .orderBy('s.id').limit(PAGE);
        if (after !== null) query = query.where('s.id', '>', after);
        if (only !== undefined) query = query.whereIn('s.id', only);
        const rows: Array<{ id: string; name: string; tool_findings: number | string | null; flagged: number | boolean; registry_name: string | null }> = await query;
        const recordNames = await recordNamesOf(trx, rows.map((r) => r.id));
        visit(rows.map((r) => ({
          id: r.id,
          names: [...new Set([r.registry_name ?? r.name, r.name, r.id, ...(recordNames.get(r.id) ?? [])])],
          toolFindings: r.tool_findings === null ? null : Number(r.tool_findings),
          flagged: Boolean(r.flagged),
        })));
        const last = rows.at(-1);
        if (!last || rows.length < PAGE) return;
        after = last.id;
      }
    },
    async removeAliasesOf(ids) {
      for (const list of inLists(ids)) await trx('server_aliases').whereIn('server_id', list).delete();
    },
  };
}

/** The names the servers' source records give them (`mcp/github-official` for Docker's record of GitHub's server), in name order. */
async function recordNamesOf(db: Knex, ids: readonly string[]): Promise<Map<string, string[]>> {
  // The monitor's records repeat the server's name.
  const name = dialectOf(db) === 'postgres' ? "(normalized::json ->> 'name')" : "json_extract(normalized, '$.name')";
  const names = new Map<string, string[]>();
  for (const list of inLists(ids)) {
    const rows: Array<{ server_id: string; name: string | null }> = await db('sources').whereIn('server_id', list).whereNot('source', 'monitor')
      .select('server_id', db.raw(`${name} AS name`)).orderBy(['server_id', 'name']);
    for (const { server_id: id, name: recordName } of rows) if (recordName) names.set(id, [...(names.get(id) ?? []), recordName]);
  }
  return names;
}
