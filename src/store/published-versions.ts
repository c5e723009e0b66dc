/**
 * The `published_versions` table (migration 028): the versions published to this registry, the
 * publisher's source of truth. The publish service reads a name's versions here; a catalog write
 * replaces them in its own transaction (`PublishedWrites`), with the catalog records made from them.
 */
import type { Knex } from 'knex';
import { conformed } from '../catalog/server-json.js';
import type { Db } from './db.js';
import type { RegistryStatus } from './registry-versions.js';

/** One published version as stored. */
export interface PublishedVersionRow {
  readonly name: string;
  readonly version: string;
  /** The server.json as received, scrubbed of credentials, as JSON text. */
  readonly document: string;
  readonly status: RegistryStatus;
  readonly statusMessage: string | null;
  readonly statusChangedAt: string | null;
  readonly publishedAt: string;
  readonly updatedAt: string;
  readonly isLatest: boolean;
  /** The name of the token that published it. */
  readonly publisher: string;
}

export interface PublishedVersions {
  /** Every version of a name, in version order (byte by byte). */
  versionsOf(name: string): Promise<PublishedVersionRow[]>;
}

/** What the service reads outside a catalog write. */
export interface PublishedReads extends PublishedVersions {
  /** Every name with a version that is not deleted, in name order. */
  liveNames(): Promise<string[]>;
}

/** Writes inside a catalog write's transaction. */
export interface PublishedWrites extends PublishedVersions {
  /** Makes these the name's versions. */
  replace(name: string, rows: readonly PublishedVersionRow[]): Promise<void>;
  /**
   * Keeps a name's deleted versions in the registry API after its server has left the catalog, so
   * `include_deleted` still lists them. Their rows name the server by the registry name itself,
   * which no server id ever is (ids hold no `/`), so no surface finds a server through them and
   * no rewrite of another server removes them. A version some server's own rows hold stays its.
   */
  keepDeletedVersions(name: string, versions: readonly PublishedVersionRow[]): Promise<void>;
  /** Removes the rows `keepDeletedVersions` kept of a name (before it is written again). */
  dropDeletedVersions(name: string): Promise<void>;
}

interface Row {
  name: string;
  version: string;
  document: string;
  status: RegistryStatus;
  status_message: string | null;
  status_changed_at: string | null;
  published_at: string;
  updated_at: string;
  is_latest: boolean | number;
  publisher: string;
}

const toRow = (row: Row): PublishedVersionRow => ({
  name: row.name, version: row.version, document: row.document, status: row.status, statusMessage: row.status_message, statusChangedAt: row.status_changed_at,
  publishedAt: row.published_at, updatedAt: row.updated_at, isLatest: Boolean(row.is_latest), publisher: row.publisher,
});

const fromRow = (row: PublishedVersionRow): Row => ({
  name: row.name, version: row.version, document: row.document, status: row.status, status_message: row.statusMessage, status_changed_at: row.statusChangedAt,
  published_at: row.publishedAt, updated_at: row.updatedAt, is_latest: row.isLatest, publisher: row.publisher,
});

async function versionsOf(db: Knex, name: string): Promise<PublishedVersionRow[]> {
  const rows: Row[] = await db('published_versions').where({ name }).orderBy('version').select('*');
  return rows.map(toRow);
}

export function createPublishedVersions(db: Db): PublishedReads {
  return {
    versionsOf: (name) => versionsOf(db, name),
    async liveNames() {
      const rows: Array<{ name: string }> = await db('published_versions').whereNot('status', 'deleted').distinct('name').orderBy('name');
      return rows.map((row) => row.name);
    },
  };
}

/** `wrote` hears of each write, so that the catalog write moves the content generation (what every reader's answers follow). */
export function createPublishedWrites(trx: Knex.Transaction, wrote: (rows: number) => void): PublishedWrites {
  return {
    versionsOf: (name) => versionsOf(trx, name),
    async replace(name, rows) {
      wrote(rows.length + 1);
      await trx('published_versions').where({ name }).delete();
      if (rows.length > 0) await trx('published_versions').insert(rows.map(fromRow));
    },
    async keepDeletedVersions(name, versions) {
      if (versions.length === 0) return;
      wrote(versions.length);
      const rows = versions.map((v) => {
        const { document, repairs } = conformed(documentOf(v.document));
        return {
          name, version: v.version, server_id: name, document: JSON.stringify(document), repairs: repairs.length > 0 ? JSON.stringify(repairs) : null, status: v.status,
          status_message: v.statusMessage, status_changed_at: v.statusChangedAt, published_at: v.publishedAt, updated_at: v.updatedAt, is_latest: false, catalog_meta: null,
        };
      });
      await trx('registry_versions').insert(rows).onConflict(['name', 'version']).ignore();
    },
    async dropDeletedVersions(name) {
      wrote(await trx('registry_versions').where({ name, server_id: name }).delete());
    },
  };
}

/** A stored document as the JSON object it was stored from. */
function documentOf(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : {};
}
