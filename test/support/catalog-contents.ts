/** What a store's catalog holds, read with plain SQL through the store's search source (for tests that compare two catalogs). */
import { sourceKey, type SourceRow, type Store } from '../../src/store/index.js';

export interface CatalogContents {
  /** `sourceKey(source, key)` → the source row. */
  readonly sources: Map<string, SourceRow>;
  /** server id → canonical name. */
  readonly servers: Map<string, string>;
  /** server id → content hash. */
  readonly contentHashes: Map<string, string>;
  /** Every install key the catalog has assigned. */
  readonly installKeys: Set<string>;
}

export async function catalogContentsOf(store: Store): Promise<CatalogContents> {
  const { sql } = store.searchSource;
  const sources = await sql.all<{ source: SourceRow['source']; source_key: string; server_id: string; record_hash: string }>('SELECT source, source_key, server_id, record_hash FROM sources');
  const servers = await sql.all<{ id: string; name: string; content_hash: string; install_key: string | null }>('SELECT id, name, content_hash, install_key FROM servers');
  return {
    sources: new Map(sources.map((r) => [sourceKey(r.source, r.source_key), { source: r.source, key: r.source_key, serverId: r.server_id, recordHash: r.record_hash }])),
    servers: new Map(servers.map((r) => [r.id, r.name])),
    contentHashes: new Map(servers.map((r) => [r.id, r.content_hash])),
    installKeys: new Set(servers.flatMap((r) => (r.install_key === null ? [] : [r.install_key]))),
  };
}

/**
 * What ingest's identity decides, for catalogs that must be equal whatever order their records
 * came in: each record's server, each server's name and content. Install keys are left out: each
 * is given once, when its server is created, and kept.
 */
export async function catalogIdentityOf(store: Store): Promise<unknown> {
  const { sources, servers, contentHashes } = await catalogContentsOf(store);
  const sorted = <T>(map: Map<string, T>): Array<[string, T]> => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { sources: sorted(sources).map(([key, row]) => [key, row.serverId, row.recordHash]), servers: sorted(servers), contentHashes: sorted(contentHashes) };
}
