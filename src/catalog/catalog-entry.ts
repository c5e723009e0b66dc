/** The write model of one server: what ingest hands the store, materialized from all its sources. */
import type { Server, Tool } from '../types.js';

export type ServerRecord = Omit<Server, 'tools' | 'sources' | 'links'>;

/** A server as the catalog holds it: the contract's Server but for the links, which the read model adds (src/read/links.ts). */
export type CatalogServer = Omit<Server, 'links'>;

export interface CatalogEntry {
  readonly server: ServerRecord;
  readonly tools: readonly Tool[];
  /** Lower-case name forms for exact and prefix name matches in relevance ranking. */
  readonly matchNames: readonly string[];
  /** Text indexed for search besides name, title and description. */
  readonly searchCategories: string;
  readonly searchTools: string;
  /** How many upstream sources list the server: a tie-breaker among equally good name matches. */
  readonly sourceCount: number;
  /** Hash of everything above; equal hashes mean nothing to write. */
  readonly contentHash: string;
}
