/**
 * VS Code's "Registry only" policy (GitHub's MCP registry setting) against Sextant: VS Code lets a
 * user run a remote server only when the URL they configured equals one of the registry entry's
 * `remotes[].url`. The URL Sextant's install instructions give for VS Code (its config file and
 * its install link) must therefore be one of the `/v0.1` entry's, for every catalogued server
 * with a remote: published here, official, and those only Docker or toolsdk list.
 */
import { expect } from 'chai';
import { fixture, startHarness, type Harness } from '../support/harness.js';

const CATALOG = 'local.sextant/catalog';
type Entry = { server: { name: string; remotes?: Array<{ url: string }> }; _meta: Record<string, any> };

/** Every latest `/v0.1` entry, by the catalog id its Sextant block names. */
async function entriesById(h: Harness): Promise<Map<string, Entry>> {
  const out = new Map<string, Entry>();
  let cursor: string | undefined;
  do {
    const { body } = await h.request(`/v0.1/servers?version=latest&limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    for (const entry of body.servers as Entry[]) out.set(entry._meta[CATALOG].id, entry);
    cursor = body.metadata.nextCursor;
  } while (cursor);
  return out;
}

/** The URLs VS Code is told to configure: the config file's entry and the install link's. */
function vscodeUrls(install: any): string[] {
  const fromConfig = Object.values(install.config.servers as Record<string, { url?: string }>).map((entry) => entry.url);
  const link = JSON.parse(decodeURIComponent(String(install.deepLink).replace(/^vscode:mcp\/install\?/, ''))) as { url?: string };
  return [...fromConfig, link.url].filter((url): url is string => typeof url === 'string');
}

describe('VS Code "Registry only" against Sextant', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ inputs: [fixture('official-small.json'), fixture('docker-small.json'), fixture('toolsdk-small.json')] });
    const { token } = await h.service.access.create('acme-ci', ['publish:io.acme/*'], null);
    const published = await h.request('/v0.1/publish', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'io.acme/tickets', version: '1.0.0', description: 'Acme support tickets', remotes: [{ type: 'streamable-http', url: 'https://mcp.acme.example/tickets/mcp' }] }),
    });
    expect(published.status).to.equal(200);
  });
  after(async () => h?.close());

  it("gives VS Code a URL that is one of the entry's remotes, for every server with a remote", async () => {
    const entries = await entriesById(h);
    const servers = (await h.request('/api/v1/servers/search?limit=100&sort=endpoints')).body.items.filter((s: { endpointCount: number }) => s.endpointCount > 0);
    const sources = new Set<string>();
    for (const { id } of servers as Array<{ id: string }>) {
      const server = (await h.request(`/api/v1/servers/${encodeURIComponent(id)}`)).body;
      const install = (await h.request(`/api/v1/servers/${encodeURIComponent(id)}/install?client=vscode`)).body.clients[0];
      expect(install.method, id).to.equal('remote');
      const entry = entries.get(id);
      expect(entry, `${id} is listed in /v0.1`).to.not.equal(undefined);
      const remotes = (entry?.server.remotes ?? []).map((r) => r.url);
      const urls = vscodeUrls(install);
      expect(urls, id).to.have.length(2);
      for (const url of urls) expect(remotes, `${id}: ${url}`).to.include(url);
      for (const s of server.sources as Array<{ source: string }>) sources.add(s.source);
      if (server.sources.length === 1) sources.add(`${server.sources[0].source} only`);
    }
    // The toolsdk fixture lists no remote, so the local names are proved by Docker's.
    expect([...sources]).to.include.members(['publisher only', 'official', 'docker only']);
  });
});
