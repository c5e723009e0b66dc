/** Install instructions per client and per server kind (npm, PyPI, OCI, remote with and without auth). */
import { expect } from 'chai';
import { fixture, startHarness, type Harness } from '../support/harness.js';
import type { components } from '../../generated/openapi.js';

type ClientInstall = components['schemas']['ClientInstall'];
type Json = Record<string, any>;

const CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'gemini-cli', 'zed'] as const;
/** The key under which each client keeps its servers. */
const SERVERS_KEY: Record<(typeof CLIENTS)[number], string> = {
  'claude-desktop': 'mcpServers', 'claude-code': 'mcpServers', cursor: 'mcpServers', vscode: 'servers', windsurf: 'mcpServers', 'gemini-cli': 'mcpServers', zed: 'context_servers',
};

describe('install instructions', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false, inputs: [fixture('install-kinds.json'), fixture('toolsdk-go.json')] });
  });
  after(async () => h.close());

  const install = async (id: string, client: (typeof CLIENTS)[number]): Promise<ClientInstall> => {
    const { data, response } = await h.client.GET('/api/v1/servers/{id}/install', { params: { path: { id }, query: { client } } });
    expect(response.status).to.equal(200);
    expect(data?.clients).to.have.length(1);
    return data!.clients[0]!;
  };
  const entryOf = (result: ClientInstall, client: (typeof CLIENTS)[number], name: string): Json => {
    const config = result.config as Json;
    expect(config, `${client} config`).to.have.property(SERVERS_KEY[client]);
    const entry = config[SERVERS_KEY[client]][name];
    expect(entry, `${client} entry ${name}`).to.be.an('object');
    return entry;
  };

  it('returns every supported client without client', async () => {
    const { data } = await h.client.GET('/api/v1/servers/{id}/install', { params: { path: { id: 'io.github.acme~npm-tool' } } });
    expect(data?.clients.map((c) => c.client)).to.deep.equal([...CLIENTS]);
    expect(data?.clients.every((c) => c.supported && c.configFiles.length > 0)).to.equal(true);
  });

  it('runs an npm package with npx, pinned, with placeholders for secrets and defaults kept', async () => {
    const result = await install('io.github.acme~npm-tool', 'claude-desktop');
    expect(result.method).to.equal('package');
    expect(entryOf(result, 'claude-desktop', 'npm-tool')).to.deep.equal({
      command: 'npx',
      args: ['-y', '@acme/npm-tool@1.0.0', '--region', 'eu-west-1', '--token', '<TOKEN>'],
      env: { API_KEY: '<API_KEY>', UNITS: 'metric' },
    });
    expect(result.inputs.map((i) => `${i.kind}:${i.name}:${i.isSecret}`)).to.deep.equal(['env:API_KEY:true', 'env:UNITS:false', 'env:VERBOSE:false', 'argument:--token:true']);
  });

  it('runs a PyPI package with uvx and an OCI image with docker run', async () => {
    const py = entryOf(await install('io.github.acme~py-tool', 'cursor'), 'cursor', 'py-tool');
    expect(py).to.deep.equal({ command: 'uvx', args: ['acme-py-tool==1.2.3'] });
    const oci = entryOf(await install('io.github.acme~oci-tool', 'windsurf'), 'windsurf', 'oci-tool');
    expect(oci).to.deep.equal({ command: 'docker', args: ['run', '-i', '--rm', '-e', 'SECRET_TOKEN', 'ghcr.io/acme/oci-tool:2.0.0'], env: { SECRET_TOKEN: '<SECRET_TOKEN>' } });
  });

  it('builds the claude mcp add command as argv tokens, every option before the name, as Claude Code\'s `claude mcp add` docs say', async () => {
    expect((await install('io.github.acme~npm-tool', 'claude-code')).command).to.deep.equal([
      'claude', 'mcp', 'add', '--transport', 'stdio', '--env', 'API_KEY=<API_KEY>', '--env', 'UNITS=metric', 'npm-tool', '--', 'npx', '-y', '@acme/npm-tool@1.0.0', '--region', 'eu-west-1', '--token', '<TOKEN>',
    ]);
    const remote = await install('com.acme~remote-auth', 'claude-code');
    expect(remote.command).to.deep.equal(['claude', 'mcp', 'add', '--transport', 'http', '--header', 'Authorization: Bearer <AUTHORIZATION>', 'remote-auth', 'https://mcp.acme.com/mcp']);
    expect(entryOf(remote, 'claude-code', 'remote-auth')).to.deep.equal({ type: 'http', url: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer <AUTHORIZATION>' } });
    const sse = await install('com.acme~remote-open', 'claude-code');
    expect(sse.command).to.deep.equal(['claude', 'mcp', 'add', '--transport', 'sse', 'remote-open', 'https://mcp.acme.com/sse']);
  });

  it('uses each client\'s own keys for remote servers', async () => {
    expect(entryOf(await install('com.acme~remote-auth', 'windsurf'), 'windsurf', 'remote-auth')).to.deep.equal({ serverUrl: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer <AUTHORIZATION>' } });
    expect(entryOf(await install('com.acme~remote-auth', 'cursor'), 'cursor', 'remote-auth')).to.deep.equal({ url: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer <AUTHORIZATION>' } });
    expect(entryOf(await install('com.acme~remote-auth', 'gemini-cli'), 'gemini-cli', 'remote-auth')).to.deep.equal({ httpUrl: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer <AUTHORIZATION>' } });
    expect(entryOf(await install('com.acme~remote-open', 'gemini-cli'), 'gemini-cli', 'remote-open')).to.deep.equal({ url: 'https://mcp.acme.com/sse' });
    expect(entryOf(await install('com.acme~remote-auth', 'zed'), 'zed', 'remote-auth')).to.deep.equal({ url: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer <AUTHORIZATION>' } });
  });

  it('gives VS Code servers with inputs prompting for secrets, and a link and command with the same JSON', async () => {
    const result = await install('io.github.acme~npm-tool', 'vscode');
    const config = result.config as Json;
    expect(config.inputs).to.deep.equal([
      { type: 'promptString', id: 'api-key', description: 'Your API key', password: true },
      { type: 'promptString', id: 'token', description: 'Access token', password: true },
    ]);
    const entry = entryOf(result, 'vscode', 'npm-tool');
    expect(entry).to.deep.equal({
      type: 'stdio', command: 'npx', args: ['-y', '@acme/npm-tool@1.0.0', '--region', 'eu-west-1', '--token', '${input:token}'],
      env: { API_KEY: '${input:api-key}', UNITS: 'metric' },
    });
    const linked = JSON.parse(decodeURIComponent(result.deepLink!.replace(/^vscode:mcp\/install\?/, '')));
    expect(linked).to.deep.equal({ name: 'npm-tool', ...entry, inputs: config.inputs });
    expect(result.command?.slice(0, 2)).to.deep.equal(['code', '--add-mcp']);
    expect(JSON.parse(result.command![2]!)).to.deep.equal(linked);
    const remote = entryOf(await install('com.acme~remote-auth', 'vscode'), 'vscode', 'remote-auth');
    expect(remote).to.deep.equal({ type: 'http', url: 'https://mcp.acme.com/mcp', headers: { Authorization: 'Bearer ${input:authorization}' } });
  });

  it('gives Cursor a deep link whose config decodes to the same JSON', async () => {
    for (const id of ['io.github.acme~npm-tool', 'com.acme~remote-auth']) {
      const result = await install(id, 'cursor');
      const url = new URL(result.deepLink!);
      expect(`${url.protocol}//${url.host}${url.pathname}`).to.equal('cursor://anysphere.cursor-deeplink/mcp/install');
      const name = url.searchParams.get('name')!;
      expect(JSON.parse(Buffer.from(url.searchParams.get('config')!, 'base64').toString('utf8'))).to.deep.equal(entryOf(result, 'cursor', name));
    }
  });

  it('bridges a remote-only server into Claude Desktop with mcp-remote, saying why', async () => {
    const result = await install('com.acme~remote-auth', 'claude-desktop');
    expect(result).to.include({ method: 'bridge', supported: true });
    expect(result.reason).to.match(/local commands/);
    expect(entryOf(result, 'claude-desktop', 'remote-auth')).to.deep.equal({
      command: 'npx', args: ['-y', 'mcp-remote', 'https://mcp.acme.com/mcp', '--header', 'Authorization:${AUTHORIZATION_HEADER}'],
      env: { AUTHORIZATION_HEADER: 'Bearer <AUTHORIZATION>' },
    });
    const sse = entryOf(await install('com.acme~remote-open', 'claude-desktop'), 'claude-desktop', 'remote-open');
    expect(sse.args).to.deep.equal(['-y', 'mcp-remote', 'https://mcp.acme.com/sse', '--transport', 'sse-only']);
  });

  it('says unsupported, with the reason, when there is nothing to run or connect to', async () => {
    const { data } = await h.client.GET('/api/v1/servers/{id}/install', { params: { path: { id: 'github.com-acme-go-only' } } });
    for (const client of data!.clients) {
      expect(client, client.client).to.include({ supported: false, method: null, config: null, command: null, deepLink: null });
      expect(client.reason).to.match(/no npm, PyPI or OCI package/);
    }
  });

  it('answers an unknown client with 400 listing the valid ones, and an unknown server with 404', async () => {
    const bad = await h.request('/api/v1/servers/io.github.acme~npm-tool/install?client=emacs');
    expect(bad.status).to.equal(400);
    expect(bad.body.errors[0]).to.deep.equal({ location: 'query.client', message: `must be one of: ${CLIENTS.join(', ')}` });
    const unknown = await h.request('/api/v1/servers/nope~nope/install');
    expect(unknown.status).to.equal(404);
    expect(unknown.body.code).to.equal('not_found');
    expect(unknown.body.detail).to.contain('nope~nope');
  });
});
