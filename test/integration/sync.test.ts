/**
 * `sextant sync` against a loopback fixture that serves the shared official snapshot in pages
 * (let through NET_ALLOW_PRIVATE): a page failing mid-run changes nothing, the next run
 * completes, and an incremental run asks for updated_since.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { sync } from '../../src/ingest/sync.js';
import { NetError } from '../../src/net/index.js';
import { startHarness, type Harness } from '../support/harness.js';
import { startFixture, type Fixture } from '../support/fixture-servers.js';

const SNAPSHOT = fileURLToPath(new URL('../../../shared/data/official-registry-v0.1-snapshot-2025-12.json', import.meta.url));
const available = existsSync(SNAPSHOT);

describe(`sync from a paged registry${available ? '' : ' (skipped: ../shared/data not found next to the checkout)'}`, function () {
  this.timeout(120_000);
  let h: Harness;
  let registry: Fixture;
  let failPage: number | null = 3;
  let entries: Array<{ _meta: Record<string, { updatedAt: string }> }> = [];

  before(async function () {
    if (!available) this.skip();
    entries = JSON.parse(readFileSync(SNAPSHOT, 'utf8')).servers;
    registry = await startFixture((req, res) => {
      const url = new URL(req.url ?? '/', 'http://fixture');
      if (url.pathname !== '/v0.1/servers') return void res.writeHead(404).end();
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const since = url.searchParams.get('updated_since');
      const matching = since ? entries.filter((e) => e._meta['io.modelcontextprotocol.registry/official']!.updatedAt > since) : entries;
      if (failPage !== null && start / limit + 1 === failPage) return void res.writeHead(503).end('maintenance');
      const page = matching.slice(start, start + limit);
      const next = start + limit < matching.length ? String(start + limit) : undefined;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ servers: page, metadata: { count: page.length, ...(next ? { nextCursor: next } : {}) } }));
    });
    h = await startHarness({ demo: false, netAllowPrivate: ['127.0.0.1/32'], net: { maxResponseBytes: 64 * 1024 * 1024 } });
  });
  after(async () => {
    await h?.close();
    await registry?.close();
  });

  it('leaves the catalog unchanged when a page fails mid-run', async () => {
    const failure = await sync(h.service.store, h.service.net, { upstream: registry.url, pageSize: 500 }).catch((err: unknown) => err);
    expect(failure).to.be.instanceOf(Error);
    expect((failure as Error).message).to.match(/HTTP 503/);
    expect(await h.service.store.catalog.countServers()).to.equal(0);
  });

  it('completes on the next run, page by page, merging versions like ingest', async () => {
    failPage = null;
    const summary = await sync(h.service.store, h.service.net, { upstream: registry.url, pageSize: 500 });
    expect(summary).to.include({ pages: 5, records: 964, added: 964, since: null });
    expect(registry.requests.filter((r) => r.url.includes('cursor=')).length).to.be.greaterThan(3);
    const github = (await h.request('/api/v1/servers/io.github.github~github-mcp-server')).body;
    expect(github.versions.length).to.be.greaterThan(1);
  });

  it('asks only for what changed since the last successful run', async () => {
    const summary = await sync(h.service.store, h.service.net, { upstream: registry.url, pageSize: 500 });
    const last = registry.requests.at(-1)!;
    expect(new URL(last.url, 'http://fixture').searchParams.get('updated_since')).to.match(/^\d{4}-\d{2}-\d{2}T/);
    expect(summary).to.include({ added: 0, updated: 0 });
    expect(summary.since).to.be.a('string');
  });

  it('applies an incremental change, keeping the versions it already knew', async () => {
    const before = (await h.request('/api/v1/servers/io.github.github~github-mcp-server')).body;
    const latest = entries.find((e) => (e as unknown as { server: { name: string } }).server.name === 'io.github.github/github-mcp-server'
      && e._meta['io.modelcontextprotocol.registry/official']!.updatedAt !== undefined) as unknown as { server: Record<string, unknown>; _meta: Record<string, Record<string, unknown>> };
    const future = new Date(Date.now() + 3_600_000).toISOString();
    entries.push({ server: { ...latest.server, version: '99.0.0' }, _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: future, updatedAt: future, isLatest: true } } } as never);
    const summary = await sync(h.service.store, h.service.net, { upstream: registry.url, pageSize: 500 });
    expect(summary).to.include({ records: 1, updated: 1, added: 0 });
    const after = (await h.request('/api/v1/servers/io.github.github~github-mcp-server')).body;
    expect(after.version).to.equal('99.0.0');
    expect(after.versions.map((v: { version: string }) => v.version)).to.deep.equal(['99.0.0', ...before.versions.map((v: { version: string }) => v.version)]);
    expect(after.versions.filter((v: { isLatest: boolean }) => v.isLatest)).to.have.length(1);
  });

  it('goes through the network guard: with the allow list empty the fixture is refused', async () => {
    const guarded = await startHarness({ demo: false, netAllowPrivate: [] });
    try {
      const before = registry.connections();
      const failure = await sync(guarded.service.store, guarded.service.net, { upstream: registry.url }).catch((err: unknown) => err);
      expect(failure).to.be.instanceOf(NetError);
      expect((failure as NetError).code).to.equal('blocked_destination');
      expect(registry.connections()).to.equal(before);
    } finally {
      await guarded.close();
    }
  });
});
