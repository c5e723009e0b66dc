/**
 * A database outage is not a server error: while PostgreSQL does not answer, the
 * read model serves what it kept, says 503 `database_unavailable` with `Retry-After` for the
 * rest (MCP: a tool error saying the same), /readyz says 503, and service comes back by itself
 * when the database does. The outage is made by cutting a loopback TCP proxy between the
 * service and PostgreSQL (the machine's cluster keeps running for everyone else).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { catalog } from '../support/fixture-servers.js';
import { freshDatabase, TEST_DIALECT, type TestDatabase } from '../support/database.js';
import { startHarness, type Harness } from '../support/harness.js';

/** A TCP proxy to `target` on a fixed loopback port, that can be cut (every connection closed, the port refused) and opened again. */
class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

/** Polls `probe` until it holds or `ms` pass; whether it held. */
async function eventually(probe: () => Promise<boolean>, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await probe()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
const searchCall = (q: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_servers', arguments: { q } } });

describe(`a PostgreSQL outage${TEST_DIALECT === 'postgres' ? '' : ' (skipped: the suite runs on SQLite; npm run test:pg runs this)'}`, function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let proxy: CuttableProxy;
  let h: Harness;

  before(async function () {
    if (TEST_DIALECT !== 'postgres') this.skip();
    database = await freshDatabase();
    const direct = new URL(database.url);
    proxy = new CuttableProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.open();
    const through = new URL(database.url);
    through.hostname = '127.0.0.1';
    through.port = String(proxy.port);
    h = await startHarness({
      demo: false,
      database: { ...database, url: through.toString() },
      inputs: [catalog([{ name: 'com.example/outage-widget' }, { name: 'com.example/outage-gadget' }])],
    });
  });
  after(async () => {
    await h?.close();
    await proxy?.cut();
    await database?.drop();
  });

  it('serves what it kept, says database_unavailable for the rest, and comes back by itself', async () => {
    const kept = await h.request('/api/v1/servers/search?q=widget');
    expect(kept.status).to.equal(200);
    expect(kept.body.items.map((s: { name: string }) => s.name)).to.include('com.example/outage-widget');
    const readyBefore = await h.request('/readyz');
    expect(readyBefore.status).to.equal(200);
    expect(readyBefore.body).to.deep.include({ status: 'ready' });

    await proxy.cut();
    const held = await h.request('/api/v1/servers/search?q=widget');
    expect(held.status, 'the answer kept before the outage').to.equal(200);
    expect(held.body).to.deep.equal(kept.body);

    const missing = await h.request('/api/v1/servers/search?q=gadget');
    expect(missing.status).to.equal(503);
    expect(missing.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(missing.headers.get('retry-after')).to.equal('5');
    expect(missing.body).to.deep.include({ status: 503, code: 'database_unavailable' });

    const mcp = await h.request('/mcp', { method: 'POST', headers: MCP_HEADERS, body: searchCall('gadget') });
    expect(mcp.status, 'a tool error, not a JSON-RPC internal error').to.equal(200);
    expect(mcp.body.result).to.deep.include({ isError: true });
    expect(mcp.body.result.content[0].text).to.match(/database does not answer; try again in 5 s/);

    const ready = await h.request('/readyz');
    expect(ready.status).to.equal(503);
    expect(ready.body.status).to.equal('not_ready');
    expect(ready.body.checks.database).to.equal('error');
    expect(ready.body.reason).to.be.a('string').and.not.be.empty;

    await proxy.open();
    const back = await eventually(async () => (await h.request('/api/v1/servers/search?q=gadget')).status === 200);
    expect(back, 'searches answer again once the database does').to.equal(true);
    const again = await h.request('/api/v1/servers/search?q=gadget');
    expect(again.body.items.map((s: { name: string }) => s.name)).to.deep.equal(['com.example/outage-gadget']);
    const readyAfter = await h.request('/readyz');
    expect(readyAfter.status).to.equal(200);
    expect(readyAfter.body).to.deep.include({ status: 'ready' });
  });
});
