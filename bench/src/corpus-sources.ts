/**
 * The real records the benchmark corpus is recombined from: descriptions, titles, names,
 * owners, categories, tools, environment variable names and remote hosts from the official
 * registry snapshot, the Docker catalog and the toolsdk export in ../shared/data.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export type Json = Record<string, unknown>;

export interface ToolTemplate {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Json;
  readonly annotations: Json;
}

export interface ServerTemplate {
  /** Upstream category as the source spells it (`official` for official records, which have none). */
  readonly category: string;
  readonly title: string | null;
  readonly description: string;
  /** The last name segment as a slug (`github-mcp-server`). */
  readonly stem: string;
  /** The GitHub owner of its repository, when known. */
  readonly owner: string | null;
  readonly tools: readonly ToolTemplate[];
}

export interface VariableTemplate {
  readonly name: string;
  readonly description: string;
}

export interface SourcePools {
  readonly templates: readonly ServerTemplate[];
  readonly byCategory: ReadonlyMap<string, readonly ServerTemplate[]>;
  /** Every distinct tool of the category's templates. */
  readonly toolsByCategory: ReadonlyMap<string, readonly ToolTemplate[]>;
  readonly allTools: readonly ToolTemplate[];
  /** Reverse-DNS namespaces of official names that are not `io.github.*` (`com.stripe`). */
  readonly namespaces: readonly string[];
  readonly owners: readonly string[];
  readonly remoteHosts: readonly string[];
  readonly secretVariables: readonly VariableTemplate[];
  readonly plainVariables: readonly VariableTemplate[];
  /** Package registry types with their count in the official snapshot. */
  readonly registryTypes: readonly { readonly type: string; readonly weight: number }[];
}

const FILES = {
  official: 'official-registry-v0.1-snapshot-2025-12.json',
  docker: 'docker-mcp-catalog-servers.json',
  toolsdk: 'toolsdk-mcp-registry-servers.json',
} as const;

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function obj(value: unknown): Json {
  return isJson(value) ? value : {};
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** Lower-case `[a-z0-9-]` slug, at most 40 characters. */
export function slug(text: string): string {
  return text.toLowerCase().replace(/^@[^/]+\//, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40).replace(/-+$/, '');
}

function githubOwner(url: unknown): string | null {
  const match = /^https?:\/\/(?:www\.)?github\.com\/([^/]+)\//i.exec(str(url) ?? '');
  const owner = match?.[1] ? slug(match[1]) : '';
  return owner === '' ? null : owner;
}

/** Read-only and destructive hints guessed from the tool's verb, as many publishers declare them. */
function guessedAnnotations(name: string): Json {
  const verb = name.toLowerCase().split(/[_\-.\s]|(?=[A-Z])/)[0] ?? '';
  if (/^(get|list|search|read|fetch|find|query|describe|show|lookup|check)$/.test(verb)) return { readOnlyHint: true };
  if (/^(delete|remove|drop|destroy|purge)$/.test(verb)) return { readOnlyHint: false, destructiveHint: true };
  return {};
}

/** A Docker tool's `arguments[]` as a JSON Schema object. */
function schemaOfArguments(args: unknown[]): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const arg of args.map(obj)) {
    const name = str(arg.name);
    if (!name) continue;
    properties[name] = { type: str(arg.type) ?? 'string', description: str(arg.desc) ?? '' };
    if (arg.optional !== true) required.push(name);
  }
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

function dockerTool(value: unknown): ToolTemplate[] {
  const raw = obj(value);
  const name = str(raw.name);
  if (!name) return [];
  const schema = isJson(raw.inputSchema) ? raw.inputSchema : schemaOfArguments(list(raw.arguments));
  const annotations = isJson(raw.annotations) ? raw.annotations : guessedAnnotations(name);
  return [{ name, description: str(raw.description) ?? '', inputSchema: schema, annotations }];
}

function toolsdkTool(value: unknown): ToolTemplate[] {
  const raw = obj(value);
  const name = str(raw.name);
  if (!name) return [];
  return [{ name, description: str(raw.description) ?? '', inputSchema: { type: 'object', properties: {} }, annotations: guessedAnnotations(name) }];
}

async function readJson(dir: string, file: string): Promise<unknown> {
  return JSON.parse(await readFile(join(dir, file), 'utf8'));
}

/** What the three files hold besides the server templates, gathered while they are read. */
class Gathered {
  readonly templates: ServerTemplate[] = [];
  readonly owners = new Set<string>();
  readonly namespaces = new Set<string>();
  readonly hosts = new Set<string>();
  readonly secretVariables = new Map<string, VariableTemplate>();
  readonly plainVariables = new Map<string, VariableTemplate>();
  readonly registryCounts = new Map<string, number>();

  addOwner(owner: string | null): void {
    if (owner) this.owners.add(owner);
  }

  addVariable(name: string | null, description: string | null, secret: boolean): void {
    if (!name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return;
    (secret ? this.secretVariables : this.plainVariables).set(name, { name, description: description ?? '' });
  }
}

/** Loads and indexes the three real data files. */
export async function loadSourcePools(dataDir: string): Promise<SourcePools> {
  const [official, docker, toolsdk] = await Promise.all([readJson(dataDir, FILES.official), readJson(dataDir, FILES.docker), readJson(dataDir, FILES.toolsdk)]);
  const gathered = new Gathered();
  readOfficial(gathered, official);
  readDocker(gathered, docker);
  readToolsdk(gathered, toolsdk);
  return poolsOf(gathered);
}

function readOfficial(into: Gathered, official: unknown): void {
  for (const entry of list(obj(official).servers).map(obj)) {
    const server = obj(entry.server);
    const name = str(server.name) ?? '';
    const namespace = name.split('/')[0] ?? '';
    if (namespace !== '' && !namespace.startsWith('io.github.')) into.namespaces.add(namespace);
    const owner = githubOwner(obj(server.repository).url) ?? (namespace.startsWith('io.github.') ? slug(namespace.slice(10)) : null);
    into.addOwner(owner);
    for (const remote of list(server.remotes).map(obj)) {
      try {
        into.hosts.add(new URL(str(remote.url) ?? '').hostname);
      } catch {
        // not a URL: skip it
      }
    }
    for (const pkg of list(server.packages).map(obj)) {
      const type = str(pkg.registryType);
      if (type) into.registryCounts.set(type, (into.registryCounts.get(type) ?? 0) + 1);
      for (const variable of list(pkg.environmentVariables).map(obj)) into.addVariable(str(variable.name), str(variable.description), variable.isSecret === true);
    }
    if (obj(obj(entry._meta)['io.modelcontextprotocol.registry/official']).isLatest !== true) continue;
    const description = str(server.description);
    if (!description) continue;
    into.templates.push({ category: 'official', title: str(server.title), description, stem: slug(name.split('/').at(-1) ?? name) || 'server', owner, tools: [] });
  }
}

function readDocker(into: Gathered, docker: unknown): void {
  for (const raw of list(docker).map(obj)) {
    const about = obj(raw.about);
    const description = str(about.description);
    const owner = githubOwner(obj(raw.source).project);
    into.addOwner(owner);
    for (const secret of list(obj(raw.config).secrets).map(obj)) into.addVariable(str(secret.env), str(secret.name), true);
    if (!description) continue;
    into.templates.push({
      category: (str(obj(raw.meta).category) ?? 'other').toLowerCase(),
      title: str(about.title),
      description,
      stem: slug(str(raw.name) ?? 'server') || 'server',
      owner,
      tools: list(raw.tools).flatMap(dockerTool),
    });
  }
}

function readToolsdk(into: Gathered, toolsdk: unknown): void {
  for (const raw of list(toolsdk).map(obj)) {
    const description = str(raw.description);
    const owner = githubOwner(raw.url);
    into.addOwner(owner);
    for (const [name, spec] of Object.entries(obj(raw.env))) into.addVariable(name, str(obj(spec).description), SECRET_NAME.test(name));
    if (!description) continue;
    into.templates.push({
      category: str(obj(raw._toolsdk).category) ?? 'uncategorized',
      title: str(raw.name),
      description,
      stem: slug(str(raw.packageName) ?? str(raw.name) ?? 'server') || 'server',
      owner,
      tools: list(raw.tools).flatMap(toolsdkTool),
    });
  }
}

/** The templates grouped by category, and every list sorted so the corpus does not depend on the files' order. */
function poolsOf(gathered: Gathered): SourcePools {
  const { templates } = gathered;
  const byCategory = new Map<string, ServerTemplate[]>();
  for (const template of templates) byCategory.set(template.category, [...(byCategory.get(template.category) ?? []), template]);
  const toolsByCategory = new Map<string, ToolTemplate[]>();
  for (const [category, members] of byCategory) {
    const tools = distinctTools(members.flatMap((t) => t.tools));
    if (tools.length > 0) toolsByCategory.set(category, tools);
  }
  return {
    templates,
    byCategory,
    toolsByCategory,
    allTools: distinctTools(templates.flatMap((t) => t.tools)),
    namespaces: [...gathered.namespaces].sort(),
    owners: [...gathered.owners].sort(),
    remoteHosts: [...gathered.hosts].filter((h) => /^[a-z0-9.-]+$/.test(h) && h.includes('.')).sort(),
    secretVariables: [...gathered.secretVariables.values()].sort((a, b) => a.name.localeCompare(b.name)),
    plainVariables: [...gathered.plainVariables.values()].filter((v) => !SECRET_NAME.test(v.name)).sort((a, b) => a.name.localeCompare(b.name)),
    registryTypes: [...gathered.registryCounts].map(([type, weight]) => ({ type, weight })).sort((a, b) => a.type.localeCompare(b.type)),
  };
}

function distinctTools(tools: readonly ToolTemplate[]): ToolTemplate[] {
  const seen = new Map<string, ToolTemplate>();
  for (const tool of tools) {
    const key = `${tool.name}\u0000${tool.description}`;
    if (!seen.has(key)) seen.set(key, tool);
  }
  return [...seen.values()];
}
