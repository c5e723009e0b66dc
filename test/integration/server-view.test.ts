/**
 * A server's view (the read behind its web page): one read of the server with its records and one of its
 * checks must give exactly what the single reads give, the ones REST serves: the server, its
 * tools, install instructions for every client, trust and status. Servers with packages,
 * remotes, several sources, many tools, hostile text and recorded checks, on both databases.
 */
import { expect } from 'chai';
import { fixture, startHarness, type Harness } from '../support/harness.js';

/** `observedAt` of a check that nothing observed yet is the time of the read: equal up to the clock. */
function withoutReadTimes(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v) => (key === 'observedAt' ? 'at' : v));
}

describe('a server view', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    // Another publisher's "notion" server: its install key is `notion-2`, not the base of its name.
    const lookalike = { file: 'lookalike.json', text: JSON.stringify({ servers: [{ server: { name: 'io.github.someone/notion', description: 'Another Notion server.', version: '1.0.0', packages: [{ registryType: 'npm', identifier: 'notion-lookalike', version: '1.0.0', transport: { type: 'stdio' } }] }, _meta: {} }] }) };
    h = await startHarness({ demo: true, inputs: [fixture('hostile-web.json'), fixture('official-small.json'), fixture('docker-small.json'), fixture('toolsdk-small.json'), lookalike] });
    const notion = (await h.request('/api/v1/servers/com.notion~mcp')).body;
    const url: string = notion.remotes[0].url;
    await h.service.store.monitor.recordCheck(
      { serverId: 'com.notion~mcp', url, checkedAt: '2026-01-02T03:04:05.000Z', state: 'up', httpStatus: 200, latencyMs: 42, protocolVersion: '2025-11-25', toolCount: 3, error: null },
      10,
    );
  });
  after(async () => h.close());

  it('is what the single reads give, for every server of the catalog', async () => {
    const { read } = h.service;
    const ids: string[] = (await h.request('/api/v1/servers/search?sort=a-z&limit=100')).body.items.map((item: { id: string }) => item.id);
    expect(ids.length).to.be.above(30);
    for (const id of ids) {
      const view = await read.getServerView(id);
      const [server, tools, install, trust, status] = await Promise.all([
        read.getServer(id), read.getServerTools(id), read.getInstall(id), read.getTrust(id), read.getStatus(id),
      ]);
      expect(view.server, id).to.deep.equal(server.value);
      expect(view.tools, id).to.deep.equal(tools.value);
      expect(view.install, id).to.deep.equal(install.value);
      expect(withoutReadTimes(view.trust), id).to.deep.equal(withoutReadTimes(trust.value));
      expect(view.status, id).to.deep.equal(status.value);
    }
  });

  it('installs under the key the catalog assigned, which is not always its name\'s', async () => {
    const view = await h.service.read.getServerView('io.github.someone~notion');
    const claude = view.install.clients.find((client) => client.client === 'claude-desktop');
    expect(Object.keys((claude?.config as { mcpServers: Record<string, unknown> }).mcpServers)).to.deep.equal(['notion-2']);
  });

  it('finds a server by its name too, and shows its recorded check', async () => {
    const view = await h.service.read.getServerView('com.notion/mcp');
    expect(view.server.id).to.equal('com.notion~mcp');
    expect(view.status.endpoints[0]).to.include({ state: 'up', httpStatus: 200, latencyMs: 42 });
    expect(view.trust.checks.find((check) => check.check === 'endpoint_health')?.outcome).to.equal('pass');
  });

  it('says not found for an unknown server, and for a key that cannot be stored', async () => {
    for (const id of ['no.such~server', 'a'.repeat(5000)]) {
      const failed = await h.service.read.getServerView(id).then(() => null, (err: unknown) => err);
      expect(failed, id).to.have.property('code', 'not_found');
    }
  });
});
