/**
 * No credential ever leaves the service: records carrying planted secrets in every place a
 * secret can hide are ingested, then every route and every MCP tool is called for them.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { fixture, startHarness, type Harness } from '../support/harness.js';

const CANARIES: Record<string, string> = JSON.parse(readFileSync(new URL('../fixtures/canary-values.json', import.meta.url), 'utf8'));
const SERVER = 'io.github.canary~leaky';

describe('credential canaries', () => {
  let h: Harness;
  const seen: string[] = [];
  before(async () => {
    h = await startHarness({ inputs: ['canary-official.json', 'canary-docker.json', 'canary-toolsdk.json'].map(fixture) });
  });
  after(async () => h.close());

  const get = async (path: string): Promise<any> => {
    const { status, body } = await h.request(path);
    expect(status, path).to.equal(200);
    seen.push(JSON.stringify(body));
    return body;
  };
  const mcp = async (name: string, args: Record<string, unknown>): Promise<any> => {
    const { body } = await h.request('/mcp', {
      method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    });
    expect(body.result?.isError, `${name}: ${JSON.stringify(body)}`).to.equal(false);
    seen.push(JSON.stringify(body));
    return body.result.structuredContent;
  };

  it('merged the three planted records into one server', async () => {
    const server = await get(`/api/v1/servers/${SERVER}`);
    expect(server.sources.map((s: { source: string }) => s.source)).to.deep.equal(['docker', 'official', 'toolsdk']);
  });

  const everyRoute = async (): Promise<void> => {
    const server = await get(`/api/v1/servers/${SERVER}`);
    await get(`/api/v1/servers/${encodeURIComponent('io.github.canary/leaky')}`);
    await get('/api/v1/servers/search?q=leaky');
    await get('/api/v1/servers/search?q=leak&sort=a-z&limit=100');
    await get('/api/v1/tools/search?q=leak&limit=100');
    for (const tool of server.tools) await get(`/api/v1/tools/${encodeURIComponent(tool.id)}`);
    await get(`/api/v1/servers/${SERVER}/install`);
    await get(`/api/v1/servers/${SERVER}/trust`);
    await get(`/api/v1/servers/${SERVER}/status`);
    await get(`/api/v1/servers/compare?ids=${SERVER},io.github.github~github-mcp-server`);
    await get('/api/v1/categories');
    await get('/api/search?q=leaky');
    await get('/api/categories');
    await get(`/api/servers/${server.domain}`);
  };

  it('serves every REST route for the server without a canary', everyRoute);

  it('serves them again (now from the response cache) without a canary', everyRoute);

  it('serves every MCP tool for the server without a canary', async () => {
    await mcp('search_servers', { q: 'leaky' });
    await mcp('search_tools', { q: 'leak' });
    const server = await mcp('get_server', { id: SERVER });
    for (const tool of server.tools) await mcp('get_tool', { id: tool.id });
    await mcp('get_install', { id: SERVER });
    await mcp('get_trust', { id: SERVER });
    await mcp('get_status', { id: SERVER });
    await mcp('compare_servers', { ids: [SERVER, 'io.github.github~github-mcp-server'] });
    await mcp('list_categories', {});
  });

  it('found no canary in any response', () => {
    expect(seen.length).to.be.greaterThan(20);
    const all = seen.join('\n');
    for (const [where, canary] of Object.entries(CANARIES)) {
      for (const part of canary.split('\n')) expect(all.includes(part), `${where} leaked: ${part}`).to.equal(false);
    }
  });

  it('kept the values that are not secret, and the names and descriptions of secret inputs', async () => {
    const server = await get(`/api/v1/servers/${SERVER}`);
    const npm = server.packages.find((p: { registryType: string }) => p.registryType === 'npm');
    expect(npm.arguments.find((a: { name: string }) => a.name === '--region')).to.include({ value: 'eu-central-1' });
    expect(npm.environmentVariables.find((v: { name: string }) => v.name === 'UNITS')).to.include({ default: 'imperial' });
    expect(npm.environmentVariables.find((v: { name: string }) => v.name === 'LEAKY_KEY')).to.deep.equal({ name: 'LEAKY_KEY', description: 'Key like [redacted]', isRequired: true, isSecret: true });
    expect(server.remotes[0].url).to.equal('https://mcp.leaky.example.com/mcp?region=eu');
    const install = await get(`/api/v1/servers/${SERVER}/install?client=claude-desktop`);
    expect(JSON.stringify(install)).to.contain('eu-central-1').and.to.contain('imperial');
  });
});
