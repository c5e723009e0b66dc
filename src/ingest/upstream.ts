/**
 * What every upstream adapter produces: one record per server and source, already
 * normalized to the contract's shapes and scrubbed of secret values.
 */
import type { PublishedVersion } from '../catalog/catalog-entry.js';
import type { Package, Remote, ServerVersion, SourceName, ToolAnnotations, JsonSchemaObject } from '../types.js';
import { isObject } from '../json.js';

export interface UpstreamTool {
  readonly name: string;
  readonly title: string | null;
  readonly description: string;
  /** Null when the source names the tool but not its arguments (unknown, not none). */
  readonly inputSchema: JsonSchemaObject | null;
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
  /**
   * The tools the record lists; null when it lists none at all (unknown), which is not the
   * empty list a record (or the monitor's `tools/list`) states.
   */
  readonly tools: readonly UpstreamTool[] | null;
  /** Category names or tags as the upstream spells them. */
  readonly upstreamCategories: readonly string[];
  /** Whether the upstream declares an OAuth flow. */
  readonly oauth: boolean;
  /** Whether the upstream declares a secret outside env vars and headers (e.g. Docker secrets). */
  readonly declaresSecrets: boolean;
  /** Every version an official registry published (official format only; the registry API serves them). */
  readonly published?: readonly PublishedVersion[];
}

/** Whether a stored normalized record (JSON read back) is an upstream server. */
export function isUpstreamServer(value: unknown): value is UpstreamServer {
  return isObject(value) && typeof value.source === 'string' && typeof value.name === 'string' && Array.isArray(value.packages) && Array.isArray(value.versions);
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

/**
 * The longest value each bounded field of the catalog holds (the store's columns are sized by
 * these; PostgreSQL enforces them, SQLite would not), applied at ingest so both databases
 * keep the same catalog.
 */
export const LIMITS = {
  /** A server's canonical name, and so its id (the contract looks servers up by at most 300). */
  name: 300,
  /** A record's identity within its source, and a remote URL (the monitor's source key). */
  key: 500,
  identifier: 500,
  host: 253,
  title: 300,
  version: 100,
  license: 200,
  runtimeHint: 50,
  /** Longer tool names are left out (MCP asks for 1 to 128 characters). */
  toolName: 200,
  /** A merge key longer than this (a very long repository URL) merges nothing. */
  matchKey: 600,
} as const;

/** Length in characters (code points), as PostgreSQL counts a varchar's. */
export const lengthOf = (value: string): number => [...value].length;

/** `value` cut to at most `max` characters, with an ellipsis when it was longer. */
export function clip(value: string, max: number): string;
export function clip(value: string | null, max: number): string | null;
export function clip(value: string | null, max: number): string | null {
  if (value === null || lengthOf(value) <= max) return value;
  return `${[...value].slice(0, max - 1).join('')}…`;
}

/**
 * The tools an upstream list holds, read by `read`: null when there is no list, or a list none
 * of whose items could be read (it states nothing then); an empty list only when it is one.
 */
export function listedTools(value: unknown, read: (item: unknown) => UpstreamTool[]): UpstreamTool[] | null {
  if (!Array.isArray(value)) return null;
  const tools = value.flatMap(read);
  return tools.length === 0 && value.length > 0 ? null : tools;
}

/** Tools fitted to the catalog: over-long names left out, titles clipped. */
export function fitTools(tools: readonly UpstreamTool[]): UpstreamTool[] {
  return tools
    .filter((tool) => lengthOf(tool.name) <= LIMITS.toolName)
    .map((tool) => ({ ...tool, title: clip(tool.title, LIMITS.title), annotations: { ...tool.annotations, title: clip(tool.annotations.title, LIMITS.title) } }));
}

/**
 * A record fitted to the catalog's limits: an identity that does not fit (name, source key,
 * package identifier, remote URL or host) makes the record unreadable, as any malformed record
 * is; display text is clipped; over-long tool names are left out.
 */
export function fitRecord(record: IngestRecord, file: string): IngestRecord {
  const { server } = record;
  const refuse = (what: string, max: number): never => {
    throw new IngestError(file, clip(server.key, 80), `${what} is longer than ${max} characters`);
  };
  if (lengthOf(server.name) > LIMITS.name) refuse('the name', LIMITS.name);
  if (lengthOf(server.key) > LIMITS.key) refuse('the record key', LIMITS.key);
  for (const pkg of server.packages) if (lengthOf(pkg.identifier) > LIMITS.identifier) refuse('a package identifier', LIMITS.identifier);
  for (const remote of server.remotes) {
    if (lengthOf(remote.url) > LIMITS.key) refuse('a remote URL', LIMITS.key);
    if (lengthOf(remote.host) > LIMITS.host) refuse('a remote host', LIMITS.host);
  }
  return {
    ...record,
    server: {
      ...server,
      title: clip(server.title, LIMITS.title),
      version: clip(server.version, LIMITS.version),
      license: clip(server.license, LIMITS.license),
      packages: server.packages.map((pkg) => ({ ...pkg, version: clip(pkg.version, LIMITS.version), runtimeHint: clip(pkg.runtimeHint, LIMITS.runtimeHint) })),
      tools: fittedList(server.tools),
    },
  };
}

/** A record's tools fitted to the catalog; a list all of whose names are too long states nothing. */
function fittedList(tools: readonly UpstreamTool[] | null): UpstreamTool[] | null {
  if (tools === null) return null;
  const fitted = fitTools(tools);
  return fitted.length === 0 && tools.length > 0 ? null : fitted;
}
