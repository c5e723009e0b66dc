/**
 * Expensive work through the real app and read model, with comparisons that take as long as the
 * test says: beyond the comparisons running and waiting, a REST compare is a 503 problem and the
 * compare page a 503 page, both with Retry-After; comparisons whose clients have gone before
 * their turn never start; and a connection's pipelined requests are worked on one at a time.
 */
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import { AppError } from '../../src/errors.js';
import { createReadModel } from '../../src/read/read-model.js';
import type { DiscoveryService } from '../../src/discovery/discovery-service.js';
import { createStore } from '../../src/store/index.js';
import { contractFetch, silentLogger } from '../support/harness.js';

/** The real app and read model over comparisons that last until the test lets them go. */
async function startApp() {
  const started: string[][] = [];
  const finish: Array<() => void> = [];
  const registry = new Proxy({} as DiscoveryService, {
    get: (_target, name) => {
      if (name === 'compareServers') {
        return (ids: string[]) => {
          started.push(ids);
          return new Promise((resolve) => finish.push(() => resolve({ servers: [], tools: { shared: [], unique: [] } })));
        };
      }
      if (name === 'listCategories') return async () => ({ items: [] });
      return async () => {
        throw new AppError('not_found', 'Not in this test.');
      };
    },
  });
  const store = createStore('sqlite::memory:');
  await store.migrate();
  const read = createReadModel({ discovery: registry, generation: async () => 'g1' });
  const config = { host: '127.0.0.1', publicUrl: null, allowedHosts: [], discoveryRateLimit: 0, mcpRateLimit: 0, registryRateLimit: 0, pageRateLimit: 0, trustProxyHops: 0, rateLimitIpv6Prefix: 64, mcpAllowedOrigins: [], proxyRateLimit: 0 };
  const app = await createApp({ config, store, read, proxy: registry as never, assessments: registry as never, logger: silentLogger });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stop = async (): Promise<void> => {
    for (const done of finish.splice(0)) done();
    server.closeAllConnections();
    server.close();
    await store.close();
  };
  return { baseUrl, started, finish, stop };
}

/** Comparisons at once and waiting at most (read-model.ts). */
const RUNNING = 2;
const WAITING = 64;

describe('bounded expensive work', function () {
  this.timeout(30_000);

  it('refuses a comparison beyond the queue with 503 and Retry-After (problem and page), and never starts one whose client has gone', async () => {
    const { baseUrl, started, finish, stop } = await startApp();
    const checked = contractFetch(baseUrl);
    const clients = Array.from({ length: RUNNING + WAITING }, () => new AbortController());
    try {
      const waiting = clients.map((client, i) => fetch(`${baseUrl}/api/v1/servers/compare?ids=a,b${i}`, { signal: client.signal }).catch(() => null));
      while (started.length < RUNNING) await new Promise((resolve) => setTimeout(resolve, 10));
      await new Promise((resolve) => setTimeout(resolve, 300));

      const refused = await checked(`${baseUrl}/api/v1/servers/compare?ids=a,c`);
      expect(refused.status).to.equal(503);
      expect(refused.headers.get('retry-after')).to.equal('1');
      expect(await refused.json()).to.include({ code: 'service_unavailable', detail: 'Too many comparisons are waiting; try again in a second.' });

      const page = await checked(`${baseUrl}/compare?ids=a,d`);
      expect(page.status).to.equal(503);
      expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(page.headers.get('retry-after')).to.equal('1');
      expect(page.headers.get('content-security-policy')).to.include("default-src 'none'");
      expect(await page.text()).to.include('Busy').and.include('Too many comparisons are waiting');

      for (const client of clients) client.abort();
      await Promise.all(waiting);
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const done of finish.splice(0)) done();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(started, 'only the comparisons that were running when their clients left').to.have.length(RUNNING);
    } finally {
      await stop();
    }
  });

  it('works on one request of a connection at a time: a pipelined request starts once the answer before it is written', async () => {
    const { baseUrl, started, finish, stop } = await startApp();
    const { port } = new URL(baseUrl);
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    try {
      await once(socket, 'connect');
      const answers: string[] = [];
      socket.on('data', (chunk: Buffer) => answers.push(...(chunk.toString('latin1').match(/^HTTP\/1\.1 \d{3}/gm) ?? [])));
      socket.write(['x1', 'x2', 'x3'].map((id) => `GET /api/v1/servers/compare?ids=a,${id} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`).join(''));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(started.map((ids) => ids[1]), 'the gate would run two, the connection runs one').to.deep.equal(['x1']);
      finish.shift()?.();
      while (started.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(started.map((ids) => ids[1])).to.deep.equal(['x1', 'x2']);
      while (answers.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(answers, 'the first answer, and only it').to.deep.equal(['HTTP/1.1 200']);
    } finally {
      socket.destroy();
      await stop();
    }
  });
});
