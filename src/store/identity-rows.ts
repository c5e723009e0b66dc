/**
 * What ingest reads and writes to keep one entry per server (src/ingest/identity.ts): every
 * stored record with its server, whole records to move, servers left without records, and the
 * ids those had.
 */
import type { Knex } from 'knex';
import type { SourceName } from '../types.js';
import { inLists } from './in-lists.js';
import { deleteChildren } from './server-writes.js';

export interface StoredRecordRow {
  readonly source: SourceName;
  readonly key: string;
  readonly serverId: string;
  readonly normalized: string;
}

export interface WholeRecordRow extends StoredRecordRow {
  readonly record: string;
  readonly recordHash: string;
}

/** Records a page at a time, so a large catalog's text is never held at once. */
const PAGE = 2000;

export interface IdentityRows {
  /** Every stored record of a catalog source (the monitor's follow their server), a page at a time. */
  eachStoredRecord(visit: (rows: readonly StoredRecordRow[]) => void): Promise<void>;
  /** These records whole. */
  wholeRecords(records: ReadonlyArray<{ readonly source: SourceName; readonly key: string }>): Promise<WholeRecordRow[]>;
  /** Removes these records (the run writes again those it keeps). */
  removeRecords(records: ReadonlyArray<{ readonly source: SourceName; readonly key: string }>): Promise<void>;
  /** Removes these servers with everything they hold. */
  removeServers(ids: readonly string[]): Promise<void>;
  /** Old ids of servers, [old id, server id]: aliases that named an old id follow it; an id a server holds again is no alias. */
  addAliases(pairs: ReadonlyArray<readonly [string, string]>): Promise<void>;
}

export function createIdentityRows(trx: Knex.Transaction): IdentityRows {
  return {
    async eachStoredRecord(visit) {
      let after: { source: string; key: string } | null = null;
      for (;;) {
        let query = trx('sources').whereNot('source', 'monitor').orderBy(['source', 'source_key']).limit(PAGE).select('source', 'source_key', 'server_id', 'normalized');
        if (after) {
          const { source, key } = after;
          query = query.where((q) => q.where('source', '>', source).orWhere((same) => same.where('source', source).andWhere('source_key', '>', key)));
        }
        const rows: Array<{ source: SourceName; source_key: string; server_id: string; normalized: string }> = await query;
        visit(rows.map((r) => ({ source: r.source, key: r.source_key, serverId: r.server_id, normalized: r.normalized })));
        const last = rows.at(-1);
        if (!last || rows.length < PAGE) return;
        after = { source: last.source, key: last.source_key };
      }
    },
    async wholeRecords(records) {
      const out: WholeRecordRow[] = [];
      const bySource = new Map<SourceName, string[]>();
      for (const { source, key } of records) bySource.set(source, [...(bySource.get(source) ?? []), key]);
      for (const [source, keys] of bySource) {
        for (const list of inLists(keys)) {
          const rows: Array<{ source_key: string; server_id: string; normalized: string; record: string; record_hash: string }> = await trx('sources')
            .where('source', source)
            .whereIn('source_key', list)
            .select('source_key', 'server_id', 'normalized', 'record', 'record_hash');
          for (const r of rows) out.push({ source, key: r.source_key, serverId: r.server_id, normalized: r.normalized, record: r.record, recordHash: r.record_hash });
        }
      }
      return out;
    },
    async removeRecords(records) {
      const bySource = new Map<SourceName, string[]>();
      for (const { source, key } of records) bySource.set(source, [...(bySource.get(source) ?? []), key]);
      for (const [source, keys] of bySource) {
        for (const list of inLists(keys)) await trx('sources').where('source', source).whereIn('source_key', list).delete();
      }
    },
    async removeServers(ids) {
      for (const list of inLists(ids)) {
        const seqs = ((await trx('servers').whereIn('id', list).pluck('seq')) as Array<number | string>).map(Number);
        await deleteChildren(trx, list, seqs);
        await trx('servers').whereIn('id', list).delete();
      }
    },
    async addAliases(pairs) {
      for (const [alias, serverId] of pairs) {
        await trx('server_aliases').where('server_id', alias).update({ server_id: serverId });
        await trx('server_aliases').insert({ alias_id: alias, server_id: serverId }).onConflict('alias_id').merge();
      }
      await trx('server_aliases').whereIn('alias_id', trx('servers').select('id')).delete();
    },
  };
}
