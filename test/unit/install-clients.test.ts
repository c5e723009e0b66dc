/**
 * Install instructions as each client's documentation writes them: the order of `claude mcp add`
 * and the `Bearer ` prefix of a bearer-token header, in every client's config, command and link.
 */
import { expect } from 'chai';
import type { CatalogServer } from '../../src/catalog/catalog-entry.js';
import { scrubValue } from '../../src/catalog/secrets.js';
import { INSTALL_CLIENTS, installFor, type ClientInstall, type InstallClient } from '../../src/discovery/install-clients.js';
import { isBearerHeader } from '../../src/discovery/install-launch.js';
import type { Package, Remote, RemoteHeader } from '../../src/types.js';

type Json = Record<string, any>;

function buildServer(overrides: Partial<CatalogServer> = {}): CatalogServer {
  return {
    id: 'com.acme~weather', name: 'com.acme/weather', title: null, description: 'Weather.', domain: null, version: '1.0.0',
    categories: [], transports: [], endpointCount: 0, toolCount: 0, authentication: 'none', repositoryUrl: null,
    publishedAt: null, updatedAt: null, websiteUrl: null, license: null, versions: [], packages: [], remotes: [], tools: [], sources: [], toolsFingerprint: null, toolsChangedAt: null, toolFindings: null, quality: { flags: [] },
    ...overrides,
  };
}

const npmPackage = (env: Package['environmentVariables'] = []): Package => ({
  registryType: 'npm', identifier: '@acme/weather', version: '1.0.0', runtimeHint: null, transport: 'stdio',
  environmentVariables: env, arguments: [],
});
const remoteWith = (transport: Remote['transport'], headers: RemoteHeader[]): Remote => ({
  transport, url: transport === 'sse' ? 'https://mcp.acme.com/sse' : 'https://mcp.acme.com/mcp', host: 'mcp.acme.com', headers,
});
const header = (name: string, description: string): RemoteHeader => ({ name, description, isRequired: true, isSecret: true });

/** Every Claude Code option that takes a value, as `claude mcp add --help` lists them. */
const CLAUDE_OPTIONS = new Set(['--transport', '-t', '--env', '-e', '--header', '-H', '--scope', '-s']);

describe('claude mcp add', () => {
  const cases: { what: string; server: CatalogServer; argv: string[] }[] = [
    {
      what: 'a local server with variables: --transport stdio and --env, the name, then -- and the command',
      server: buildServer({ packages: [npmPackage([
        { name: 'API_KEY', description: 'Key', isRequired: true, isSecret: true },
        { name: 'UNITS', description: 'Units', isRequired: false, isSecret: false, default: 'metric' },
      ])] }),
      argv: ['claude', 'mcp', 'add', '--transport', 'stdio', '--env', 'API_KEY=<API_KEY>', '--env', 'UNITS=metric', 'weather', '--', 'npx', '-y', '@acme/weather@1.0.0'],
    },
    {
      what: 'a local server without variables',
      server: buildServer({ packages: [npmPackage()] }),
      argv: ['claude', 'mcp', 'add', '--transport', 'stdio', 'weather', '--', 'npx', '-y', '@acme/weather@1.0.0'],
    },
    {
      what: 'a remote server with headers: --transport http and --header, then the name and the URL',
      server: buildServer({ remotes: [remoteWith('streamable-http', [header('Authorization', 'Bearer token'), header('X-Team', 'Team id')])] }),
      argv: ['claude', 'mcp', 'add', '--transport', 'http', '--header', 'Authorization: Bearer <AUTHORIZATION>', '--header', 'X-Team: <X_TEAM>', 'weather', 'https://mcp.acme.com/mcp'],
    },
    {
      what: 'an SSE server',
      server: buildServer({ remotes: [remoteWith('sse', [])] }),
      argv: ['claude', 'mcp', 'add', '--transport', 'sse', 'weather', 'https://mcp.acme.com/sse'],
    },
  ];
  for (const { what, server, argv } of cases) {
    it(`puts every option before the name, as Claude Code's \`claude mcp add\` docs say (code.claude.com/docs/en/mcp, "Option ordering"): ${what}`, () => {
      const command = installFor(server, 'claude-code').command!;
      expect(command).to.deep.equal(argv);
      // After the name: the URL alone, or `--` and the server's own command line; no option of Claude Code's.
      const afterName = command.slice(command.indexOf('weather') + 1);
      expect(afterName[0] === '--' || (afterName.length === 1 && afterName[0]!.startsWith('https://')), afterName.join(' ')).to.equal(true);
      expect(command.slice(3, command.indexOf('weather')).filter((t) => t.startsWith('-')).every((t) => CLAUDE_OPTIONS.has(t))).to.equal(true);
    });
  }
});

describe('bearer-token headers', () => {
  it('reads a bearer token from the record: the Authorization header whose description names the Bearer scheme (RFC 6750 §2.1)', () => {
    const table: [RemoteHeader, boolean][] = [
      [header('Authorization', 'Bearer token'), true],
      [header('authorization', 'OAuth Bearer token for API authentication (format: Bearer <token>)'), true],
      [header('Authorization', 'Apify API token. For example \'Bearer <apify-api-token>\''), true],
      [header('Authorization', 'Hugging Face API token for authentication'), false],
      [header('Authorization', 'Basic auth, base64 of user:password'), false],
      [header('X-Api-Key', 'Your key, sent like a Bearer token'), false],
    ];
    for (const [h, bearer] of table) expect(isBearerHeader(h), `${h.name}: ${h.description}`).to.equal(bearer);
  });

  const bearer = buildServer({ remotes: [remoteWith('streamable-http', [header('Authorization', 'Bearer token')])] });
  const plain = buildServer({ remotes: [remoteWith('streamable-http', [header('Authorization', 'API token'), header('X-Api-Key', 'API key')])] });

  /** Where each client's documentation puts the header, as the user sees it in our answer. */
  const sent: Record<InstallClient, { docs: string; value: (result: ClientInstall) => string[] }> = {
    'claude-code': {
      docs: 'Claude Code docs: --header "Authorization: Bearer your-token" and "headers" in .mcp.json',
      value: (r) => [(r.config as Json).mcpServers.weather.headers.Authorization, r.command![r.command!.indexOf('--header') + 1]!],
    },
    'claude-desktop': {
      docs: 'mcp-remote README: --header Authorization:${AUTH_HEADER} with AUTH_HEADER "Bearer <auth-token>"',
      value: (r) => [(r.config as Json).mcpServers.weather.env.AUTHORIZATION_HEADER],
    },
    cursor: {
      docs: 'Cursor docs: "headers": {"Authorization": "Bearer ${env:…}"}, in the file and the install link',
      value: (r) => [(r.config as Json).mcpServers.weather.headers.Authorization, linkedCursor(r).headers.Authorization],
    },
    vscode: {
      docs: 'VS Code docs: "Authorization": "Bearer ${input:…}", in mcp.json, the install link and code --add-mcp',
      value: (r) => [(r.config as Json).servers.weather.headers.Authorization, linkedVscode(r.deepLink!).headers.Authorization, JSON.parse(r.command![2]!).headers.Authorization],
    },
    windsurf: { docs: 'Windsurf docs: "headers" beside "serverUrl"', value: (r) => [(r.config as Json).mcpServers.weather.headers.Authorization] },
    'gemini-cli': {
      docs: 'Gemini CLI docs: "headers" beside "httpUrl", and gemini mcp add --header "Authorization: Bearer abc123"',
      value: (r) => [(r.config as Json).mcpServers.weather.headers.Authorization, r.command![r.command!.indexOf('--header') + 1]!],
    },
    zed: { docs: 'Zed docs: "headers": {"Authorization": "Bearer <token>"} beside "url" in context_servers', value: (r) => [(r.config as Json).context_servers.weather.headers.Authorization] },
  };
  const expected: Record<InstallClient, string[]> = {
    'claude-code': ['Bearer <AUTHORIZATION>', 'Authorization: Bearer <AUTHORIZATION>'],
    'claude-desktop': ['Bearer <AUTHORIZATION>'],
    cursor: ['Bearer <AUTHORIZATION>', 'Bearer <AUTHORIZATION>'],
    vscode: ['Bearer ${input:authorization}', 'Bearer ${input:authorization}', 'Bearer ${input:authorization}'],
    windsurf: ['Bearer <AUTHORIZATION>'],
    'gemini-cli': ['Bearer <AUTHORIZATION>', 'Authorization: Bearer <AUTHORIZATION>'],
    zed: ['Bearer <AUTHORIZATION>'],
  };

  for (const client of INSTALL_CLIENTS) {
    it(`offers a declared bearer token as "Bearer " and the placeholder in ${client}'s config, command and link (${sent[client].docs})`, () => {
      expect(sent[client].value(installFor(bearer, client))).to.deep.equal(expected[client]);
    });

    it(`offers an Authorization header not declared bearer without a prefix in ${client}`, () => {
      const values = sent[client].value(installFor(plain, client));
      expect(values.every((v) => !v.includes('Bearer')), values.join(' | ')).to.equal(true);
    });

    it(`leaves ${client}'s bearer placeholders to the credential scrubber as placeholders, and holds no secret`, () => {
      const result = installFor(bearer, client);
      expect(scrubValue(result)).to.deep.equal(result);
      expect(JSON.stringify(result)).not.to.include('[redacted]');
    });
  }

  it('prompts VS Code for the token alone: the input is a password and the header carries the prefix', () => {
    const result = installFor(bearer, 'vscode');
    expect(result.config).to.deep.equal({
      inputs: [{ type: 'promptString', id: 'authorization', description: 'Bearer token', password: true }],
      servers: { weather: { type: 'http', url: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer ${input:authorization}' } } },
    });
  });
});

function linkedCursor(result: ClientInstall): Json {
  return JSON.parse(Buffer.from(new URL(result.deepLink!).searchParams.get('config')!, 'base64').toString('utf8'));
}

function linkedVscode(link: string): Json {
  return JSON.parse(decodeURIComponent(link.replace(/^vscode:mcp\/install\?/, '')));
}
