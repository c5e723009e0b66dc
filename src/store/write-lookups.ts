/**
 * What a catalog write reads back inside its own transaction: where ingest places a record and
 * what a server holds already. Long lists are read an `IN (…)` list at a time.
 */
import type { Knex } from 'knex';
import type { SourceName } from '../types.js';
import { inLists } from './in-lists.js';

export interface SourceRow {
  readonly source: SourceName;
  readonly key: string;
  readonly serverId: string;
  readonly recordHash: string;
}

export interface StoredSource {
  readonly source: SourceName;
  readonly key: string;
  readonly normalized: unknown;
}

export interface WriteLookups {
  /** The stored normalized records of every source of these servers. */
  storedSources(serverIds: readonly string[]): Promise<Map<string, StoredSource[]>>;
  /** Content hashes of these servers as stored. */
  contentHashes(serverIds: readonly string[]): Promise<Map<string, string>>;
  /** Names of these servers as stored. */
  serverNames(serverIds: readonly string[]): Promise<Map<string, string>>;
  countTools(): Promise<number>;
  countServers(): Promise<number>;
  /** The stored source rows of these records, by `sourceKey`. */
  sourceRows(records: ReadonlyArray<{ readonly source: SourceName; readonly key: string }>): Promise<Map<string, SourceRow>>;
  /** Server ids by canonical name, for these names. */
  serversByName(names: readonly string[]): Promise<Map<string, string>>;
  /** The sources each of these servers has a record from. */
  sourcesOfServers(serverIds: readonly string[]): Promise<Map<string, Set<SourceName>>>;
  /** Those of these ids that servers have. */
  takenIds(ids: readonly string[]): Promise<Set<string>>;
  /** Those of these servers created at `at` (by this run). */
  createdAt(serverIds: readonly string[], at: string): Promise<Set<string>>;
  /** Every install key the catalog has assigned. */
  installKeys(): Promise<string[]>;
  /** The record hash stored for a source's record, or null. */
  sourceHash(source: SourceName, key: string): Promise<string | null>;
}

/** The key of a source's record in maps of them (`sourceRows`). */
export const sourceKey = (source: string, key: string): string => `${source}\u0000${key}`;

export function createWriteLookups(trx: Knex.Transaction): WriteLookups {
  const count = async (table: string): Promise<number> => Number((await trx(table).count({ n: '*' }).first())?.n ?? 0);
  return {
    storedSources: (serverIds) => storedSources(trx, serverIds),
    contentHashes: (serverIds) => serverColumn<string>(trx, 'content_hash', serverIds),
    serverNames: (serverIds) => serverColumn<string>(trx, 'name', serverIds),
    countTools: () => count('tools'),
    countServers: () => count('servers'),
    sourceRows: (records) => sourceRows(trx, records),
    serversByName: (names) => pairsBy(trx, 'servers', 'name', names, 'name', 'id'),
    sourcesOfServers: (serverIds) => sourcesOfServers(trx, serverIds),
    takenIds: (ids) => idsOf(trx, ids, (q) => q),
    createdAt: (serverIds, at) => idsOf(trx, serverIds, (q) => q.where('created_at', at)),
    installKeys: async () => (await trx('servers').whereNotNull('install_key').pluck('install_key')) as string[],
    async sourceHash(source, key) {
      const row = await trx('sources').where({ source, source_key: key }).first('record_hash');
      return row?.record_hash ?? null;
    },
  };
}

/** One column of each of these stored servers, by id (servers not stored are left out). */
export async function serverColumn<T>(trx: Knex.Transaction, column: 'seq' | 'content_hash' | 'name', serverIds: readonly string[]): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  for (const list of inLists(serverIds)) {
    const rows: Array<{ id: string; value: T }> = await trx('servers').whereIn('id', list).select('id', { value: column });
    for (const row of rows) out.set(row.id, row.value);
  }
  return out;
}

/** `value` by `key` of the rows of `table` whose `where` is one of `values`. */
async function pairsBy(trx: Knex.Transaction, table: string, where: string, values: readonly string[], key: string, value: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const list of inLists(values)) {
    const rows: Array<{ key: string; value: string }> = await trx(table).whereIn(where, list).select({ key, value });
    for (const row of rows) out.set(row.key, row.value);
  }
  return out;
}

/** Those of `ids` that servers matching `filter` have. */
async function idsOf(trx: Knex.Transaction, ids: readonly string[], filter: (query: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<Set<string>> {
  const out = new Set<string>();
  for (const list of inLists(ids)) for (const id of (await filter(trx('servers').whereIn('id', list)).pluck('id')) as string[]) out.add(id);
  return out;
}

async function storedSources(trx: Knex.Transaction, serverIds: readonly string[]): Promise<Map<string, StoredSource[]>> {
  const out = new Map<string, StoredSource[]>();
  for (const list of inLists(serverIds)) {
    const rows: Array<{ server_id: string; source: SourceName; source_key: string; normalized: string }> = await trx('sources')
      .whereIn('server_id', list)
      .select('server_id', 'source', 'source_key', 'normalized');
    for (const row of rows) out.set(row.server_id, [...(out.get(row.server_id) ?? []), { source: row.source, key: row.source_key, normalized: JSON.parse(row.normalized) }]);
  }
  return out;
}

/**
 * A source's keys at a time: SQLite answers `source = ? AND source_key IN (…)` through the unique
 * index much faster than a list of (source, key) pairs, and a batch nearly always holds one source.
 */
async function sourceRows(trx: Knex.Transaction, records: ReadonlyArray<{ readonly source: SourceName; readonly key: string }>): Promise<Map<string, SourceRow>> {
  const keysBySource = new Map<SourceName, string[]>();
  for (const { source, key } of records) {
    const keys = keysBySource.get(source);
    if (keys) keys.push(key);
    else keysBySource.set(source, [key]);
  }
  const out = new Map<string, SourceRow>();
  for (const [source, keys] of keysBySource) {
    for (const list of inLists(keys)) {
      const rows: Array<{ source_key: string; server_id: string; record_hash: string }> = await trx('sources')
        .where('source', source)
        .whereIn('source_key', list)
        .select('source_key', 'server_id', 'record_hash');
      for (const r of rows) out.set(sourceKey(source, r.source_key), { source, key: r.source_key, serverId: r.server_id, recordHash: r.record_hash });
    }
  }
  return out;
}

async function sourcesOfServers(trx: Knex.Transaction, serverIds: readonly string[]): Promise<Map<string, Set<SourceName>>> {
  const out = new Map<string, Set<SourceName>>();
  for (const list of inLists(serverIds)) {
    const rows: Array<{ server_id: string; source: SourceName }> = await trx('sources').whereIn('server_id', list).select('server_id', 'source');
    for (const r of rows) out.set(r.server_id, (out.get(r.server_id) ?? new Set()).add(r.source));
  }
  return out;
}
