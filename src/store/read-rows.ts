/**
 * The catalog's rows as the database returns them, and their mapping to the contract's shapes:
 * at the boundary, once, for the lookups and for every search engine.
 */
import type { Authentication, Server, ServerSummary, Tool } from '../types.js';

export interface ServerRow {
  seq: number; id: string; name: string; title: string | null; description: string; domain: string | null; version: string | null;
  versions: string; categories: string; transports: string; endpoint_count: number; tool_count: number | null;
  authentication: Authentication; repository_url: string | null; website_url: string | null; license: string | null;
  published_at: string | null; updated_at: string | null; quality_flags: string;
}

/** A server's whole row (`s.*`): its summary's columns and the rest a record shows. */
export interface WholeServerRow extends ServerRow {
  tools_fingerprint: string | null; tools_changed_at: string | null; tool_findings: number | null;
}

export interface RemoteRow { transport: 'streamable-http' | 'sse'; url: string; host: string; headers: string }

export interface PackageRow {
  registry_type: Server['packages'][number]['registryType']; identifier: string; version: string | null; runtime_hint: string | null;
  transport: Server['packages'][number]['transport']; environment_variables: string; arguments: string;
}

export interface ToolRow {
  seq: number; id: string; name: string; title: string | null; description: string; server_id: string; server_name: string;
  input_schema: string | null; annotations: string; authentication: Authentication; source: Tool['source']; fingerprint: string; findings: string;
  quality_flags: string;
}

/** What a summary reads, from `servers s` (not the versions list, names index or hashes a search page never shows). */
export const SUMMARY_COLUMNS = ['seq', 'id', 'name', 'title', 'description', 'domain', 'version', 'categories', 'transports', 'endpoint_count', 'tool_count', 'authentication', 'repository_url', 'published_at', 'updated_at', 'quality_flags']
  .map((column) => `s.${column}`)
  .join(', ');

/** What a tool reads, from `tools t JOIN servers s`. */
export const TOOL_COLUMNS = ['t.id', 't.name', 't.title', 't.description', 't.server_id', 's.name as server_name', 't.input_schema', 't.annotations', 't.authentication', 't.source', 't.fingerprint', 't.findings', 't.quality_flags'];

export function toSummary(row: ServerRow): ServerSummary {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    description: row.description,
    domain: row.domain,
    version: row.version,
    categories: JSON.parse(row.categories),
    transports: JSON.parse(row.transports),
    endpointCount: Number(row.endpoint_count),
    // Null stays null: no source or check listed the tools (Number(null) would say 0).
    toolCount: row.tool_count === null ? null : Number(row.tool_count),
    authentication: row.authentication,
    repositoryUrl: row.repository_url,
    publishedAt: row.published_at,
    updatedAt: row.updated_at,
    quality: { flags: JSON.parse(row.quality_flags) },
  };
}

export function toTool(row: ToolRow): Tool {
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    description: row.description,
    serverId: row.server_id,
    serverName: row.server_name,
    inputSchema: row.input_schema === null ? null : JSON.parse(row.input_schema),
    annotations: JSON.parse(row.annotations),
    authentication: row.authentication,
    source: row.source,
    fingerprint: row.fingerprint,
    findings: JSON.parse(row.findings),
    quality: { flags: JSON.parse(row.quality_flags) },
  };
}
