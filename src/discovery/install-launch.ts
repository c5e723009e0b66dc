/**
 * How a server is started, independent of any client: a local command (npx, uvx, docker) from
 * its first runnable package, or a remote endpoint. Secrets appear only as placeholders.
 */
import type { CatalogServer } from '../catalog/catalog-entry.js';
import type { Package, PackageArgument, RemoteHeader, Server } from '../types.js';
import type { components } from '../../generated/openapi.js';

export type InstallInput = components['schemas']['InstallInput'];

export interface PackageLaunch {
  readonly kind: 'package';
  readonly command: string;
  readonly args: readonly string[];
  /** Variables to set; values are defaults or placeholders. */
  readonly env: Readonly<Record<string, string>>;
  readonly inputs: readonly InstallInput[];
}

export interface RemoteLaunch {
  readonly kind: 'remote';
  readonly transport: 'streamable-http' | 'sse';
  readonly url: string;
  /** Headers to send; values are placeholders. */
  readonly headers: Readonly<Record<string, string>>;
  readonly inputs: readonly InstallInput[];
}

/** The text that stands where a user's value goes: `<WEATHER_API_KEY>`. */
export function placeholderFor(name: string): string {
  return `<${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '')}>`;
}

const RUNNABLE = ['npm', 'pypi', 'oci'] as const;

/** The first package a client can run (npm, then PyPI, then OCI), as a command line. */
export function packageLaunch(server: CatalogServer): PackageLaunch | null {
  const pkg = RUNNABLE.map((type) => server.packages.find((p) => p.registryType === type)).find((p) => p !== undefined);
  if (!pkg) return null;
  const inputs: InstallInput[] = [];
  const env: Record<string, string> = {};
  for (const variable of pkg.environmentVariables) {
    const placeholder = placeholderFor(variable.name);
    inputs.push({ name: variable.name, kind: 'env', description: variable.description, isRequired: variable.isRequired, isSecret: variable.isSecret, placeholder: variable.default ?? placeholder });
    if (variable.isSecret || variable.isRequired || variable.default !== undefined) env[variable.name] = variable.isSecret ? placeholder : (variable.default ?? placeholder);
  }
  const argument = (arg: PackageArgument): string[] => {
    const value = arg.isSecret || arg.value === undefined ? placeholderFor(arg.valueHint ?? arg.name ?? 'value') : arg.value;
    if (arg.isSecret || arg.value === undefined) {
      inputs.push({ name: arg.name ?? arg.valueHint ?? 'value', kind: 'argument', description: arg.description, isRequired: arg.isRequired, isSecret: arg.isSecret, placeholder: value });
    }
    if (!arg.isRequired && arg.value === undefined && !arg.isSecret) return [];
    return arg.type === 'named' && arg.name ? [arg.name, value] : [value];
  };
  const runtimeArgs = pkg.arguments.filter((a) => a.kind === 'runtime').flatMap(argument);
  const packageArgs = pkg.arguments.filter((a) => a.kind === 'package').flatMap(argument);
  const [command, args] = commandLine(pkg, Object.keys(env), runtimeArgs);
  return { kind: 'package', command, args: [...args, ...packageArgs], env, inputs };
}

function commandLine(pkg: Package, envNames: readonly string[], runtimeArgs: readonly string[]): [string, string[]] {
  const version = pkg.version && pkg.version !== 'latest' ? pkg.version : null;
  switch (pkg.registryType) {
    case 'npm':
      return ['npx', ['-y', ...runtimeArgs, version ? `${pkg.identifier}@${version}` : pkg.identifier]];
    case 'pypi':
      return ['uvx', [...runtimeArgs, version ? `${pkg.identifier}==${version}` : pkg.identifier]];
    default: {
      const image = version && !/[:@][^/]+$/.test(pkg.identifier) ? `${pkg.identifier}:${version}` : pkg.identifier;
      return ['docker', ['run', '-i', '--rm', ...envNames.flatMap((name) => ['-e', name]), ...runtimeArgs, image]];
    }
  }
}

/** The first remote endpoint, preferring Streamable HTTP over SSE. */
export function remoteLaunch(server: CatalogServer): RemoteLaunch | null {
  const remote = server.remotes.find((r) => r.transport === 'streamable-http') ?? server.remotes[0];
  if (!remote) return null;
  const headers: Record<string, string> = {};
  const inputs: InstallInput[] = [];
  for (const header of remote.headers) {
    const placeholder = placeholderFor(header.name);
    inputs.push({ name: header.name, kind: 'header', description: header.description, isRequired: header.isRequired, isSecret: header.isSecret, placeholder });
    if (header.isRequired || header.isSecret) headers[header.name] = isBearerHeader(header) ? `Bearer ${placeholder}` : placeholder;
  }
  return { kind: 'remote', transport: remote.transport, url: remote.url, headers, inputs };
}

/**
 * Whether a header's record says it carries a bearer token (RFC 6750 §2.1): it is the
 * `Authorization` header and its description names the Bearer scheme ("Bearer token",
 * "format: Bearer <token>"). The record keeps a header's name and description only, so these
 * are what can say it. Such a header's value is offered as `Bearer <AUTHORIZATION>`, so a user
 * who supplies only the token still sends the scheme.
 */
export function isBearerHeader(header: Pick<RemoteHeader, 'name' | 'description'>): boolean {
  return header.name.toLowerCase() === 'authorization' && /\bbearer\b/i.test(header.description);
}
