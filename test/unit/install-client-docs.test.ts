/**
 * Every client's install instructions checked against that client's own documentation (issue 25):
 * the configuration file, its top-level key, the local and the remote entry, how secrets stand in,
 * the CLI command and the install link. Each test names the page and the section it checks; where
 * the page was read from a repository snapshot, the date is that snapshot's.
 */
import { expect } from 'chai';
import type { CatalogServer } from '../../src/catalog/catalog-entry.js';
import { installFor, type ClientInstall } from '../../src/discovery/install-clients.js';
import type { Package, Remote } from '../../src/types.js';

type Json = Record<string, any>;

function buildServer(overrides: Partial<CatalogServer> = {}): CatalogServer {
  return {
    id: 'com.acme~weather', name: 'com.acme/weather', title: null, description: 'Weather.', domain: null, version: '1.0.0',
    categories: [], transports: [], endpointCount: 0, toolCount: 0, authentication: 'none', repositoryUrl: null,
    publishedAt: null, updatedAt: null, websiteUrl: null, license: null, versions: [], packages: [], remotes: [], tools: [], sources: [], toolsFingerprint: null, toolsChangedAt: null, toolFindings: null, quality: { flags: [] },
    ...overrides,
  };
}

const npmPackage: Package = {
  registryType: 'npm', identifier: '@acme/weather', version: '1.0.0', runtimeHint: null, transport: 'stdio',
  environmentVariables: [
    { name: 'API_KEY', description: 'Your API key', isRequired: true, isSecret: true },
    { name: 'UNITS', description: 'Units', isRequired: false, isSecret: false, default: 'metric' },
  ],
  arguments: [],
};
const httpRemote: Remote = {
  transport: 'streamable-http', url: 'https://mcp.acme.com/mcp', host: 'mcp.acme.com',
  headers: [{ name: 'Authorization', description: 'Bearer token', isRequired: true, isSecret: true }],
};
const sseRemote: Remote = { transport: 'sse', url: 'https://mcp.acme.com/sse', host: 'mcp.acme.com', headers: [] };

const local = buildServer({ packages: [npmPackage] });
const remote = buildServer({ remotes: [httpRemote] });
const sse = buildServer({ remotes: [sseRemote] });

const NPX = ['-y', '@acme/weather@1.0.0'];

const paths = (r: ClientInstall): string[] => r.configFiles.map((f) => `${f.os}/${f.scope}: ${f.path}`);
const entry = (r: ClientInstall, key = 'mcpServers'): Json => {
  expect(Object.keys(r.config!), 'top-level keys').to.include(key);
  return (r.config as Json)[key].weather;
};

describe('Claude Desktop, as its documentation says', () => {
  const DOC = 'modelcontextprotocol.io/docs/develop/connect-local-servers, "Installing the Filesystem Server" (modelcontextprotocol/modelcontextprotocol docs/docs/2026-07-28, snapshot of 2026-08-22)';

  it(`keeps claude_desktop_config.json at ~/Library/Application Support/Claude on macOS and %APPDATA%\\Claude on Windows, under "mcpServers" (${DOC})`, () => {
    const r = installFor(local, 'claude-desktop');
    expect(paths(r)).to.deep.equal([
      'macos/user: ~/Library/Application Support/Claude/claude_desktop_config.json',
      'windows/user: %APPDATA%\\Claude\\claude_desktop_config.json',
    ]);
    expect(Object.keys(r.config!)).to.deep.equal(['mcpServers']);
  });

  it(`starts a local server with "command", "args" and "env", a secret as a placeholder (${DOC})`, () => {
    expect(entry(installFor(local, 'claude-desktop'))).to.deep.equal({ command: 'npx', args: NPX, env: { API_KEY: '<API_KEY>', UNITS: 'metric' } });
  });

  it('bridges a remote server through mcp-remote, the header in "env" and "Authorization:${…}" without spaces in "args", as mcp-remote\'s README says (github.com/geelen/mcp-remote README, "Custom Headers", snapshot of 2026-08-21), since the file starts local commands only and Claude adds remote servers as connectors (modelcontextprotocol.io/docs/develop/connect-remote-servers, "Connecting to a Remote MCP Server")', () => {
    const r = installFor(remote, 'claude-desktop');
    expect(r).to.include({ method: 'bridge', supported: true });
    expect(r.reason).to.match(/Connectors/);
    expect(entry(r)).to.deep.equal({
      command: 'npx', args: ['-y', 'mcp-remote', 'https://mcp.acme.com/mcp', '--header', 'Authorization:${AUTHORIZATION_HEADER}'],
      env: { AUTHORIZATION_HEADER: 'Bearer <AUTHORIZATION>' },
    });
    expect(r.command).to.equal(null);
    expect(r.deepLink).to.equal(null);
  });

  it('bridges an SSE server with "--transport sse-only", as mcp-remote\'s README says (github.com/geelen/mcp-remote README, "Transport Strategies", snapshot of 2026-08-21)', () => {
    expect(entry(installFor(sse, 'claude-desktop')).args).to.deep.equal(['-y', 'mcp-remote', 'https://mcp.acme.com/sse', '--transport', 'sse-only']);
  });
});

describe('Claude Code, as its documentation says', () => {
  const DOC = 'code.claude.com/docs/en/mcp, "MCP installation scopes" and "Option ordering", as copies of the page in the search tool\'s pages corpus quote it';

  it(`names .mcp.json for the project scope and ~/.claude.json for the user scope, under "mcpServers" (${DOC})`, () => {
    const r = installFor(local, 'claude-code');
    expect(paths(r)).to.deep.equal(['any/project: .mcp.json', 'any/user: ~/.claude.json']);
    expect(Object.keys(r.config!)).to.deep.equal(['mcpServers']);
  });

  it(`writes a local server as "type": "stdio" with "command", "args", "env", and a remote one as "type": "http" with "url" and "headers" (${DOC})`, () => {
    expect(entry(installFor(local, 'claude-code'))).to.deep.equal({ type: 'stdio', command: 'npx', args: NPX, env: { API_KEY: '<API_KEY>', UNITS: 'metric' } });
    expect(entry(installFor(remote, 'claude-code'))).to.deep.equal({ type: 'http', url: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer <AUTHORIZATION>' } });
    expect(entry(installFor(sse, 'claude-code'))).to.deep.equal({ type: 'sse', url: 'https://mcp.acme.com/sse' });
  });

  it(`adds with \`claude mcp add\`, every option before the name (${DOC})`, () => {
    expect(installFor(remote, 'claude-code').command).to.deep.equal(['claude', 'mcp', 'add', '--transport', 'http', '--header', 'Authorization: Bearer <AUTHORIZATION>', 'weather', 'https://mcp.acme.com/mcp']);
    expect(installFor(local, 'claude-code').command).to.deep.equal(['claude', 'mcp', 'add', '--transport', 'stdio', '--env', 'API_KEY=<API_KEY>', '--env', 'UNITS=metric', 'weather', '--', 'npx', ...NPX]);
  });
});

describe('Cursor, as its documentation says', () => {
  const DOC = 'cursor.com/docs/mcp, "Using mcp.json" and "Configuration locations", as stored in the search tool\'s pages corpus';
  const LINKS = 'cursor.com/docs/mcp/install-links, "Generate install link", as stored in the search tool\'s docs corpus';

  it(`reads ~/.cursor/mcp.json (global) and .cursor/mcp.json (project), under "mcpServers" (${DOC})`, () => {
    const r = installFor(local, 'cursor');
    expect(paths(r)).to.deep.equal(['any/user: ~/.cursor/mcp.json', 'any/project: .cursor/mcp.json']);
    expect(Object.keys(r.config!)).to.deep.equal(['mcpServers']);
  });

  it(`starts a local server with "command", "args", "env", and reaches a remote one, HTTP or SSE, by "url" with "headers" (${DOC})`, () => {
    expect(entry(installFor(local, 'cursor'))).to.deep.equal({ command: 'npx', args: NPX, env: { API_KEY: '<API_KEY>', UNITS: 'metric' } });
    expect(entry(installFor(remote, 'cursor'))).to.deep.equal({ url: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer <AUTHORIZATION>' } });
    expect(entry(installFor(sse, 'cursor'))).to.deep.equal({ url: 'https://mcp.acme.com/sse' });
  });

  it(`links cursor://anysphere.cursor-deeplink/mcp/install with "name" and "config", the mcp.json entry JSON-stringified then base64-encoded (${LINKS}); Cursor has no CLI command to add a server`, () => {
    for (const server of [local, remote, sse]) {
      const r = installFor(server, 'cursor');
      const url = new URL(r.deepLink!);
      expect(`${url.protocol}//${url.host}${url.pathname}`).to.equal('cursor://anysphere.cursor-deeplink/mcp/install');
      expect([...url.searchParams.keys()]).to.deep.equal(['name', 'config']);
      expect(url.searchParams.get('name')).to.equal('weather');
      expect(JSON.parse(Buffer.from(url.searchParams.get('config')!, 'base64').toString('utf8'))).to.deep.equal(entry(r));
      expect(r.command).to.equal(null);
    }
  });
});

/** The VS Code pages were read from microsoft/vscode-docs as the search tool's index stores it (mcp-configuration.md approved 5/20/2026). */
describe('VS Code, as its documentation says', () => {
  const REF = 'code.visualstudio.com/docs/copilot/reference/mcp-configuration';

  it(`reads .vscode/mcp.json and the user profile's mcp.json, under "servers" with "inputs" beside it (${REF}, "Configuration file" and "Configuration structure"; the default profile's folder per code.visualstudio.com/docs/configure/settings, "User settings.json location")`, () => {
    const r = installFor(local, 'vscode');
    expect(paths(r)).to.deep.equal([
      'any/project: .vscode/mcp.json',
      'macos/user: ~/Library/Application Support/Code/User/mcp.json',
      'windows/user: %APPDATA%\\Code\\User\\mcp.json',
      'linux/user: ~/.config/Code/User/mcp.json',
    ]);
    expect(Object.keys(r.config!)).to.deep.equal(['inputs', 'servers']);
  });

  it(`writes a local server with "type": "stdio", "command", "args", "env", a secret as "\${input:…}" (${REF}, "Standard I/O (stdio) servers")`, () => {
    expect(entry(installFor(local, 'vscode'), 'servers')).to.deep.equal({ type: 'stdio', command: 'npx', args: NPX, env: { API_KEY: '${input:api-key}', UNITS: 'metric' } });
  });

  it(`writes a remote server with "type" "http" or "sse", "url" and "headers" (${REF}, "HTTP and Server-Sent Events (SSE) servers")`, () => {
    expect(entry(installFor(remote, 'vscode'), 'servers')).to.deep.equal({ type: 'http', url: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer ${input:authorization}' } });
    expect(entry(installFor(sse, 'vscode'), 'servers')).to.deep.equal({ type: 'sse', url: 'https://mcp.acme.com/sse' });
  });

  it(`prompts for each secret with an input of "type": "promptString", "id", "description" and "password": true (${REF}, "Input variables for sensitive data")`, () => {
    expect((installFor(local, 'vscode').config as Json).inputs).to.deep.equal([{ type: 'promptString', id: 'api-key', description: 'Your API key', password: true }]);
  });

  it('adds from the command line with `code --add-mcp` and the JSON {"name": …, …config} (code.visualstudio.com/docs/copilot/customization/mcp-servers, "Install an MCP server from the command line"), and links vscode:mcp/install? with the same JSON URL-encoded (code.visualstudio.com/api/extension-guides/ai/mcp, "Create an MCP installation URL")', () => {
    for (const server of [local, remote]) {
      const r = installFor(server, 'vscode');
      const config = r.config as Json;
      const expected = { name: 'weather', ...config.servers.weather, ...(config.inputs ? { inputs: config.inputs } : {}) };
      expect(r.command!.slice(0, 2)).to.deep.equal(['code', '--add-mcp']);
      expect(JSON.parse(r.command![2]!)).to.deep.equal(expected);
      expect(r.deepLink).to.equal(`vscode:mcp/install?${encodeURIComponent(JSON.stringify(expected))}`);
    }
  });
});

describe('Windsurf, as its documentation says', () => {
  const DOC = 'docs.windsurf.com/windsurf/cascade/mcp, "mcp_config.json" and "Remote HTTP MCPs", as stored in the search tool\'s pages corpus';

  it(`reads ~/.codeium/windsurf/mcp_config.json (on Windows the same file under %USERPROFILE%), under "mcpServers" (${DOC})`, () => {
    const r = installFor(local, 'windsurf');
    expect(paths(r)).to.deep.equal([
      'macos/user: ~/.codeium/windsurf/mcp_config.json',
      'linux/user: ~/.codeium/windsurf/mcp_config.json',
      'windows/user: %USERPROFILE%\\.codeium\\windsurf\\mcp_config.json',
    ]);
    expect(Object.keys(r.config!)).to.deep.equal(['mcpServers']);
  });

  it(`starts a local server with "command", "args", "env", and reaches a remote one by "serverUrl" with "headers" (${DOC}); Windsurf has neither a CLI command nor an install link for it`, () => {
    expect(entry(installFor(local, 'windsurf'))).to.deep.equal({ command: 'npx', args: NPX, env: { API_KEY: '<API_KEY>', UNITS: 'metric' } });
    const r = installFor(remote, 'windsurf');
    expect(entry(r)).to.deep.equal({ serverUrl: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer <AUTHORIZATION>' } });
    expect(entry(installFor(sse, 'windsurf'))).to.deep.equal({ serverUrl: 'https://mcp.acme.com/sse' });
    expect([r.command, r.deepLink]).to.deep.equal([null, null]);
  });
});

describe('Gemini CLI, as its documentation says', () => {
  const DOC = 'geminicli.com/docs/tools/mcp-server (google-gemini/gemini-cli docs/tools/mcp-server.md, snapshot of 2026-08-21)';

  it(`reads ~/.gemini/settings.json (user) and .gemini/settings.json (project), under "mcpServers" (${DOC}, "Configure the MCP server in settings.json")`, () => {
    const r = installFor(local, 'gemini-cli');
    expect(paths(r)).to.deep.equal(['any/user: ~/.gemini/settings.json', 'any/project: .gemini/settings.json']);
    expect(Object.keys(r.config!)).to.deep.equal(['mcpServers']);
  });

  it(`starts a local server with "command", "args", "env", reaches Streamable HTTP by "httpUrl" and SSE by "url", with "headers" (${DOC}, "Configuration properties")`, () => {
    expect(entry(installFor(local, 'gemini-cli'))).to.deep.equal({ command: 'npx', args: NPX, env: { API_KEY: '<API_KEY>', UNITS: 'metric' } });
    expect(entry(installFor(remote, 'gemini-cli'))).to.deep.equal({ httpUrl: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer <AUTHORIZATION>' } });
    expect(entry(installFor(sse, 'gemini-cli'))).to.deep.equal({ url: 'https://mcp.acme.com/sse' });
  });

  it(`adds with \`gemini mcp add [options] <name> <commandOrUrl> [args...]\`: --scope user for ~/.gemini/settings.json, --transport http or sse and --header for a remote server (${DOC}, "Adding a server (\`gemini mcp add\`)")`, () => {
    expect(installFor(remote, 'gemini-cli').command).to.deep.equal(['gemini', 'mcp', 'add', '--scope', 'user', '--transport', 'http', '--header', 'Authorization: Bearer <AUTHORIZATION>', 'weather', 'https://mcp.acme.com/mcp']);
    expect(installFor(sse, 'gemini-cli').command).to.deep.equal(['gemini', 'mcp', 'add', '--scope', 'user', '--transport', 'sse', 'weather', 'https://mcp.acme.com/sse']);
  });

  it(`adds a local server with --env before the name and the server's own arguments after "--", so its -y is not read as Gemini's option (${DOC}, "Adding an stdio server")`, () => {
    expect(installFor(local, 'gemini-cli').command).to.deep.equal(['gemini', 'mcp', 'add', '--scope', 'user', '--env', 'API_KEY=<API_KEY>', '--env', 'UNITS=metric', 'weather', 'npx', '--', ...NPX]);
    const bare = buildServer({ packages: [{ ...npmPackage, registryType: 'pypi', identifier: 'acme-weather', environmentVariables: [] }] });
    expect(installFor(bare, 'gemini-cli').command).to.deep.equal(['gemini', 'mcp', 'add', '--scope', 'user', 'weather', 'uvx', '--', 'acme-weather==1.0.0']);
  });
});

describe('Zed, as its documentation says', () => {
  const DOC = 'zed.dev/docs/ai/mcp, "As Custom Servers", as stored in the search tool\'s docs corpus';

  it('keeps its user settings in ~/.config/zed/settings.json (zed.dev/docs/configuring-zed, "User Settings File"; the page gives no Windows path, so none is offered)', () => {
    expect(paths(installFor(local, 'zed'))).to.deep.equal(['macos/user: ~/.config/zed/settings.json', 'linux/user: ~/.config/zed/settings.json']);
  });

  it(`adds a local server under "context_servers" with "command", "args", "env", and a remote one with "url" and "headers" (${DOC}); Zed has neither a CLI command nor an install link for it`, () => {
    const r = installFor(local, 'zed');
    expect(Object.keys(r.config!)).to.deep.equal(['context_servers']);
    expect(entry(r, 'context_servers')).to.deep.equal({ command: 'npx', args: NPX, env: { API_KEY: '<API_KEY>', UNITS: 'metric' } });
    const rem = installFor(remote, 'zed');
    expect(rem.method).to.equal('remote');
    expect(entry(rem, 'context_servers')).to.deep.equal({ url: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer <AUTHORIZATION>' } });
    expect([r.command, r.deepLink, rem.command, rem.deepLink]).to.deep.equal([null, null, null, null]);
  });

  it(`bridges an SSE-only server through mcp-remote with --transport sse-only, saying why, since the page names no SSE transport for "url" (${DOC}; github.com/geelen/mcp-remote README, "Transport Strategies")`, () => {
    const r = installFor(sse, 'zed');
    expect(r).to.include({ method: 'bridge', supported: true });
    expect(r.reason).to.match(/SSE/);
    expect(entry(r, 'context_servers')).to.deep.equal({ command: 'npx', args: ['-y', 'mcp-remote', 'https://mcp.acme.com/sse', '--transport', 'sse-only'] });
  });
});
