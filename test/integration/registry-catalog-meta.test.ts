/**
 * Sextant's block of the registry API's entries (`local.sextant/catalog`) is stored with each
 * version by ingest and served from there; it must be exactly the block made from the server's
 * stored records, for every entry of a catalog with several sources, hostile text and repairs.
 * A server the monitor has checked gets its block made from its records and checks.
 */
import { expect } from 'chai';
import { fixture, startHarness, type Harness } from '../support/harness.js';
import { createRegistryApiService, type RegistryServerList, type RegistryApiDeps } from '../../src/registry-api/registry-api-service.js';
import type { RegistryVersionRow, RegistryVersions } from '../../src/store/registry-versions.js';

type Entry = RegistryServerList['servers'][number];

describe('the registry API\'s catalog block', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: true, inputs: [fixture('hostile-web.json'), fixture('official-small.json'), fixture('docker-small.json'), fixture('toolsdk-small.json')] });
    const notion = (await h.request('/api/v1/servers/com.notion~mcp')).body;
    await h.service.store.monitor.recordCheck(
      { serverId: 'com.notion~mcp', url: notion.remotes[0].url, checkedAt: '2026-01-02T03:04:05.000Z', state: 'up', httpStatus: 200, latencyMs: 42, protocolVersion: '2025-11-25', toolCount: 3, error: null },
      10,
    );
  });
  after(async () => h.close());

  /** Every entry of the list (deleted ones too), walked 100 a page through a service over `versions`; and the servers whose records it read. */
  async function walk(versions: RegistryVersions): Promise<{ entries: Entry[]; read: string[] }> {
    const { store } = h.service;
    const read: string[] = [];
    const catalog: RegistryApiDeps['catalog'] = {
      findServers: async (ids) => {
        read.push(...ids);
        return store.catalog.findServers(ids);
      },
    };
    const service = createRegistryApiService({ versions, catalog, monitor: store.monitor });
    const entries: Entry[] = [];
    let cursor: string | undefined;
    do {
      const page = JSON.parse((await service.listServers({ limit: 100, include_deleted: true, ...(cursor ? { cursor } : {}) })).text) as RegistryServerList;
      entries.push(...page.servers);
      cursor = page.metadata.nextCursor;
    } while (cursor);
    return { entries, read };
  }

  it('is served as stored, and equals the block made from the server\'s records for every entry', async () => {
    const stored = await walk(h.service.store.registryVersions);
    const versions = h.service.store.registryVersions;
    // The same rows with no stored block, as versions written before there was one.
    const without = (rows: RegistryVersionRow[]): RegistryVersionRow[] => rows.map((row) => ({ ...row, catalogMeta: null }));
    const made = await walk({
      ...versions,
      page: async (query) => without(await versions.page(query)),
      versionsOf: async (name, includeDeleted) => without(await versions.versionsOf(name, includeDeleted)),
    });
    expect(stored.entries.length).to.be.above(30);
    expect(stored.entries.map((e) => e.server.name)).to.deep.equal(made.entries.map((e) => e.server.name));
    stored.entries.forEach((entry, i) => expect(entry, entry.server.name).to.deep.equal(made.entries[i]));
    // Only the checked server's records were read; without stored blocks, every server's.
    expect([...new Set(stored.read)]).to.deep.equal(['com.notion~mcp']);
    expect(new Set(made.read).size).to.equal(new Set(made.entries.map((e) => e._meta['local.sextant/catalog']?.id)).size);
  });

  it('reads status and trust of a checked server from its checks', async () => {
    const { entries } = await walk(h.service.store.registryVersions);
    const notion = entries.find((e) => e._meta['local.sextant/catalog']?.id === 'com.notion~mcp')?._meta['local.sextant/catalog'];
    expect(notion?.status).to.deep.equal({ state: 'up', checkedAt: '2026-01-02T03:04:05.000Z' });
    const trust = (await h.request('/api/v1/servers/com.notion~mcp/trust')).body;
    expect(notion?.trust).to.deep.equal(trust.summary);
    expect(trust.checks.find((c: { check: string }) => c.check === 'endpoint_health').outcome).to.equal('pass');
  });
});
