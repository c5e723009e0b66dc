/**
 * Merges every source record of one server into the catalog entry the store writes.
 * Sources are given in precedence order (publisher, demo, official, docker, toolsdk): the first one that
 * has a field wins it; lists (packages, remotes, tools, categories) are unions.
 */
import { createHash } from 'node:crypto';
import type { Authentication, Package, Remote, SourceName, Tool, Transport } from '../types.js';
import type { CatalogEntry } from '../catalog/catalog-entry.js';
import { toolIdOf, uniqueId } from '../catalog/ids.js';
import { categorize, TAXONOMY } from '../catalog/taxonomy.js';
import { serverQualityFlags, toolQualityFlags } from '../catalog/quality.js';
import { examineTools } from '../catalog/tool-examination.js';
import { definitionOf } from '../catalog/tool-fingerprint.js';
import { catalogMetaOf } from '../registry-api/catalog-meta.js';
import type { UpstreamServer, UpstreamTool } from './upstream.js';

/** The organisation's own word (its publisher) first: where it states a field, that field is its. */
const SOURCE_ORDER: readonly SourceName[] = ['publisher', 'demo', 'official', 'docker', 'toolsdk', 'monitor'];

/** Sorts source records (a normalized server, or ingest's record of one) by precedence. */
export function byPrecedence(a: { readonly source: SourceName }, b: { readonly source: SourceName }): number {
  return SOURCE_ORDER.indexOf(a.source) - SOURCE_ORDER.indexOf(b.source);
}

/**
 * The entry of server `id` from its source records. `held` is the name the server holds in the
 * catalog (given when it was created, or stored): see `catalogName`.
 */
export function materialize(id: string, records: readonly UpstreamServer[], held?: string): CatalogEntry {
  // Ties within a source by name and key: the entry must not depend on the order records came in.
  const sources = [...records].sort((a, b) => byPrecedence(a, b) || compareText(a.name, b.name) || compareText(a.key, b.key));
  const primary = sources[0];
  if (!primary) throw new Error(`server ${id} has no sources`);
  const { server: record, upstreamTools } = serverRecordOf(id, primary, sources, held);
  const { tools, toolsFingerprint, toolFindings } = toolsOf(id, primary.name, upstreamTools, record.authentication);
  // Whether its tools changed since first seen is what the stored history says, which the
  // catalog writer keeps: a record alone cannot tell.
  const server = { ...record, toolsFingerprint, toolsChangedAt: null, toolFindings };
  const categoryNames = server.categories.map((slug) => TAXONOMY.find((c) => c.slug === slug)?.name ?? slug);
  const entry = {
    server,
    // The versions an official registry published, from the first source that has them.
    published: sources.find((s) => (s.published?.length ?? 0) > 0)?.published?.slice() ?? [],
    tools,
    matchNames: matchNamesOf(primary.name, sources.map((s) => s.name), server.title),
    searchCategories: [...categoryNames, ...unique(sources.flatMap((s) => s.upstreamCategories))].join(' '),
    searchTools: tools.map((t) => `${t.name.replace(/[_-]+/g, ' ')} ${t.description}`).join(' \n'),
    sourceCount: sources.filter((s) => s.source !== 'monitor').length,
    registryMeta: catalogMetaOf({ ...server, tools, sources }, tools, []),
  };
  return { ...entry, contentHash: hashOf(entry) };
}

/** The server's record from its sources in precedence order (`primary` first), with the tools it lists. */
function serverRecordOf(id: string, primary: UpstreamServer, sources: readonly UpstreamServer[], held: string | undefined) {
  const first = <T>(pick: (s: UpstreamServer) => T | null): T | null => {
    for (const source of sources) {
      const value = pick(source);
      if (value !== null && value !== '') return value;
    }
    return null;
  };
  const packages = unionBy(sources.flatMap((s) => s.packages), (p) => `${p.registryType}:${p.identifier.toLowerCase()}`);
  // One endpoint however each source wrote its URL (`https://x` and `https://x/`): the first source's form stays.
  const remotes = unionBy(sources.flatMap((s) => s.remotes), (r) => endpointKey(r.url));
  // Tools an endpoint listed itself (the monitor) describe it best; then the catalogs in order.
  // A record that lists no tools (null) adds none and states no count.
  const listing = sources.filter((s) => s.tools !== null);
  const live = listing.filter((s) => s.source === 'monitor');
  const upstreamTools = unionBy([...live, ...listing.filter((s) => s.source !== 'monitor')].flatMap((s) => (s.tools ?? []).map((tool) => ({ ...tool, source: s.source }))), (t) => t.name);
  const dates = sources.flatMap((s) => [s.publishedAt]).filter((d): d is string => d !== null).sort();
  const updates = sources.map((s) => s.updatedAt).filter((d): d is string => d !== null).sort();
  const title = first((s) => s.title);
  const description = first((s) => s.description) ?? '';
  // Each source's first upstream value is its category, the rest tags (src/catalog/taxonomy.ts).
  const upstream = { upstream: sources.flatMap((s) => s.upstreamCategories.slice(0, 1)), tags: sources.flatMap((s) => s.upstreamCategories.slice(1)) };
  const server = {
    id,
    name: catalogName(primary.name, held),
    title,
    description,
    domain: remotes[0]?.host ?? null,
    version: first((s) => s.version),
    categories: categorize({ ...upstream, name: primary.name, title, description, tools: upstreamTools }),
    transports: unique<Transport>([...packages.map((p) => p.transport), ...remotes.map((r) => r.transport)]),
    endpointCount: remotes.length,
    toolCount: listing.length > 0 ? upstreamTools.length : null,
    authentication: authenticationOf(sources, packages, remotes),
    repositoryUrl: first((s) => s.repositoryUrl),
    publishedAt: dates[0] ?? null,
    updatedAt: updates.at(-1) ?? dates.at(-1) ?? null,
    websiteUrl: first((s) => s.websiteUrl),
    license: first((s) => s.license),
    versions: sources.find((s) => s.versions.length > 0)?.versions.slice() ?? [],
    packages,
    remotes,
    // What the record says of itself; `duplicate` needs the catalog's other names (src/store/quality-flags.ts).
    quality: { flags: serverQualityFlags({ name: primary.name, title, description }) },
  };
  return { server, upstreamTools };
}

/**
 * A server's name: its primary record's, unless it holds a numbered form of that name (`name-2`),
 * given when it was created because another server had the name (placement.ts `freeValue`):
 * that server still has it (ingest removes no server), so this one keeps its own.
 */
export function catalogName(primary: string, held: string | undefined): string {
  if (held === undefined || !held.startsWith(`${primary}-`)) return primary;
  return /^[0-9]+$/.test(held.slice(primary.length + 1)) ? held : primary;
}

/** The server's tools, each with the source that listed it, its fingerprint and what the scan found in it (tool-examination.ts). */
function toolsOf(serverId: string, serverName: string, upstream: ReadonlyArray<UpstreamTool & { readonly source: SourceName }>, authentication: Authentication) {
  const definitions = upstream.map((tool) => definitionOf({ ...tool, title: tool.title ?? tool.annotations.title }));
  const examined = examineTools(definitions);
  const ids = new Set<string>();
  const tools: Tool[] = definitions.map((definition, i) => {
    const id = uniqueId(toolIdOf(serverId, definition.name), (candidate) => ids.has(candidate));
    ids.add(id);
    const { fingerprint = '', findings = [] } = examined.tools[i] ?? {};
    return { id, ...definition, serverId, serverName, authentication, source: upstream[i]?.source ?? null, fingerprint, findings, quality: { flags: toolQualityFlags(definition.name) } };
  });
  return { tools, toolsFingerprint: examined.toolsFingerprint, toolFindings: examined.toolFindings };
}

/**
 * What a caller needs (DESIGN.md "Authentication requirement"): an OAuth flow when any source
 * declares one; an API key when anything secret must be supplied; none when a local package
 * runs without secrets; unknown for remote endpoints that declare nothing.
 */
function authenticationOf(sources: readonly UpstreamServer[], packages: readonly Package[], remotes: readonly Remote[]): Authentication {
  if (sources.some((s) => s.oauth)) return 'oauth';
  const secretVariable = packages.some((p) => p.environmentVariables.some((v) => v.isSecret && v.isRequired) || p.arguments.some((a) => a.isSecret && a.isRequired));
  const secretHeader = remotes.some((r) => r.headers.some((h) => h.isSecret));
  if (secretVariable || secretHeader || sources.some((s) => s.declaresSecrets)) return 'api_key';
  if (packages.length > 0) return 'none';
  return 'unknown';
}

/**
 * Name forms a query can match exactly: full name, last segment, that without "mcp"/"server",
 * title, and the publisher of a reverse-DNS namespace (`com.stripe/mcp` → `stripe`).
 */
function matchNamesOf(name: string, otherNames: readonly string[], title: string | null): string[] {
  const forms = new Set<string>();
  const namespace = name.includes('/') ? (name.split('/')[0] ?? '').toLowerCase().split('.') : [];
  const publisher = namespace[0] === 'io' && namespace[1] === 'github' ? namespace[2] : namespace.length > 1 ? namespace[1] : undefined;
  if (publisher) forms.add(publisher);
  for (const candidate of [name, ...otherNames, title ?? '']) {
    const lower = candidate.trim().toLowerCase();
    if (!lower) continue;
    forms.add(lower);
    const last = lower.split('/').at(-1) ?? lower;
    forms.add(last);
    const core = last
      .replace(/\((archived|deprecated)\)/g, '')
      .replace(/[\s_.-]*(mcp[\s_.-]*server|mcp|server)$/g, '')
      .replace(/^(mcp|server)[\s_.-]*(server)?[\s_.-]*/g, '')
      .trim();
    if (core) forms.add(core);
    forms.add(core.replace(/[\s_.-]+/g, ' '));
  }
  forms.delete('');
  return [...forms].sort();
}

function unionBy<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(keyOf(item))) seen.set(keyOf(item), item);
  return [...seen.values()];
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

/** Strings in code-unit order, the same in every locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** SHA-256 of a value's JSON. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

/** A remote URL in its parsed form, so that forms of one endpoint compare equal. */
function endpointKey(url: string): string {
  try {
    return new URL(url).toString();
  } catch {
    return url;
  }
}
