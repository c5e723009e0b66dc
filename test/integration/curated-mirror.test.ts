/**
 * A curated Sextant mirroring a public one: instance A serves the demo catalog; instance B, with a
 * catalog policy, syncs from A's /v0.1 (let through NET_ALLOW_PRIVATE on loopback) and serves
 * only what the policy admits. Widening B's policy makes its next sync a full one, which brings
 * back the servers it had refused.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { parsePolicy } from '../../src/catalog/catalog-policy.js';
import { startPolicyReloader } from '../../src/curation/policy-reload.js';
import { sync } from '../../src/ingest/sync.js';
import { silentLogger, startHarness, type Harness } from '../support/harness.js';

const POLICY = [
  'allow:',
  '  - io.github.modelcontextprotocol/*',
  '  - io.github.github/github-mcp-server',
  '  - com.stripe/*',
  'deny:',
  '  - io.github.modelcontextprotocol/server-puppeteer',
  '  - io.github.modelcontextprotocol/server-slack',
  '',
].join('\n');

const ADMITTED = [
  'com.stripe/mcp',
  'io.github.github/github-mcp-server',
  'io.github.modelcontextprotocol/server-everything',
  'io.github.modelcontextprotocol/server-fetch',
  'io.github.modelcontextprotocol/server-filesystem',
  'io.github.modelcontextprotocol/server-git',
  'io.github.modelcontextprotocol/server-google-maps',
  'io.github.modelcontextprotocol/server-memory',
  'io.github.modelcontextprotocol/server-sequential-thinking',
  'io.github.modelcontextprotocol/server-sqlite',
  'io.github.modelcontextprotocol/server-time',
];

/** Every name an instance's /v0.1 lists, page by page. */
async function registryNames(h: Harness): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | undefined;
  do {
    const { status, body } = await h.request(`/v0.1/servers?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(status).to.equal(200);
    for (const entry of body.servers as Array<{ server: { name: string } }>) if (!names.includes(entry.server.name)) names.push(entry.server.name);
    cursor = body.metadata.nextCursor;
  } while (cursor);
  return names.sort();
}

describe('a curated Sextant mirroring a public one', function () {
  this.timeout(120_000);
  let a: Harness;
  let b: Harness;
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sextant-mirror-'));
    a = await startHarness({ demo: true });
    b = await startHarness({ demo: false, netAllowPrivate: ['127.0.0.1/32'], net: { maxResponseBytes: 64 * 1024 * 1024 } });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('A serves the whole public catalog', async () => {
    expect(await registryNames(a)).to.have.length(28).and.to.include.members(ADMITTED);
  });

  it('B, synced from A under its policy, lists exactly the admitted names on /v0.1 and serves nothing else', async () => {
    const summary = await sync(b.service.store, b.service.net, { upstream: a.baseUrl, pageSize: 10, policy: parsePolicy(POLICY) });
    expect(summary).to.include({ records: 28, notAdmitted: 17, servers: ADMITTED.length, since: null });
    expect(await registryNames(b)).to.deep.equal(ADMITTED);
    const search = (await b.request('/api/v1/servers/search?limit=100')).body;
    expect(search.total).to.equal(ADMITTED.length);
    expect((await b.request('/api/v1/servers/io.github.modelcontextprotocol~server-slack')).status).to.equal(404);
    expect((await b.request(`/v0.1/servers/${encodeURIComponent('com.notion/mcp')}/versions`)).status).to.equal(404);
  });

  it('B\'s next sync is incremental and keeps the policy', async () => {
    const summary = await sync(b.service.store, b.service.net, { upstream: a.baseUrl, pageSize: 10, policy: parsePolicy(POLICY) });
    expect(summary.since).to.be.a('string');
    expect(await registryNames(b)).to.deep.equal(ADMITTED);
  });

  it('widening B\'s policy makes its next sync a full one, which brings the refused servers back', async () => {
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, POLICY);
    const reloader = startPolicyReloader({ path: file, store: b.service.store, audit: b.service.audit, logger: silentLogger, initial: parsePolicy(POLICY), pollMs: 60_000 });
    try {
      writeFileSync(file, 'deny: [com.notion/*]\n');
      expect(await reloader.reload('test')).to.deep.include({ outcome: 'applied', widened: true, removed: 0 });
      const summary = await sync(b.service.store, b.service.net, { upstream: a.baseUrl, pageSize: 10, policy: reloader.current() });
      expect(summary).to.include({ since: null, notAdmitted: 1, servers: 27 });
      expect(await registryNames(b)).to.have.length(27).and.not.include('com.notion/mcp');
    } finally {
      reloader.close();
    }
  });
});
