/**
 * Sextant's block of a registry API entry (`_meta["local.sextant/catalog"]`, DESIGN.md "Registry
 * API"): what the catalog knows of the entry's server. One function makes it for two callers, so
 * they cannot differ: ingest, which stores it beside each version (a page then needs no read of
 * the server), and the registry API service, for a server the monitor has checked or a version
 * stored without one.
 */
import type { components } from '../../generated/openapi.js';
import { primaryState } from '../discovery/status.js';
import { trustSummary, type TrustSubject } from '../discovery/trust.js';
import type { EndpointCheck } from '../store/index.js';
import type { CatalogServer } from '../catalog/catalog-entry.js';
import type { Tool } from '../types.js';

export type CatalogMeta = components['schemas']['RegistryCatalogMeta'];

/** What the block reads of a server: its record, its tools' names, its records' sources. */
export type CatalogMetaSubject = TrustSubject & Pick<CatalogServer, 'categories' | 'toolCount' | 'authentication'> & { readonly tools: readonly Pick<Tool, 'name'>[] };

/** The block of a server with its tools' annotations and its endpoints' checks (none: as ingest stores it). */
export function catalogMetaOf(server: CatalogMetaSubject, annotations: readonly Pick<Tool, 'annotations'>[], checks: readonly EndpointCheck[]): CatalogMeta {
  return {
    id: server.id,
    categories: [...server.categories],
    toolCount: server.toolCount,
    tools: server.tools.map((t) => t.name),
    authentication: server.authentication,
    // Each source once, in name order: the same from ingest's records and from the stored rows.
    sources: [...new Set(server.sources.map((s) => s.source))].sort(),
    trust: trustSummary(server, annotations, checks),
    status: { state: primaryState(server, checks), checkedAt: checks.map((c) => c.checkedAt).sort().at(-1) ?? null },
  };
}

