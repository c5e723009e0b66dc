/** The write model of one server: what ingest hands the store, materialized from all its sources. */
import type { components } from '../../generated/openapi.js';
import type { Server, Tool } from '../types.js';

export type ServerRecord = Omit<Server, 'tools' | 'sources' | 'links'>;

/** A server as the catalog holds it: the contract's Server but for the links, which the read model adds (src/read/links.ts). */
export type CatalogServer = Omit<Server, 'links'>;

/** One version of a server as a registry published it: its server.json and that registry's metadata of it. */
export interface PublishedVersion {
  readonly version: string;
  /** The server.json as published (scrubbed of credentials). */
  readonly document: Readonly<Record<string, unknown>>;
  readonly status: 'active' | 'deprecated' | 'deleted';
  readonly statusMessage: string | null;
  readonly statusChangedAt: string | null;
  readonly publishedAt: string | null;
  readonly updatedAt: string | null;
  readonly isLatest: boolean;
}

export interface CatalogEntry {
  readonly server: ServerRecord;
  /**
   * Every version an official registry published of it (the MCP Registry API serves them); empty
   * for a server known only from other sources (it is served from its record).
   */
  readonly published: readonly PublishedVersion[];
  readonly tools: readonly Tool[];
  /** Lower-case name forms for exact and prefix name matches in relevance ranking. */
  readonly matchNames: readonly string[];
  /** Text indexed for search besides name, title and description. */
  readonly searchCategories: string;
  readonly searchTools: string;
  /** How many upstream sources list the server: a tie-breaker among equally good name matches. */
  readonly sourceCount: number;
  /**
   * Sextant's block of the server's registry API entries (src/registry-api/catalog-meta.ts), as of
   * no endpoint checks: stored with each version, so a page is served without reading the server.
   */
  readonly registryMeta: components['schemas']['RegistryCatalogMeta'];
  /** Hash of everything above; equal hashes mean nothing to write. */
  readonly contentHash: string;
}
