/**
 * Sextant's block of a registry API entry (`_meta["local.sextant/catalog"]`, DESIGN.md "Registry
 * API"): what the catalog knows of the entry's server. One function makes it for two callers, so
 * they cannot differ: ingest, which stores it beside each version (a page then needs no read of
 * the server), and the registry API service, for a server the monitor has checked or a version
 * stored without one.
 */
import type { components } from '../../generated/openapi.js';
import { primaryState } from '../discovery/status.js';
import { trustSummary, type TrustSubject, type TrustTool } from '../discovery/trust.js';
import type { EndpointCheck } from '../store/index.js';
import type { CatalogServer } from '../catalog/catalog-entry.js';
import type { Tool } from '../types.js';

export type CatalogMeta = components['schemas']['RegistryCatalogMeta'];

/** What the block reads of a server: its record, its tools' names, its records' sources. */
export type CatalogMetaSubject = TrustSubject & Pick<CatalogServer, 'categories' | 'toolCount' | 'authentication' | 'toolsFingerprint'> & {
  readonly tools: readonly Pick<Tool, 'name'>[];
};

/** The block of a server with its tools (what trust reads of them, and their fingerprints) and its endpoints' checks (none: as ingest stores it). */
export function catalogMetaOf(server: CatalogMetaSubject, scanned: readonly (TrustTool & Pick<Tool, 'name' | 'fingerprint'>)[], checks: readonly EndpointCheck[]): CatalogMeta {
  const findings = scanned.flatMap((t) => t.findings);
  const count = (severity: string): number => findings.filter((f) => f.severity === severity).length;
  return {
    id: server.id,
    categories: [...server.categories],
    toolCount: server.toolCount,
    tools: server.tools.map((t) => t.name),
    toolsFingerprint: server.toolsFingerprint,
    // A list, not an object by name: a tool named like a credential would have its value scrubbed as one.
    toolFingerprints: scanned.map((t) => ({ name: t.name, fingerprint: t.fingerprint })),
    findings: scanned.length === 0 ? null : { high: count('high'), medium: count('medium'), low: count('low') },
    authentication: server.authentication,
    // Each source once, in name order: the same from ingest's records and from the stored rows.
    sources: [...new Set(server.sources.map((s) => s.source))].sort(),
    trust: trustSummary(server, scanned, checks),
    status: { state: primaryState(server, checks), checkedAt: checks.map((c) => c.checkedAt).sort().at(-1) ?? null },
  };
}

