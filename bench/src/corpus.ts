/**
 * The benchmark corpus: N servers recombined from the real records with a seeded PRNG, written as
 * official-registry list files. Each server has its own name, repository, packages and remote URLs,
 * so nothing merges by accident; the corpus is reused while its manifest matches (size, seed, version).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createRng, type Rng } from './prng.js';
import { loadSourcePools, type Json, type ServerTemplate, type SourcePools, type ToolTemplate } from './corpus-sources.js';
import { pickServerQueries, pickToolQueries, WordCounter, type Query } from './corpus-queries.js';

/** Bump when the output of the generator changes, so cached corpora are rebuilt. */
export const GENERATOR_VERSION = 4;
const CHUNK = 5000;
const SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json';
const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';
const PUBLISHER_META = 'io.modelcontextprotocol.registry/publisher-provided';
const DAY = 86_400_000;
const EPOCH = Date.parse('2025-04-01T00:00:00Z');

export interface CorpusManifest {
  readonly generatorVersion: number;
  readonly seed: string;
  readonly servers: number;
  /** Server entries in the files, older versions included. */
  readonly entries: number;
  readonly tools: number;
  readonly withRemotes: number;
  readonly withSecrets: number;
  readonly files: readonly string[];
  readonly bytes: number;
  readonly serverQueries: readonly Query[];
  readonly toolQueries: readonly Query[];
  readonly generatedSeconds: number;
}

/** Returns the cached corpus of `size` servers under `root`, generating it first when needed. */
export async function ensureCorpus(root: string, size: number, seed: string, dataDir: string, log: (line: string) => void): Promise<CorpusManifest> {
  const dir = join(root, `${size}-${seed}-v${GENERATOR_VERSION}`);
  const cached = await readManifest(dir);
  if (cached && cached.servers === size && cached.seed === seed && cached.generatorVersion === GENERATOR_VERSION) {
    log(`corpus ${size}: cached in ${dir}`);
    return withPaths(dir, cached);
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  log(`corpus ${size}: generating from ${dataDir}`);
  const manifest = await generateCorpus(dir, size, seed, await loadSourcePools(dataDir));
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`corpus ${size}: ${manifest.servers} servers, ${manifest.tools} tools, ${(manifest.bytes / 1e6).toFixed(0)} MB in ${manifest.files.length} files (${manifest.generatedSeconds} s)`);
  return withPaths(dir, manifest);
}

/** The manifest lists file names; callers get full paths (so a moved corpus folder still works). */
function withPaths(dir: string, manifest: CorpusManifest): CorpusManifest {
  return { ...manifest, files: manifest.files.map((file) => join(dir, basename(file))) };
}

async function readManifest(dir: string): Promise<CorpusManifest | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    return isManifest(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function isManifest(value: unknown): value is CorpusManifest {
  if (typeof value !== 'object' || value === null) return false;
  return 'generatorVersion' in value && 'files' in value && Array.isArray(value.files) && 'serverQueries' in value && 'servers' in value;
}

async function generateCorpus(dir: string, size: number, seed: string, pools: SourcePools): Promise<CorpusManifest> {
  const started = performance.now();
  const rng = createRng(`${seed}/${size}`);
  const serverWords = new WordCounter();
  const toolUses = new Map<ToolTemplate, number>();
  const files: string[] = [];
  let entries = 0;
  let tools = 0;
  let withRemotes = 0;
  let withSecrets = 0;
  let bytes = 0;
  for (let start = 0; start < size; start += CHUNK) {
    const chunk: Json[] = [];
    for (let i = start; i < Math.min(size, start + CHUNK); i += 1) {
      const server = buildServer(rng, pools, i + 1);
      serverWords.addDocument(`${server.title ?? ''} ${server.description}`);
      for (const tool of server.tools) toolUses.set(tool, (toolUses.get(tool) ?? 0) + 1);
      tools += server.tools.length;
      if (server.hasRemote) withRemotes += 1;
      if (server.hasSecret) withSecrets += 1;
      chunk.push(...server.entries);
    }
    entries += chunk.length;
    const file = `part-${String(files.length).padStart(3, '0')}.json`;
    const text = JSON.stringify({ servers: chunk, metadata: { count: chunk.length } });
    bytes += Buffer.byteLength(text);
    await writeFile(join(dir, file), text);
    files.push(file);
  }
  return {
    generatorVersion: GENERATOR_VERSION,
    seed,
    servers: size,
    entries,
    tools,
    withRemotes,
    withSecrets,
    files,
    bytes,
    serverQueries: pickServerQueries(createRng(`${seed}/${size}/queries`), serverWords, size),
    toolQueries: pickToolQueries(createRng(`${seed}/${size}/tool-queries`), toolUses, tools),
    generatedSeconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

interface BuiltServer {
  readonly title: string | null;
  readonly description: string;
  readonly tools: readonly ToolTemplate[];
  readonly hasRemote: boolean;
  readonly hasSecret: boolean;
  /** The latest version's entry first, then older versions (without tools). */
  readonly entries: Json[];
}

/** Server number `n` (1-based): one real template, recombined, with its own identity. */
function buildServer(rng: Rng, pools: SourcePools, n: number): BuiltServer {
  const template = rng.pick(pools.templates);
  const peers = pools.byCategory.get(template.category) ?? [template];
  const description = rng.chance(0.25) ? `${template.description} ${firstSentence(rng.pick(peers).description)}` : template.description;
  const title = template.title !== null && rng.chance(0.7) ? template.title : null;
  const stem = `${template.stem}-${n}`;
  const githubNamespace = pools.namespaces.length === 0 || rng.chance(0.65);
  const owner = template.owner !== null && rng.chance(0.5) ? template.owner : rng.pick(pools.owners);
  const namespace = githubNamespace ? `io.github.${owner}` : rng.pick(pools.namespaces);
  const site = githubNamespace ? `${owner}.github.io` : namespace.split('.').reverse().join('.');
  const published = EPOCH + rng.int(0, 240) * DAY + rng.int(0, DAY - 1);
  const updated = published + rng.int(0, 30) * DAY;
  const version = `${rng.int(0, 3)}.${rng.int(0, 20)}.${rng.int(0, 30)}`;
  const packages = rng.chance(0.85) ? buildPackages(rng, pools, owner, stem, version) : [];
  const remotes = packages.length === 0 || rng.chance(0.25) ? [buildRemote(rng, pools, stem)] : [];
  const tools = pickTools(rng, pools, template);
  const server: Json = {
    $schema: SCHEMA,
    name: `${namespace}/${stem}`,
    ...(title !== null ? { title } : {}),
    description,
    version,
    repository: { url: `https://github.com/${owner}/${stem}`, source: 'github' },
    ...(rng.chance(0.2) ? { websiteUrl: `https://${site}/${stem}` } : {}),
    ...(packages.length > 0 ? { packages } : {}),
    ...(remotes.length > 0 ? { remotes } : {}),
    _meta: { [PUBLISHER_META]: { tools: tools.map(toolJson) } },
  };
  const latest: Json = { server, _meta: { [OFFICIAL_META]: { status: 'active', publishedAt: iso(published), updatedAt: iso(updated), isLatest: true } } };
  const older = rng.chance(0.06) ? olderVersions(rng, server, published) : [];
  const hasSecret = JSON.stringify([packages, remotes]).includes('"isSecret":true');
  return { title, description, tools, hasRemote: remotes.length > 0, hasSecret, entries: [latest, ...older] };
}

function buildPackages(rng: Rng, pools: SourcePools, owner: string, stem: string, version: string): Json[] {
  const count = rng.chance(0.06) ? 2 : 1;
  const secret = rng.chance(0.45);
  const types = pools.registryTypes.length > 0 ? pools.registryTypes : [{ type: 'npm', weight: 1 }];
  const packages: Json[] = [];
  const used = new Set<string>();
  for (let i = 0; i < count; i += 1) {
    const type = types[rng.weighted(types.map((t) => t.weight))]?.type ?? 'npm';
    if (used.has(type)) continue;
    used.add(type);
    const variables: Json[] = [];
    if (secret && pools.secretVariables.length > 0) {
      for (let v = rng.int(1, 2); v > 0; v -= 1) {
        const variable = rng.pick(pools.secretVariables);
        variables.push({ name: variable.name, description: variable.description, isRequired: rng.chance(0.8), isSecret: true, format: 'string' });
      }
    }
    for (let v = rng.int(0, 2); v > 0 && pools.plainVariables.length > 0; v -= 1) {
      const variable = rng.pick(pools.plainVariables);
      variables.push({ name: variable.name, description: variable.description, isRequired: false, isSecret: false, format: 'string' });
    }
    packages.push({
      registryType: type,
      identifier: packageIdentifier(type, owner, stem, version),
      version,
      ...runtimeHint(type),
      transport: { type: 'stdio' },
      ...(variables.length > 0 ? { environmentVariables: dedupeByName(variables) } : {}),
    });
  }
  return packages;
}

function packageIdentifier(type: string, owner: string, stem: string, version: string): string {
  switch (type) {
    case 'npm':
      return `@${owner}/${stem}`;
    case 'pypi':
      return `${owner}-${stem}`;
    case 'oci':
      return `ghcr.io/${owner}/${stem}:${version}`;
    case 'nuget':
      return `${owner}.${stem}`.replace(/-/g, '.');
    default:
      return `https://github.com/${owner}/${stem}/releases/download/v${version}/${stem}.mcpb`;
  }
}

function runtimeHint(type: string): Json {
  const hints: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker', nuget: 'dnx' };
  const hint = hints[type];
  return hint === undefined ? {} : { runtimeHint: hint };
}

function buildRemote(rng: Rng, pools: SourcePools, stem: string): Json {
  const host = pools.remoteHosts.length > 0 ? rng.pick(pools.remoteHosts) : 'mcp.example.com';
  const sse = rng.chance(0.15);
  const headers = rng.chance(0.4) ? [{ name: 'Authorization', description: 'Bearer token for the API', isRequired: true, isSecret: true }] : [];
  return { type: sse ? 'sse' : 'streamable-http', url: `https://${stem}.${host}/${sse ? 'sse' : 'mcp'}`, ...(headers.length > 0 ? { headers } : {}) };
}

/** About 10 tools on average: none for 15%, else a long-tailed count; real tools of the same category first. */
function pickTools(rng: Rng, pools: SourcePools, template: ServerTemplate): ToolTemplate[] {
  if (rng.chance(0.15) || pools.allTools.length === 0) return [];
  const count = Math.min(80, 1 + Math.floor(-Math.log(1 - rng.next()) * 10.8));
  const chosen = new Map<string, ToolTemplate>();
  if (rng.chance(0.5)) for (const tool of template.tools.slice(0, count)) chosen.set(tool.name, tool);
  const local = pools.toolsByCategory.get(template.category) ?? pools.allTools;
  for (let attempts = 0; chosen.size < count && attempts < count * 4; attempts += 1) {
    const tool = rng.pick(rng.chance(0.7) ? local : pools.allTools);
    if (!chosen.has(tool.name)) chosen.set(tool.name, tool);
  }
  return [...chosen.values()];
}

function toolJson(tool: ToolTemplate): Json {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations };
}

/** One or two earlier versions, published before the latest and listed without tools. */
function olderVersions(rng: Rng, latest: Json, published: number): Json[] {
  const count = rng.int(1, 2);
  const out: Json[] = [];
  for (let i = 1; i <= count; i += 1) {
    const at = published - i * rng.int(3, 20) * DAY;
    const server: Json = { ...latest, version: `0.${i - 1}.${rng.int(0, 9)}`, _meta: {} };
    out.push({ server, _meta: { [OFFICIAL_META]: { status: 'active', publishedAt: iso(at), updatedAt: iso(at), isLatest: false } } });
  }
  return out;
}

function dedupeByName(variables: Json[]): Json[] {
  const seen = new Map<unknown, Json>();
  for (const variable of variables) if (!seen.has(variable.name)) seen.set(variable.name, variable);
  return [...seen.values()];
}

function firstSentence(text: string): string {
  const match = /^.*?[.!?](\s|$)/.exec(text);
  return (match?.[0] ?? text).trim();
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
