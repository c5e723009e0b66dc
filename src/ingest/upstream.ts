/**
 * What every upstream adapter produces: one record per server and source, already
 * normalized to the contract's shapes and scrubbed of secret values.
 */
import type { Package, Remote, ServerVersion, SourceName, ToolAnnotations, JsonSchemaObject } from '../types.js';

export interface UpstreamTool {
  readonly name: string;
  readonly title: string | null;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  readonly annotations: ToolAnnotations;
}

export interface UpstreamServer {
  readonly source: SourceName;
  /** Identity of the record within its source (official name, Docker name, toolsdk key). */
  readonly key: string;
  /** Canonical name this record proposes for the server. */
  readonly name: string;
  readonly title: string | null;
  readonly description: string;
  readonly version: string | null;
  readonly versions: readonly ServerVersion[];
  readonly repositoryUrl: string | null;
  readonly repositorySubfolder: string | null;
  readonly websiteUrl: string | null;
  readonly license: string | null;
  readonly publishedAt: string | null;
  readonly updatedAt: string | null;
  readonly packages: readonly Package[];
  readonly remotes: readonly Remote[];
  readonly tools: readonly UpstreamTool[];
  /** Category names or tags as the upstream spells them. */
  readonly upstreamCategories: readonly string[];
  /** Whether the upstream declares an OAuth flow. */
  readonly oauth: boolean;
  /** Whether the upstream declares a secret outside env vars and headers (e.g. Docker secrets). */
  readonly declaresSecrets: boolean;
}

/** One upstream record with the (scrubbed) document it came from. */
export interface IngestRecord {
  readonly server: UpstreamServer;
  readonly raw: unknown;
}

/** A record that cannot be read: names the file and the record so the operator can fix it. */
export class IngestError extends Error {
  constructor(
    readonly file: string,
    readonly record: string,
    readonly reason: string,
  ) {
    super(`${file}: record ${record}: ${reason}`);
    this.name = 'IngestError';
  }
}
