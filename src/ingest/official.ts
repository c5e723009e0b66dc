/**
 * The official MCP registry format: the `/v0.1/servers` list envelope and plain `server.json`
 * documents. Several versions of one name become one record at the latest version.
 */
import type { EnvironmentVariable, Package, PackageArgument, Remote, RemoteHeader, ServerVersion, SourceName, Transport } from '../types.js';
import type { PublishedVersion } from '../catalog/catalog-entry.js';
import { isSecretName, scrubValue } from '../catalog/secrets.js';
import { annotations, asArray, asObject, flag, httpUrl, isObject, objectSchema, remote, text, timestamp, type JsonObject } from './upstream-fields.js';
import { IngestError, listedTools, type IngestRecord, type UpstreamTool } from './upstream.js';

const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';
const PUBLISHER_META = 'io.modelcontextprotocol.registry/publisher-provided';
const REGISTRY_TYPES = ['npm', 'pypi', 'oci', 'nuget', 'mcpb'] as const;

/** One entry of an official document: a server version with its registry metadata. */
export interface OfficialEntry {
  readonly server: JsonObject;
  readonly meta: JsonObject;
  readonly label: string;
}
type Entry = OfficialEntry;

/** Whether a parsed document is in the official format (envelope or single server.json). */
export function isOfficialDocument(doc: unknown): boolean {
  if (isObject(doc) && Array.isArray(doc.servers)) return true;
  return isObject(doc) && typeof doc.name === 'string' && typeof doc.version === 'string' && ('packages' in doc || 'remotes' in doc || '$schema' in doc);
}

/** Reads an official document; `source` is `official`, `demo` for the bundled catalog, or `publisher` for the servers published here. */
export function readOfficial(doc: unknown, file: string, source: SourceName): IngestRecord[] {
  const entries: Entry[] = isObject(doc) && Array.isArray(doc.servers)
    ? doc.servers.map((item, index) => listEntry(item, index, file))
    : [{ server: asObject(doc), meta: asObject(asObject(asObject(doc)._meta)[OFFICIAL_META]), label: `#0 (${String(asObject(doc).name ?? '?')})` }];

  const byName = new Map<string, Entry[]>();
  for (const entry of entries) {
    const name = entryName(entry, file);
    if (name === null) continue;
    byName.set(name, [...(byName.get(name) ?? []), entry]);
  }
  return [...byName.entries()].flatMap(([name, versions]) => officialRecord(name, versions, file, source) ?? []);
}

/** The entry at `index` of a `/v0.1/servers` list (`{server, _meta}`, or a bare server). */
export function listEntry(item: unknown, index: number, file: string): OfficialEntry {
  if (!isObject(item)) throw new IngestError(file, `#${index}`, 'entry is not an object');
  const server = isObject(item.server) ? item.server : item;
  return { server, meta: asObject(asObject(item._meta)[OFFICIAL_META]), label: `#${index} (${String(server.name ?? '?')})` };
}

/** The entry's canonical name once it is checked. */
export function entryName(entry: OfficialEntry, file: string): string {
  const name = text(entry.server.name);
  if (!name || !name.includes('/')) throw new IngestError(file, entry.label, 'name must be a namespaced string like "io.github.owner/server"');
  if (typeof entry.server.description !== 'string') throw new IngestError(file, entry.label, 'description must be a string');
  if (!text(entry.server.version)) throw new IngestError(file, entry.label, 'version must be a non-empty string');
  return name;
}

const isDeleted = (entry: Entry): boolean => text(entry.meta.status) === 'deleted';

/**
 * One record from every version of a name: the latest live one's data, the others listed under
 * `versions`; every version, deleted ones too, under `published` (the registry API serves them
 * with `include_deleted`). Null when every version is deleted: no server then.
 */
export function officialRecord(name: string, all: readonly Entry[], file: string, source: SourceName): IngestRecord | null {
  const entries = all.filter((entry) => !isDeleted(entry));
  if (entries.length === 0) return null;
  const ordered = [...entries].sort(compareEntries);
  const latest = ordered.find((entry) => entry.meta.isLatest === true) ?? ordered[0];
  if (!latest) throw new IngestError(file, name, 'no versions');
  const { server, label } = latest;
  const versions: ServerVersion[] = ordered.map((entry) => ({
    version: text(entry.server.version) ?? '',
    publishedAt: timestamp(entry.meta.publishedAt),
    isLatest: entry === latest,
  }));
  const published = versions.map((v) => v.publishedAt).filter((v): v is string => v !== null).sort();
  const repository = asObject(server.repository);
  return {
    raw: server,
    server: {
      source,
      key: name,
      name,
      title: text(server.title),
      description: text(server.description) ?? '',
      version: text(server.version),
      versions,
      repositoryUrl: httpUrl(repository.url),
      repositorySubfolder: text(repository.subfolder),
      websiteUrl: httpUrl(server.websiteUrl),
      license: null,
      publishedAt: published[0] ?? null,
      updatedAt: timestamp(latest.meta.updatedAt) ?? published.at(-1) ?? null,
      packages: asArray(server.packages).map((pkg, index) => readPackage(pkg, file, `${label} package ${index}`)),
      remotes: asArray(server.remotes).flatMap((remote) => readRemote(remote)),
      tools: readTools(asObject(asObject(server._meta)[PUBLISHER_META]).tools),
      upstreamCategories: [],
      oauth: false,
      declaresSecrets: false,
      published: [...all].sort(compareEntries).map((entry) => publishedOf(entry, entry === latest)),
    },
  };
}

const STATUSES = ['active', 'deprecated', 'deleted'] as const;

/** One version as its registry published it: the server.json (scrubbed) and that registry's metadata of it. */
function publishedOf(entry: Entry, isLatest: boolean): PublishedVersion {
  const status = STATUSES.find((s) => s === entry.meta.status) ?? 'active';
  return {
    version: text(entry.server.version) ?? '',
    document: scrubValue(entry.server),
    status,
    statusMessage: text(entry.meta.statusMessage),
    statusChangedAt: timestamp(entry.meta.statusChangedAt),
    publishedAt: timestamp(entry.meta.publishedAt),
    updatedAt: timestamp(entry.meta.updatedAt),
    isLatest,
  };
}

/** Newest first: by publication date, then by version string. */
function compareEntries(a: Entry, b: Entry): number {
  const dateA = timestamp(a.meta.publishedAt) ?? '';
  const dateB = timestamp(b.meta.publishedAt) ?? '';
  if (dateA !== dateB) return dateA < dateB ? 1 : -1;
  return String(b.server.version).localeCompare(String(a.server.version), 'en', { numeric: true });
}

function readPackage(value: unknown, file: string, label: string): Package {
  const pkg = asObject(value);
  const registryType = REGISTRY_TYPES.find((type) => type === pkg.registryType);
  const identifier = text(pkg.identifier);
  if (!registryType || !identifier) throw new IngestError(file, label, 'package needs a known registryType and an identifier');
  return {
    registryType,
    identifier,
    version: text(pkg.version),
    runtimeHint: text(pkg.runtimeHint),
    transport: transportOf(asObject(pkg.transport).type),
    environmentVariables: asArray(pkg.environmentVariables).flatMap(readVariable),
    arguments: [
      ...asArray(pkg.runtimeArguments).flatMap((arg) => readArgument(arg, 'runtime')),
      ...asArray(pkg.packageArguments).flatMap((arg) => readArgument(arg, 'package')),
    ],
  };
}

function transportOf(value: unknown): Transport {
  return value === 'streamable-http' || value === 'sse' ? value : 'stdio';
}

export function readVariable(value: unknown): EnvironmentVariable[] {
  const raw = asObject(value);
  const name = text(raw.name);
  if (!name) return [];
  const isSecret = flag(raw.isSecret) ?? isSecretName(name);
  // A value is dropped when the variable is declared secret or merely named like one.
  const fallback = isSecret || isSecretName(name) ? null : text(raw.default);
  return [{
    name,
    description: text(raw.description) ?? '',
    isRequired: flag(raw.isRequired) ?? false,
    isSecret,
    ...(fallback !== null ? { default: fallback } : {}),
  }];
}

function readArgument(value: unknown, kind: PackageArgument['kind']): PackageArgument[] {
  const raw = asObject(value);
  const type = raw.type === 'named' ? 'named' : 'positional';
  const name = text(raw.name);
  const namedSecret = name !== null && isSecretName(name);
  const isSecret = flag(raw.isSecret) ?? namedSecret;
  const fixed = isSecret || namedSecret ? null : (text(raw.value) ?? text(raw.default));
  const valueHint = text(raw.valueHint);
  if (type === 'named' && !name) return [];
  return [{
    kind,
    type,
    ...(name !== null ? { name } : {}),
    ...(fixed !== null ? { value: fixed } : {}),
    ...(valueHint !== null ? { valueHint } : {}),
    description: text(raw.description) ?? '',
    isRequired: flag(raw.isRequired) ?? false,
    isSecret,
  }];
}

function readRemote(value: unknown): Remote[] {
  const raw = asObject(value);
  return remote(raw.url, raw.type, asArray(raw.headers).flatMap(readHeader));
}

function readHeader(value: unknown): RemoteHeader[] {
  const raw = asObject(value);
  const name = text(raw.name);
  if (!name) return [];
  return [{
    name,
    description: text(raw.description) ?? '',
    isRequired: flag(raw.isRequired) ?? false,
    isSecret: flag(raw.isSecret) ?? isSecretName(name),
  }];
}

/** The tools a publisher lists in its `_meta`; null when it lists none (the official schema has no tools). */
function readTools(value: unknown): UpstreamTool[] | null {
  return listedTools(value, (item) => {
    const raw = asObject(item);
    const name = text(raw.name);
    if (!name) return [];
    const title = text(raw.title) ?? text(asObject(raw.annotations).title);
    return [{
      name,
      title,
      description: text(raw.description) ?? '',
      // A publisher that names a tool without its schema states nothing of its arguments.
      inputSchema: raw.inputSchema === undefined ? null : objectSchema(raw.inputSchema),
      annotations: annotations(raw.annotations),
    }];
  });
}

