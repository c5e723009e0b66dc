/**
 * The MCP Registry API (`/v0.1`, DESIGN.md "Registry API"): Sextant as a subregistry that VS
 * Code, GitHub Copilot and other registries read. It lists the versions the catalog writer keeps
 * (src/store/registry-versions.ts), each served as published with the registry metadata of that
 * version (`io.modelcontextprotocol.registry/official`) and Sextant's own (`local.sextant/catalog`:
 * the catalog id, categories, tools, sources, trust counts and endpoint status), read in one
 * batch for a page.
 */
import type { components } from '../../generated/openapi.js';
import type { QueryOf } from '../contract.js';
import { AppError } from '../errors.js';
import { primaryState, STATUS_HISTORY } from '../registry/status.js';
import { trustReport } from '../registry/trust.js';
import type { CatalogLookups } from '../store/catalog-lookups.js';
import type { MonitorStore } from '../store/monitor-store.js';
import type { RegistryVersionRow, RegistryVersions } from '../store/registry-versions.js';
import { decodeCursor, encodeCursor } from './cursor.js';

export type RegistryServerList = components['schemas']['RegistryServerList'];
export type RegistryServerResponse = components['schemas']['RegistryServerResponse'];

export const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';
export const CATALOG_META = 'local.sextant/catalog';

/** The list's page size without `limit`, and its bounds (as the published API). */
export const DEFAULT_REGISTRY_LIMIT = 30;

/** The list's query, as the contract validates it. */
export type RegistryListInput = QueryOf<'registryListServers'>;

export interface SubregistryService {
  listServers(input: RegistryListInput): Promise<RegistryServerList>;
  listVersions(name: string, includeDeleted: boolean): Promise<RegistryServerList>;
  getVersion(name: string, version: string, includeDeleted: boolean): Promise<RegistryServerResponse>;
}

export interface SubregistryDeps {
  readonly versions: RegistryVersions;
  readonly catalog: Pick<CatalogLookups, 'findServers' | 'toolsOfServers'>;
  readonly monitor: Pick<MonitorStore, 'recentChecksOf'>;
  readonly now?: () => Date;
}

/** `updated_since` as the stored times are written (ISO 8601 UTC, milliseconds); a 400 if it is no time. */
function sinceOf(value: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new AppError('validation_failed', 'updated_since must be an RFC 3339 date-time, e.g. 2025-08-07T13:15:04.280Z.', [{ location: 'updated_since', message: 'must be an RFC 3339 date-time' }]);
  }
  return new Date(ms).toISOString();
}

export function createSubregistryService({ versions, catalog, monitor, now = () => new Date() }: SubregistryDeps): SubregistryService {
  /** The entries of `rows`, with the official block and Sextant's, their catalog facts read together. */
  const entriesOf = async (rows: readonly RegistryVersionRow[]): Promise<RegistryServerResponse[]> => {
    const ids = [...new Set(rows.map((row) => row.serverId))];
    const [servers, tools, checks] = await Promise.all([catalog.findServers(ids), catalog.toolsOfServers(ids), monitor.recentChecksOf(ids, STATUS_HISTORY)]);
    const at = now().toISOString();
    return rows.map((row) => {
      const official: Record<string, unknown> = { status: row.status };
      if (row.statusMessage) official.statusMessage = row.statusMessage;
      if (row.statusChangedAt) official.statusChangedAt = row.statusChangedAt;
      if (row.publishedAt) official.publishedAt = row.publishedAt;
      official.updatedAt = row.updatedAt;
      official.isLatest = row.isLatest;
      const meta: Record<string, unknown> = { [OFFICIAL_META]: official };
      const server = servers.get(row.serverId);
      if (server) {
        const serverChecks = checks.get(server.id) ?? [];
        const trust = trustReport(server, tools.get(server.id) ?? [], [], serverChecks, at).summary;
        const latestCheck = serverChecks.map((c) => c.checkedAt).sort().at(-1) ?? null;
        meta[CATALOG_META] = {
          id: server.id,
          categories: server.categories,
          toolCount: server.toolCount,
          tools: server.tools.map((t) => t.name),
          authentication: server.authentication,
          sources: [...new Set(server.sources.map((s) => s.source))],
          trust,
          status: { state: primaryState(server, serverChecks), checkedAt: latestCheck },
          ...(row.repairs.length > 0 ? { repairs: [...row.repairs] } : {}),
        };
      }
      return { server: JSON.parse(row.document), _meta: meta } as RegistryServerResponse;
    });
  };

  const notFound = (what: string): AppError => new AppError('not_found', `${what} is not in this registry.`, [], {}, 'server');

  return {
    async listServers(input) {
      const limit = input.limit ?? DEFAULT_REGISTRY_LIMIT;
      const after = input.cursor !== undefined ? decodeCursor(input.cursor) : null;
      const search = input.search?.trim() ? input.search.trim() : null;
      const rows = await versions.page({
        after,
        limit: limit + 1,
        search,
        updatedSince: input.updated_since !== undefined ? sinceOf(input.updated_since) : null,
        version: input.version ?? null,
        includeDeleted: input.include_deleted ?? false,
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const metadata: RegistryServerList['metadata'] = { count: page.length };
      if (rows.length > limit && last) metadata.nextCursor = encodeCursor({ name: last.name, version: last.version });
      return { servers: await entriesOf(page), metadata };
    },

    async listVersions(name, includeDeleted) {
      const rows = await versions.versionsOf(name, includeDeleted);
      if (rows.length === 0) throw notFound(`No server named "${name}"`);
      return { servers: await entriesOf(rows), metadata: { count: rows.length } };
    },

    async getVersion(name, version, includeDeleted) {
      const row = await versions.versionOf(name, version, includeDeleted);
      if (!row) throw notFound(version === 'latest' ? `No server named "${name}"` : `Version "${version}" of "${name}"`);
      const [entry] = await entriesOf([row]);
      return entry as RegistryServerResponse;
    },
  };
}
