/**
 * Install instructions per MCP client (DESIGN.md "Install"): each client's configuration file,
 * its own JSON keys, its CLI command and install link where it has them. Values a user must
 * supply are placeholders (VS Code: `${input:…}` prompts).
 */
import type { CatalogServer } from '../catalog/catalog-entry.js';
import type { components } from '../../generated/openapi.js';
import type { Server } from '../types.js';
import { installKeyBase } from '../catalog/install-key.js';
import { packageLaunch, placeholderFor, remoteLaunch, type InstallInput, type PackageLaunch, type RemoteLaunch } from './install-launch.js';

export type InstallClient = components['schemas']['InstallClient'];
export type ClientInstall = components['schemas']['ClientInstall'];
type ConfigFile = components['schemas']['ConfigFile'];
type Json = Record<string, unknown>;

export const INSTALL_CLIENTS: readonly InstallClient[] = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'gemini-cli', 'zed'];

interface Launches {
  readonly name: string;
  readonly local: PackageLaunch | null;
  readonly remote: RemoteLaunch | null;
}

type Renderer = (launches: Launches) => ClientInstall;

/**
 * Instructions for one client. `installKey` is the server's key in the client's configuration,
 * as the catalog assigned it (unique in the catalog); without one, the recognisable base of its name.
 */
export function installFor(server: CatalogServer, client: InstallClient, installKey: string | null = null): ClientInstall {
  const launches = { name: installKey ?? installKeyBase(server.name), local: packageLaunch(server), remote: remoteLaunch(server) };
  return RENDERERS[client](launches);
}

const NO_LAUNCH = 'The server declares no npm, PyPI or OCI package and no remote endpoint, so there is nothing a client can start or connect to.';

const RENDERERS: Readonly<Record<InstallClient, Renderer>> = {
  'claude-desktop': ({ name, local, remote }) => {
    const files: ConfigFile[] = [
      { os: 'macos', scope: 'user', path: '~/Library/Application Support/Claude/claude_desktop_config.json' },
      { os: 'windows', scope: 'user', path: '%APPDATA%\\Claude\\claude_desktop_config.json' },
    ];
    if (local) return result('claude-desktop', 'package', null, files, { mcpServers: { [name]: stdioEntry(local) } }, null, null, local.inputs);
    if (remote) {
      const bridge = bridgeLaunch(remote);
      return result('claude-desktop', 'bridge', 'Claude Desktop\'s configuration file starts local commands only; the mcp-remote bridge connects it to the remote endpoint (or add the URL under Settings → Connectors).', files, { mcpServers: { [name]: stdioEntry(bridge) } }, null, null, bridge.inputs);
    }
    return unsupported('claude-desktop', files);
  },

  'claude-code': ({ name, local, remote }) => {
    const files: ConfigFile[] = [
      { os: 'any', scope: 'project', path: '.mcp.json' },
      { os: 'any', scope: 'user', path: '~/.claude.json' },
    ];
    if (remote) {
      const entry = { type: remote.transport === 'sse' ? 'sse' : 'http', url: remote.url, ...headersOf(remote) };
      const headers = Object.entries(remote.headers).flatMap(([k, v]) => ['--header', `${k}: ${v}`]);
      const command = claudeMcpAdd(['--transport', remote.transport === 'sse' ? 'sse' : 'http', ...headers], name, [remote.url]);
      return result('claude-code', 'remote', null, files, { mcpServers: { [name]: entry } }, command, null, remote.inputs);
    }
    if (local) {
      const env = Object.entries(local.env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
      const command = claudeMcpAdd(['--transport', 'stdio', ...env], name, ['--', local.command, ...local.args]);
      return result('claude-code', 'package', null, files, { mcpServers: { [name]: { type: 'stdio', ...stdioEntry(local) } } }, command, null, local.inputs);
    }
    return unsupported('claude-code', files);
  },

  cursor: ({ name, local, remote }) => {
    const files: ConfigFile[] = [
      { os: 'any', scope: 'user', path: '~/.cursor/mcp.json' },
      { os: 'any', scope: 'project', path: '.cursor/mcp.json' },
    ];
    const launch = remote ?? local;
    if (!launch) return unsupported('cursor', files);
    const entry = launch.kind === 'remote' ? { url: launch.url, ...headersOf(launch) } : stdioEntry(launch);
    const link = `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(name)}&config=${encodeURIComponent(Buffer.from(JSON.stringify(entry)).toString('base64'))}`;
    return result('cursor', launch.kind, null, files, { mcpServers: { [name]: entry } }, null, link, launch.inputs);
  },

  vscode: ({ name, local, remote }) => {
    const files: ConfigFile[] = [
      { os: 'any', scope: 'project', path: '.vscode/mcp.json' },
      { os: 'macos', scope: 'user', path: '~/Library/Application Support/Code/User/mcp.json' },
      { os: 'windows', scope: 'user', path: '%APPDATA%\\Code\\User\\mcp.json' },
      { os: 'linux', scope: 'user', path: '~/.config/Code/User/mcp.json' },
    ];
    const launch = remote ?? local;
    if (!launch) return unsupported('vscode', files);
    const prompts = launch.inputs.filter((input) => input.isSecret || input.isRequired);
    const prompt = (placeholder: string): string => {
      const input = prompts.find((p) => p.placeholder === placeholder || placeholderFor(p.name) === placeholder);
      return input ? `\${input:${inputId(input)}}` : placeholder;
    };
    // A value is a placeholder (`<API_KEY>`) or carries one after a scheme (`Bearer <AUTHORIZATION>`).
    const ref = (value: string): string => value.replace(/^(Bearer )?(<[A-Za-z0-9_.-]+>)$/, (_, scheme: string | undefined, placeholder: string) => `${scheme ?? ''}${prompt(placeholder)}`);
    const entry: Json = launch.kind === 'remote'
      ? { type: launch.transport === 'sse' ? 'sse' : 'http', url: launch.url, ...headersOf(launch, ref) }
      : { type: 'stdio', command: launch.command, args: launch.args.map(ref), ...envOf(launch, ref) };
    const inputs = prompts.map((input) => ({ type: 'promptString', id: inputId(input), description: input.description || input.name, password: input.isSecret }));
    const install = { name, ...entry, ...(inputs.length > 0 ? { inputs } : {}) };
    const link = `vscode:mcp/install?${encodeURIComponent(JSON.stringify(install))}`;
    return result('vscode', launch.kind, null, files, { ...(inputs.length > 0 ? { inputs } : {}), servers: { [name]: entry } }, ['code', '--add-mcp', JSON.stringify(install)], link, launch.inputs);
  },

  windsurf: ({ name, local, remote }) => {
    const files: ConfigFile[] = [
      { os: 'macos', scope: 'user', path: '~/.codeium/windsurf/mcp_config.json' },
      { os: 'linux', scope: 'user', path: '~/.codeium/windsurf/mcp_config.json' },
      { os: 'windows', scope: 'user', path: '%USERPROFILE%\\.codeium\\windsurf\\mcp_config.json' },
    ];
    const launch = remote ?? local;
    if (!launch) return unsupported('windsurf', files);
    const entry = launch.kind === 'remote' ? { serverUrl: launch.url, ...headersOf(launch) } : stdioEntry(launch);
    return result('windsurf', launch.kind, null, files, { mcpServers: { [name]: entry } }, null, null, launch.inputs);
  },

  'gemini-cli': ({ name, local, remote }) => {
    const files: ConfigFile[] = [
      { os: 'any', scope: 'user', path: '~/.gemini/settings.json' },
      { os: 'any', scope: 'project', path: '.gemini/settings.json' },
    ];
    const launch = remote ?? local;
    if (!launch) return unsupported('gemini-cli', files);
    const entry = launch.kind === 'remote'
      ? { [launch.transport === 'sse' ? 'url' : 'httpUrl']: launch.url, ...headersOf(launch) }
      : stdioEntry(launch);
    const command = launch.kind === 'remote'
      ? geminiMcpAdd(['--transport', launch.transport === 'sse' ? 'sse' : 'http', ...Object.entries(launch.headers).flatMap(([k, v]) => ['--header', `${k}: ${v}`])], name, [launch.url])
      : geminiMcpAdd(Object.entries(launch.env).flatMap(([k, v]) => ['--env', `${k}=${v}`]), name, [launch.command, ...(launch.args.length > 0 ? ['--', ...launch.args] : [])]);
    return result('gemini-cli', launch.kind, null, files, { mcpServers: { [name]: entry } }, command, null, launch.inputs);
  },

  /**
   * Zed (zed.dev/docs/ai/mcp, "As Custom Servers"): `context_servers` in the user settings file
   * (zed.dev/docs/configuring-zed, "User Settings File"); a local server by `command`, `args`,
   * `env`, a remote one by `url` and `headers`. The docs name no SSE endpoint for `url`, so an
   * SSE-only server goes through the mcp-remote bridge. Zed has no CLI command or install link.
   */
  zed: ({ name, local, remote }) => {
    const files: ConfigFile[] = [
      { os: 'macos', scope: 'user', path: '~/.config/zed/settings.json' },
      { os: 'linux', scope: 'user', path: '~/.config/zed/settings.json' },
    ];
    if (remote && remote.transport !== 'sse') {
      return result('zed', 'remote', null, files, { context_servers: { [name]: { url: remote.url, ...headersOf(remote) } } }, null, null, remote.inputs);
    }
    if (local) return result('zed', 'package', null, files, { context_servers: { [name]: stdioEntry(local) } }, null, null, local.inputs);
    if (remote) {
      const bridge = bridgeLaunch(remote);
      return result('zed', 'bridge', 'Zed\'s documentation gives a remote server\'s "url" for Streamable HTTP and names no SSE transport; the mcp-remote bridge connects to this SSE endpoint as a local command.', files, { context_servers: { [name]: stdioEntry(bridge) } }, null, null, bridge.inputs);
    }
    return unsupported('zed', files);
  },
};

const CLIENT_NAMES: Readonly<Record<InstallClient, string>> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  vscode: 'Visual Studio Code',
  windsurf: 'Windsurf',
  'gemini-cli': 'Gemini CLI',
  zed: 'Zed',
};

function result(
  client: InstallClient, method: 'package' | 'remote' | 'bridge', reason: string | null, configFiles: ConfigFile[],
  config: Json, command: string[] | null, deepLink: string | null, inputs: readonly InstallInput[],
): ClientInstall {
  return { client, clientName: CLIENT_NAMES[client], supported: true, method, reason, configFiles, config, command, deepLink, inputs: [...inputs] };
}

/**
 * `claude mcp add [options] <name> …`: Claude Code reads its options (`--transport`, `--env`,
 * `--header`, `--scope`) only before the server name; after the name come the URL, or `--`
 * and the command with its arguments (code.claude.com/docs/en/mcp, "Option ordering").
 */
function claudeMcpAdd(options: readonly string[], name: string, rest: readonly string[]): string[] {
  return ['claude', 'mcp', 'add', ...options, name, ...rest];
}

/**
 * `gemini mcp add [options] <name> <commandOrUrl> [args...]` (geminicli.com/docs/tools/mcp-server,
 * "Adding a server (`gemini mcp add`)"): options (`--transport`, `--env`, `--header`) before the
 * name. `--scope user` writes ~/.gemini/settings.json, the first file listed; the default scope,
 * project, is refused in the home directory. A local server's own arguments follow `--`, so its
 * `-y` or `-e` is not read as an option of Gemini CLI's.
 */
function geminiMcpAdd(options: readonly string[], name: string, rest: readonly string[]): string[] {
  return ['gemini', 'mcp', 'add', '--scope', 'user', ...options, name, ...rest];
}

function unsupported(client: InstallClient, configFiles: ConfigFile[]): ClientInstall {
  return { client, clientName: CLIENT_NAMES[client], supported: false, method: null, reason: NO_LAUNCH, configFiles, config: null, command: null, deepLink: null, inputs: [] };
}

function stdioEntry(launch: PackageLaunch): Json {
  return { command: launch.command, args: [...launch.args], ...envOf(launch) };
}

function envOf(launch: PackageLaunch, map: (value: string) => string = (v) => v): Json {
  const entries = Object.entries(launch.env);
  return entries.length > 0 ? { env: Object.fromEntries(entries.map(([k, v]) => [k, map(v)])) } : {};
}

function headersOf(launch: RemoteLaunch, map: (value: string) => string = (v) => v): Json {
  const entries = Object.entries(launch.headers);
  return entries.length > 0 ? { headers: Object.fromEntries(entries.map(([k, v]) => [k, map(v)])) } : {};
}

/** mcp-remote, the documented bridge from a local-command client to a remote endpoint. */
function bridgeLaunch(remote: RemoteLaunch): PackageLaunch {
  const env: Record<string, string> = {};
  const headerArgs = Object.entries(remote.headers).flatMap(([name, value]) => {
    const variable = `${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_HEADER`;
    env[variable] = value;
    return ['--header', `${name}:\${${variable}}`];
  });
  const transport = remote.transport === 'sse' ? ['--transport', 'sse-only'] : [];
  return { kind: 'package', command: 'npx', args: ['-y', 'mcp-remote', remote.url, ...headerArgs, ...transport], env, inputs: remote.inputs };
}

function inputId(input: InstallInput): string {
  return input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}
