/**
 * A catalog entry as the rows the catalog writer stores, table by table. Ingest turns each entry
 * into rows as soon as it is materialized, so what waits for the database is flat arrays of text
 * and numbers the garbage collector need not trace. Row numbers (`seq`) are given by the writer.
 */
import { browseNameOf } from '../catalog/browse-name.js';
import type { CatalogEntry } from '../catalog/catalog-entry.js';
import { withoutNamespace } from '../catalog/namespace.js';
import { serverSearchRow, toolSearchRow } from '../catalog/search-text.js';
import { definitionOf } from '../catalog/tool-fingerprint.js';
import type { Row } from './bulk-insert.js';
import { versionRowsOf } from './registry-versions.js';

/** The columns of `servers` a server's content fills, in the order of `ServerRows.server`. */
export const SERVER_COLUMNS = [
  'name', 'title', 'description', 'domain', 'version', 'versions', 'categories', 'transports', 'endpoint_count', 'tool_count', 'authentication',
  'repository_url', 'website_url', 'license', 'published_at', 'updated_at', 'sort_name', 'match_names', 'source_count', 'content_hash', 'modified_at',
  'tools_fingerprint', 'tool_findings', 'quality_flags', 'flagged', 'browse_name',
] as const;

/** One tool definition as `tool_history` keeps it (tool-history.ts). */
export interface DefinitionRow {
  readonly name: string;
  readonly fingerprint: string;
  /** The contract's ToolDefinition as JSON text. */
  readonly definition: string;
  /** The source that listed it; null when the catalog has not recorded it. */
  readonly source: string | null;
}

/** One server's rows, without the row numbers of `servers`, `servers_fts`, `tools` and `tools_fts`. */
export interface ServerRows {
  readonly id: string;
  readonly name: string;
  /** The entry's content hash (also in `server`): equal hashes mean nothing to write. */
  readonly contentHash: string;
  /** When the rows were made for (the run's time): a new server's `created_at` too. */
  readonly changedAt: string;
  /** Values of SERVER_COLUMNS. */
  readonly server: Row;
  /** `servers_fts` but for its rowid (the server's seq). */
  readonly serverFts: Row;
  readonly categories: readonly Row[];
  readonly remotes: readonly Row[];
  readonly packages: readonly Row[];
  /** `tools` but for the leading seq, which `toolFts` shares as its rowid. */
  readonly tools: readonly Row[];
  readonly toolFts: readonly Row[];
  readonly registryVersions: readonly Row[];
  /** Its tools' definitions, for their history. */
  readonly definitions: readonly DefinitionRow[];
}

/** The rows of `entry`, changed at `now`. */
export function serverRowsOf(entry: CatalogEntry, now: string): ServerRows {
  const { server } = entry;
  const shortName = withoutNamespace(server.name);
  return {
    id: server.id,
    name: server.name,
    contentHash: entry.contentHash,
    changedAt: now,
    server: [
      server.name, server.title, server.description, server.domain, server.version, JSON.stringify(server.versions), JSON.stringify(server.categories),
      JSON.stringify(server.transports), server.endpointCount, server.toolCount, server.authentication, server.repositoryUrl, server.websiteUrl,
      server.license, server.publishedAt, server.updatedAt, (server.title ?? server.name).toLowerCase(), `\n${entry.matchNames.join('\n')}\n`,
      entry.sourceCount, entry.contentHash, now, server.toolsFingerprint, server.toolFindings, JSON.stringify(server.quality.flags),
      server.quality.flags.length > 0 ? 1 : 0, browseNameOf(server.title ?? server.name),
    ],
    serverFts: serverSearchRow(shortName, server.title ?? '', server.description, entry.searchCategories, entry.searchTools),
    categories: server.categories.map((slug) => [slug, server.id]),
    remotes: server.remotes.map((remote, position) => [server.id, position, remote.transport, remote.url, remote.host, JSON.stringify(remote.headers)]),
    packages: server.packages.map((pkg, position) => [
      server.id, position, pkg.registryType, pkg.identifier, pkg.version, pkg.runtimeHint, pkg.transport, JSON.stringify(pkg.environmentVariables),
      JSON.stringify(pkg.arguments),
    ]),
    tools: entry.tools.map((tool, position) => [
      tool.id, server.id, position, tool.name, tool.title, tool.description, tool.inputSchema === null ? null : JSON.stringify(tool.inputSchema), JSON.stringify(tool.annotations),
      tool.authentication, tool.name.toLowerCase(), tool.source, tool.fingerprint, JSON.stringify(tool.findings), JSON.stringify(tool.quality.flags),
      tool.quality.flags.length > 0 ? 1 : 0, browseNameOf(tool.name),
    ]),
    toolFts: entry.tools.map((tool) => toolSearchRow(tool.name.replace(/[_-]+/g, ' '), tool.title ?? '', tool.description, `${shortName} ${server.title ?? ''}`, tool.inputSchema)),
    registryVersions: versionRowsOf(entry, now),
    definitions: entry.tools.map((tool) => ({ name: tool.name, fingerprint: tool.fingerprint, definition: JSON.stringify(definitionOf(tool)), source: tool.source })),
  };
}
