/**
 * Publishing to this registry (DESIGN.md "An organisation's own registry"): `POST /v0.1/publish`
 * and the two status operations of the official registry's API. The versions live in
 * `published_versions`; after each change the name's versions, as an official-format document,
 * go through ingest as the `publisher` source, in the same transaction, so every surface sees
 * them as it sees any source. A name whose every version is deleted leaves the catalog.
 */
import type { components } from '../../generated/openapi.js';
import { mayPublish, type AccessTokens, type Caller } from '../auth/access-tokens.js';
import { LOCAL_NAMESPACE } from '../catalog/registry-name.js';
import { scrubValue } from '../catalog/secrets.js';
import { AppError } from '../errors.js';
import type { IngestInput } from '../ingest/detect.js';
import { ingest } from '../ingest/ingest-service.js';
import { IngestError } from '../ingest/upstream.js';
import type { AuditEntry, CatalogWriter, PublishedVersionRow, Store } from '../store/index.js';
import type { CatalogPolicy } from '../catalog/catalog-policy.js';
import { latestOf, versionProblem } from './latest-version.js';
import { OFFICIAL_META } from '../registry-api/registry-api-service.js';

type ServerDetail = components['schemas']['PublishServerDetail'];
type StatusUpdate = components['schemas']['RegistryStatusUpdate'];
type ServerResponse = components['schemas']['RegistryServerResponse'];
type AllVersionsStatus = components['schemas']['RegistryAllVersionsStatus'];

/** What a request says of its caller: its `Authorization` header and who it counts as in limits. */
export interface Credentials {
  readonly authorization: string | undefined;
  readonly client: string;
}

export interface PublishService {
  /** registryPublish */
  publish(who: Credentials, server: ServerDetail): Promise<ServerResponse>;
  /** registryUpdateVersionStatus */
  setVersionStatus(who: Credentials, name: string, version: string, update: StatusUpdate): Promise<ServerResponse>;
  /** registryUpdateServerStatus */
  setServerStatus(who: Credentials, name: string, update: StatusUpdate): Promise<AllVersionsStatus>;
}

export interface PublishDeps {
  readonly store: Store;
  readonly access: Pick<AccessTokens, 'authenticate'>;
  /** The catalog policy in force (CATALOG_POLICY), or null: a published server it does not admit is refused. */
  readonly policy?: () => CatalogPolicy | null;
  readonly now?: () => Date;
}

/** A name's versions after a change, and which versions it changed. */
interface Change {
  readonly rows: readonly PublishedVersionRow[];
  readonly changed: readonly string[];
}

/** Another write changed the name between reading it and writing: the change is worked out again. */
class StaleRead extends Error {}
const ATTEMPTS = 5;

export function createPublishService(deps: PublishDeps): PublishService {
  const now = deps.now ?? (() => new Date());

  /** The caller, once its token names one whose scopes cover `name`. */
  const authorize = async (who: Credentials, name: string): Promise<Caller> => {
    const caller = await deps.access.authenticate(who.authorization, who.client);
    if (!mayPublish(caller, name)) {
      throw new AppError('forbidden_scope', `The token "${caller.name}" may not publish or change ${name}: none of its publish: scopes covers that name (publish:<namespace>/* or publish:<namespace>/<name>, exactly as written).`);
    }
    return caller;
  };

  /** Works out a change from the stored versions and writes it with the catalog, retrying when another write came between. */
  const apply = async (caller: Caller, name: string, action: 'publish' | 'status', plan: (rows: readonly PublishedVersionRow[], at: string) => Change): Promise<Change> => {
    for (let attempt = 1; ; attempt += 1) {
      const before = await deps.store.published.versionsOf(name);
      const at = now().toISOString();
      const change = plan(before, at);
      const audited: AuditEntry[] = change.changed.map((version) => {
        const row = change.rows.find((r) => r.version === version);
        return { at, actor: caller.name, action, target: `${name}@${version}`, detail: { status: row?.status, statusMessage: row?.statusMessage ?? null } };
      });
      try {
        await write(deps.store, name, before, change.rows, deps.policy?.() ?? null, audited);
      } catch (err) {
        if (err instanceof StaleRead && attempt < ATTEMPTS) continue;
        if (err instanceof StaleRead) throw new AppError('service_unavailable', `${name} is being changed by another request; try again.`, [], { 'Retry-After': '1' });
        if (err instanceof IngestError) throw new AppError('invalid_server_json', `The server.json cannot be catalogued: ${err.reason}.`, [{ location: 'request', message: err.reason }]);
        throw err;
      }
      return change;
    }
  };

  return {
    async publish(who, server) {
      const problem = versionProblem(server.version);
      if (problem) throw new AppError('invalid_server_json', `version ${problem}.`, [{ location: 'version', message: problem }]);
      // Sextant names the servers no registry lists there: a published one would take their names.
      if (server.name.split('/')[0]?.toLowerCase() === LOCAL_NAMESPACE) {
        throw new AppError('invalid_server_json', `name: the namespace ${LOCAL_NAMESPACE} is this registry's own, for servers only Docker or toolsdk list; publish under your own namespace.`, [{ location: 'name', message: `must not be in the ${LOCAL_NAMESPACE} namespace` }]);
      }
      const caller = await authorize(who, server.name);
      const change = await apply(caller, server.name, 'publish', (rows, at) => {
        if (rows.some((r) => r.version === server.version)) {
          throw new AppError('version_exists', `${server.name} ${server.version} is published already, and a published version never changes: publish a new version.`);
        }
        const added: PublishedVersionRow = {
          name: server.name, version: server.version, document: JSON.stringify(scrubValue(server)), status: 'active', statusMessage: null, statusChangedAt: null,
          publishedAt: at, updatedAt: at, isLatest: false, publisher: caller.name,
        };
        return { rows: withLatest([...rows, added], at), changed: [server.version] };
      });
      return responseOf(rowOf(change.rows, server.version));
    },

    async setVersionStatus(who, name, version, update) {
      const caller = await authorize(who, name);
      const change = await apply(caller, name, 'status', (rows, at) => {
        const row = rows.find((r) => r.version === version);
        if (!row) throw notPublished(name, rows.length > 0 ? version : null);
        if (!changes(row, update)) throw noChange(update);
        return { rows: withLatest(rows.map((r) => (r === row ? withStatus(r, update, at) : r)), at), changed: [version] };
      });
      return responseOf(rowOf(change.rows, version));
    },

    async setServerStatus(who, name, update) {
      const caller = await authorize(who, name);
      const change = await apply(caller, name, 'status', (rows, at) => {
        if (rows.length === 0) throw notPublished(name, null);
        const changed = rows.filter((r) => changes(r, update));
        if (changed.length === 0) throw noChange(update);
        return { rows: withLatest(rows.map((r) => (changed.includes(r) ? withStatus(r, update, at) : r)), at), changed: changed.map((r) => r.version) };
      });
      return { updatedCount: change.changed.length, servers: newestFirst(change.rows).map(responseOf) };
    },
  };
}

/**
 * Writes a name's versions and the catalog records made from them in one catalog write. The
 * versions read before are read again inside it: when another write changed them meanwhile,
 * nothing is written (StaleRead).
 */
async function write(store: Store, name: string, before: readonly PublishedVersionRow[], rows: readonly PublishedVersionRow[], policy: CatalogPolicy | null, audited: readonly AuditEntry[]): Promise<void> {
  const gone = rows.every((r) => r.status === 'deleted');
  const inputs: IngestInput[] = gone ? [] : [{ file: `publish:${name}`, text: officialDocumentOf(rows), source: 'publisher' }];
  await ingest(store, inputs, {
    policy,
    removed: gone ? [{ source: 'publisher', key: name }] : [],
    alongside: {
      async before(writer: PublishedWritesOf) {
        if (JSON.stringify(await writer.published.versionsOf(name)) !== JSON.stringify(before)) throw new StaleRead();
        await writer.published.dropDeletedVersions(name);
      },
      async after(writer: PublishedWritesOf) {
        // The policy's pass has run: a server it refused took the published record with it.
        if (!gone && (await writer.sourceRows([{ source: 'publisher', key: name }])).size === 0) {
          throw new AppError('not_admitted', `The catalog policy (CATALOG_POLICY) does not admit ${name} as it would be catalogued, so nothing was published; \`sextant policy check\` says which rule decides.`);
        }
        await writer.published.replace(name, rows);
        for (const entry of audited) await writer.audit(entry);
        if (gone) await writer.published.keepDeletedVersions(name, rows);
      },
    },
  });
}

type PublishedWritesOf = Pick<CatalogWriter, 'published' | 'sourceRows' | 'audit'>;

/**
 * Every published name with a live version, through ingest again under `policy`: after a policy
 * changed, the servers it admits now are catalogued again (those it refuses stay out, their
 * versions kept). Ingest of the public sources never removes them, so only curation needs this.
 */
export async function republishAll(store: Store, policy: CatalogPolicy | null): Promise<number> {
  const names = await store.published.liveNames();
  if (names.length === 0) return 0;
  const inputs: IngestInput[] = [];
  for (const name of names) inputs.push({ file: `publish:${name}`, text: officialDocumentOf(await store.published.versionsOf(name)), source: 'publisher' });
  await ingest(store, inputs, { policy });
  return names.length;
}

/** The name's versions as the official registry's list, which ingest reads as the `publisher` source. */
function officialDocumentOf(rows: readonly PublishedVersionRow[]): string {
  return JSON.stringify({ servers: rows.map(responseOf) });
}

/** Every version with `isLatest` set by the official rule; `updatedAt` moves on a version whose mark changes. */
function withLatest(rows: readonly PublishedVersionRow[], at: string): PublishedVersionRow[] {
  const latest = latestOf(rows);
  return rows.map((r) => {
    const isLatest = r === latest;
    return isLatest === r.isLatest ? r : { ...r, isLatest, updatedAt: at };
  });
}

function withStatus(row: PublishedVersionRow, update: StatusUpdate, at: string): PublishedVersionRow {
  return { ...row, status: update.status, statusMessage: update.statusMessage ?? null, statusChangedAt: at, updatedAt: at };
}

const changes = (row: PublishedVersionRow, update: StatusUpdate): boolean => row.status !== update.status || row.statusMessage !== (update.statusMessage ?? null);

function noChange(update: StatusUpdate): AppError {
  return new AppError('no_change', `No changes to apply: status is already ${update.status}${update.statusMessage === undefined ? '' : ' with that statusMessage'}.`);
}

function notPublished(name: string, version: string | null): AppError {
  const what = version === null ? `No version of ${name} is published to this registry` : `${name} has no published version ${version}`;
  return new AppError('not_found', `${what}; only versions published here (POST /v0.1/publish) change status here. List them with GET /v0.1/servers/${encodeURIComponent(name)}/versions?include_deleted=true.`);
}

function rowOf(rows: readonly PublishedVersionRow[], version: string): PublishedVersionRow {
  const row = rows.find((r) => r.version === version);
  if (!row) throw new Error(`version ${version} is missing from its own change`);
  return row;
}

function newestFirst(rows: readonly PublishedVersionRow[]): PublishedVersionRow[] {
  return [...rows].sort((a, b) => (a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : a.version < b.version ? 1 : -1));
}

/** A version as the registry API answers it: the server.json as stored, with the registry's metadata. */
function responseOf(row: PublishedVersionRow): ServerResponse {
  const official: ServerResponse['_meta'][typeof OFFICIAL_META] = { status: row.status, publishedAt: row.publishedAt, updatedAt: row.updatedAt, isLatest: row.isLatest };
  if (row.statusMessage !== null) official.statusMessage = row.statusMessage;
  if (row.statusChangedAt !== null) official.statusChangedAt = row.statusChangedAt;
  return { server: serverOf(row.document), _meta: { [OFFICIAL_META]: official } };
}

function serverOf(text: string): ServerResponse['server'] {
  const value: unknown = JSON.parse(text);
  if (!isServerDetail(value)) throw new Error('a stored server.json lost its name, description or version');
  return value;
}

function isServerDetail(value: unknown): value is ServerResponse['server'] {
  if (typeof value !== 'object' || value === null) return false;
  const fields: Record<string, unknown> = { ...value };
  return typeof fields.name === 'string' && typeof fields.description === 'string' && typeof fields.version === 'string';
}
