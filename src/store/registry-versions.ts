/**
 * The `registry_versions` table: what the MCP Registry API serves, one row per registry name and
 * version. The catalog writer replaces a server's rows with the server; the registry API service
 * (src/registry-api) reads them in pages, a name's versions, or one version.
 */
import type { Knex } from 'knex';
import type { components } from '../../generated/openapi.js';
import type { CatalogEntry } from '../catalog/catalog-entry.js';
import { localRegistryName, MAX_REGISTRY_NAME, REGISTRY_NAME } from '../catalog/registry-name.js';
import { scrubValue } from '../catalog/secrets.js';
import { conformed, serverJsonOf } from '../catalog/server-json.js';
import type { Db } from './db.js';

export type RegistryStatus = 'active' | 'deprecated' | 'deleted';

/** One stored version, as read back. */
export interface RegistryVersionRow {
  readonly name: string;
  readonly version: string;
  readonly serverId: string;
  /** The server.json text. */
  readonly document: string;
  /** What was changed for the document to conform to the API's schema (server-json.ts: conformed). */
  readonly repairs: readonly string[];
  /** Sextant's block of the entry as ingest stored it, as JSON text (`registryMetaJson`); null for a version stored before it was. */
  readonly catalogMeta: string | null;
  /** Whether the stored block cannot be served: the monitor has recorded a check of the server, or its tools changed since first seen (its block then reads them). */
  readonly stale: boolean;
  readonly status: RegistryStatus;
  readonly statusMessage: string | null;
  readonly statusChangedAt: string | null;
  readonly publishedAt: string | null;
  readonly updatedAt: string;
  readonly isLatest: boolean;
}

/** The longest version the registry API allows. */
const MAX_VERSION = 255;

const isRegistryName = (name: string): boolean => name.length <= MAX_REGISTRY_NAME && REGISTRY_NAME.test(name);

/** The table's columns, in the order `versionRowsOf` gives values. */
export const REGISTRY_VERSION_COLUMNS = ['name', 'version', 'server_id', 'document', 'repairs', 'status', 'status_message', 'status_changed_at', 'published_at', 'updated_at', 'is_latest', 'catalog_meta'] as const;

/** Sextant's block of one version's entry as JSON text, scrubbed of credentials: the server's block, and that version's repairs. */
export function registryMetaJson(meta: components['schemas']['RegistryCatalogMeta'], repairs: readonly string[]): string {
  return JSON.stringify(scrubValue(repairs.length > 0 ? { ...meta, repairs: [...repairs] } : meta));
}

/**
 * The rows of one catalog entry (as `REGISTRY_VERSION_COLUMNS`): every version an official
 * registry published, or (for a server no official registry lists) one version from its record,
 * under its local name, changed at `now`. `is_latest` is 1 or 0, which both databases read as a boolean.
 */
export function versionRowsOf(entry: CatalogEntry, now: string): Array<Array<string | number | null>> {
  const { server } = entry;
  // A name the registry API cannot carry (its pattern, 200 characters) is served under a local
  // name from the record, as a server no official registry lists.
  if (entry.published.length > 0 && isRegistryName(server.name)) {
    // One row per version: a source that lists a version twice keeps its first (the latest first),
    // and a version longer than the API allows is left out.
    const seen = new Set<string>();
    const versions = entry.published.filter((v) => v.version.length <= MAX_VERSION && !seen.has(v.version) && Boolean(seen.add(v.version)));
    if (versions.length > 0) return versions.map((v) => {
      const { document, repairs } = conformed({ ...v.document });
      return [
        server.name, v.version, server.id, JSON.stringify(document), repairs.length > 0 ? JSON.stringify(repairs) : null, v.status, v.statusMessage,
        v.statusChangedAt, v.publishedAt, v.updatedAt ?? v.publishedAt ?? now, v.isLatest ? 1 : 0, registryMetaJson(entry.registryMeta, repairs),
      ];
    });
  }
  const document = serverJsonOf(server, localRegistryName(server.id));
  return [[document.name as string, document.version as string, server.id, JSON.stringify(document), null, 'active', null, null, server.publishedAt ?? now, now, 1, registryMetaJson(entry.registryMeta, [])]];
}

interface Row {
  name: string;
  version: string;
  server_id: string;
  document: string;
  repairs: string | null;
  catalog_meta: string | null;
  stale: boolean | number;
  status: RegistryStatus;
  status_message: string | null;
  status_changed_at: string | null;
  published_at: string | null;
  updated_at: string;
  is_latest: boolean | number;
}

const toRow = (row: Row): RegistryVersionRow => ({
  name: row.name, version: row.version, serverId: row.server_id, document: row.document, repairs: row.repairs ? JSON.parse(row.repairs) : [], catalogMeta: row.catalog_meta, stale: Boolean(row.stale), status: row.status, statusMessage: row.status_message,
  statusChangedAt: row.status_changed_at, publishedAt: row.published_at, updatedAt: row.updated_at, isLatest: Boolean(row.is_latest),
});

/** What a list page filters on (the registry API's query, parsed). */
export interface RegistryListQuery {
  /** The last entry of the previous page: the page starts after it. */
  readonly after: { readonly name: string; readonly version: string } | null;
  readonly limit: number;
  /** Part of the name, any case. */
  readonly search: string | null;
  /** Only these names (the names a search found in the name index, src/registry-api/name-index.ts). */
  readonly names?: readonly string[] | undefined;
  /**
   * `names`: the rows in the order of `names` (a ranked list), `after` then the last entry
   * within its own name; else in name order.
   */
  readonly order?: 'name' | 'names';
  /** Entries updated after this time (ISO 8601 UTC). */
  readonly updatedSince: string | null;
  /** `latest`, or one exact version. */
  readonly version: string | null;
  readonly includeDeleted: boolean;
}

export interface RegistryVersions {
  /** A page of entries in name (or the given names') order, then version order (byte by byte). */
  page(query: RegistryListQuery): Promise<RegistryVersionRow[]>;
  /** Every name that has a version, deleted ones too, with its server's seq (null for a server no longer stored). */
  names(): Promise<Array<{ readonly name: string; readonly seq: number | null }>>;
  /** Every version of a name, newest published first. */
  versionsOf(name: string, includeDeleted: boolean): Promise<RegistryVersionRow[]>;
  /** One version of a name (`latest`: the one marked latest). */
  versionOf(name: string, version: string, includeDeleted: boolean): Promise<RegistryVersionRow | null>;
}

export function createRegistryVersions(db: Db): RegistryVersions {
  const visible = (q: Knex.QueryBuilder, includeDeleted: boolean): Knex.QueryBuilder => (includeDeleted ? q : q.whereNot('status', 'deleted'));
  /**
   * Every column, and whether the stored block cannot stand (one probe of an index a row, not a
   * query of its own): the server has a recorded check, or its tools changed since first seen
   * (ingest makes the block before the catalog writer compares the tools with their history).
   */
  const columns = [
    'registry_versions.*',
    db.raw('(EXISTS (SELECT 1 FROM endpoint_checks c WHERE c.server_id = registry_versions.server_id) OR EXISTS (SELECT 1 FROM servers s WHERE s.id = registry_versions.server_id AND s.tools_changed_at IS NOT NULL)) AS stale'),
  ];
  return {
    async page({ after, limit, search, names, order, updatedSince, version, includeDeleted }) {
      let q = db('registry_versions');
      if (names) q = q.whereIn('name', names);
      const given = names !== undefined && order === 'names';
      if (after && given) q = q.whereRaw('(name <> ? OR version > ?)', [after.name, after.version]);
      else if (after) q = q.whereRaw('(name > ? OR (name = ? AND version > ?))', [after.name, after.name, after.version]);
      // Upstream: updated_since always includes deleted entries.
      q = visible(q, includeDeleted || updatedSince !== null);
      if (search) q = q.whereRaw('lower(name) LIKE ? ESCAPE ?', [`%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`, '\\']);
      if (updatedSince) q = q.where('updated_at', '>', updatedSince);
      if (version === 'latest') q = q.where('is_latest', true);
      else if (version !== null) q = q.where('version', version);
      q = given && names.length > 0
        ? q.orderByRaw(`CASE name ${names.map((_, i) => `WHEN ? THEN ${i}`).join(' ')} END, version`, [...names])
        : q.orderBy([{ column: 'name' }, { column: 'version' }]);
      const rows: Row[] = await q.limit(limit).select(columns);
      return rows.map(toRow);
    },
    async names() {
      const rows: Array<{ name: string; seq: number | string | null }> = await db('registry_versions as v')
        .leftJoin('servers as s', 's.id', 'v.server_id')
        .distinct('v.name', 's.seq');
      return rows.map((row) => ({ name: row.name, seq: row.seq === null ? null : Number(row.seq) }));
    },
    async versionsOf(name, includeDeleted) {
      const rows: Row[] = await visible(db('registry_versions').where({ name }), includeDeleted)
        .orderByRaw("(published_at IS NULL), published_at DESC, version DESC")
        .select(columns);
      return rows.map(toRow);
    },
    async versionOf(name, version, includeDeleted) {
      const q = visible(db('registry_versions').where({ name }), includeDeleted);
      const row: Row | undefined = await (version === 'latest' ? q.where('is_latest', true) : q.where({ version })).first(columns);
      return row ? toRow(row) : null;
    },
  };
}
