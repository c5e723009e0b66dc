/**
 * A catalog record as a `server.json` of the MCP Registry API (its published ServerDetail
 * schema): what `/v0.1` serves for a server no official registry published (registry-name.ts).
 * Official servers are served as they were published instead.
 */
import type { Package, PackageArgument } from '../types.js';
import type { ServerRecord } from './catalog-entry.js';

type Json = Record<string, unknown>;

/** The registry API's limits on a server's description and title. */
const MAX_TEXT = 100;
/** The version of a record that states none. */
export const UNSTATED_VERSION = '0.0.0';
const URL_TEMPLATE = /^https?:\/\/\S+$/;

/** `text` cut to the registry API's length, an ellipsis marking a cut. */
function fitted(text: string): string {
  const chars = [...text.trim().replace(/\s+/g, ' ')];
  return chars.length <= MAX_TEXT ? chars.join('') : `${chars.slice(0, MAX_TEXT - 1).join('')}…`;
}

/** The hosting service of a repository URL, as the registry names it (`github`, `gitlab`, or the host). */
function forgeOf(url: string): string {
  const host = new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  return host === 'github.com' ? 'github' : host === 'gitlab.com' ? 'gitlab' : host;
}

function argumentOf(arg: PackageArgument): Json {
  const base: Json = { type: arg.type, description: arg.description, isRequired: arg.isRequired, isSecret: arg.isSecret };
  if (arg.name !== undefined) base.name = arg.name;
  if (arg.value !== undefined) base.value = arg.value;
  if (arg.valueHint !== undefined) base.valueHint = arg.valueHint;
  // A positional argument names its value or gives it; a named one has its flag.
  if (arg.type === 'positional' && base.value === undefined && base.valueHint === undefined) base.valueHint = arg.name ?? 'value';
  return base;
}

function packageOf(pkg: Package): Json | null {
  // A local transport other than stdio needs a URL the catalog does not keep.
  if (pkg.transport !== 'stdio') return null;
  const out: Json = { registryType: pkg.registryType, identifier: pkg.identifier, transport: { type: 'stdio' } };
  if (pkg.version && pkg.version !== 'latest') out.version = pkg.version;
  if (pkg.runtimeHint) out.runtimeHint = pkg.runtimeHint;
  const runtime = pkg.arguments.filter((a) => a.kind === 'runtime').map(argumentOf);
  const own = pkg.arguments.filter((a) => a.kind === 'package').map(argumentOf);
  if (runtime.length > 0) out.runtimeArguments = runtime;
  if (own.length > 0) out.packageArguments = own;
  if (pkg.environmentVariables.length > 0) {
    out.environmentVariables = pkg.environmentVariables.map((v) => ({
      name: v.name, description: v.description, isRequired: v.isRequired, isSecret: v.isSecret, ...(v.default !== undefined ? { default: v.default } : {}),
    }));
  }
  return out;
}

/** The server.json of a catalog record, under the registry name `name`. */
export function serverJsonOf(server: ServerRecord, name: string): Json {
  const out: Json = {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name,
    description: fitted(server.description || server.title || server.name),
  };
  if (server.title?.trim()) out.title = fitted(server.title);
  out.version = server.version?.trim() && server.version.length <= 255 ? server.version : UNSTATED_VERSION;
  if (server.repositoryUrl) out.repository = { url: server.repositoryUrl, source: forgeOf(server.repositoryUrl) };
  if (server.websiteUrl) out.websiteUrl = server.websiteUrl;
  const packages = server.packages.map(packageOf).filter((p): p is Json => p !== null);
  if (packages.length > 0) out.packages = packages;
  const remotes = server.remotes
    .filter((r) => URL_TEMPLATE.test(r.url))
    .map((r) => ({
      type: r.transport,
      url: r.url,
      ...(r.headers.length > 0 ? { headers: r.headers.map((h) => ({ name: h.name, description: h.description, isRequired: h.isRequired, isSecret: h.isSecret })) } : {}),
    }));
  if (remotes.length > 0) out.remotes = remotes;
  return out;
}

/** A published document made to conform to the registry API's schema, and what was changed (for the reader to see). */
export interface Conformed {
  readonly document: Json;
  readonly repairs: string[];
}

const URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/;
const INPUT_FORMATS = ['string', 'number', 'boolean', 'filepath'];

/** An input's `format` the schema allows: `integer` reads as `number`; anything else is left out. */
function conformInput(input: Json, where: string, repairs: string[]): Json {
  if (input.format === undefined || INPUT_FORMATS.includes(input.format as string)) return input;
  const { format, ...rest } = input;
  if (format === 'integer') {
    repairs.push(`${where}: format "integer" given as "number"`);
    return { ...rest, format: 'number' };
  }
  repairs.push(`${where}: format ${JSON.stringify(format)} left out`);
  return rest;
}

/** An argument the schema allows, or null: an empty `type` is read from what the argument has. */
function conformArgument(arg: Json, where: string, repairs: string[]): Json | null {
  let out = conformInput(arg, where, repairs);
  if (out.type !== 'positional' && out.type !== 'named') {
    const type = typeof out.name === 'string' && out.name.startsWith('-') ? 'named' : out.value !== undefined || out.valueHint !== undefined || out.name !== undefined ? 'positional' : null;
    if (type === null) {
      repairs.push(`${where}: an argument of type ${JSON.stringify(out.type)} with nothing to pass left out`);
      return null;
    }
    repairs.push(`${where}: type ${JSON.stringify(out.type)} read as "${type}"`);
    out = { ...out, type };
  }
  if (out.type === 'named' && typeof out.name !== 'string') {
    repairs.push(`${where}: a named argument without a name left out`);
    return null;
  }
  if (out.type === 'positional' && out.value === undefined && out.valueHint === undefined) {
    repairs.push(`${where}: valueHint taken from its name`);
    out = { ...out, valueHint: typeof out.name === 'string' ? out.name : 'value' };
  }
  return out;
}

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `document` as the registry API's published schema allows it, changed only where it breaks that
 * schema and carries nothing a client could use as it is: a repository without its URL or
 * source, a `$schema` that is no URI, a package version `latest`, an input format or argument
 * type outside the schema's lists. Everything else stays as published.
 */
export function conformed(document: Json): Conformed {
  const repairs: string[] = [];
  const out: Json = { ...document };
  if (out.repository !== undefined) {
    const repo = out.repository;
    if (!isJson(repo) || typeof repo.url !== 'string' || !URI.test(repo.url) || typeof repo.source !== 'string') {
      repairs.push('repository without a url and source left out');
      delete out.repository;
    }
  }
  if (out.$schema !== undefined && (typeof out.$schema !== 'string' || !URI.test(out.$schema))) {
    repairs.push(`$schema ${JSON.stringify(out.$schema)} is no URI: left out`);
    delete out.$schema;
  }
  if (Array.isArray(out.packages)) {
    out.packages = out.packages.map((pkg, p) => {
      if (!isJson(pkg)) return pkg;
      const fixed: Json = { ...pkg };
      if (fixed.version !== undefined && (fixed.version === 'latest' || fixed.version === '')) {
        repairs.push(`packages[${p}]: version ${JSON.stringify(fixed.version)} is no version: left out`);
        delete fixed.version;
      }
      for (const key of ['packageArguments', 'runtimeArguments'] as const) {
        if (Array.isArray(fixed[key])) {
          fixed[key] = (fixed[key] as unknown[]).flatMap((arg, a) => (isJson(arg) ? [conformArgument(arg, `packages[${p}].${key}[${a}]`, repairs)].filter((x): x is Json => x !== null) : [arg]));
        }
      }
      if (Array.isArray(fixed.environmentVariables)) {
        fixed.environmentVariables = (fixed.environmentVariables as unknown[]).map((v, e) => (isJson(v) ? conformInput(v, `packages[${p}].environmentVariables[${e}]`, repairs) : v));
      }
      return fixed;
    });
  }
  return { document: out, repairs };
}
