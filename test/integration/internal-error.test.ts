/** An unexpected failure is a 500 problem with the request id, and leaks nothing. */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createApp } from '../../src/app.js';
import type { DiscoveryService } from '../../src/discovery/discovery-service.js';
import { createStore } from '../../src/store/index.js';
import { contractFetch, silentLogger } from '../support/harness.js';

describe('unexpected errors', () => {
  it('answer 500 problem+json without the message or a stack trace', async () => {
    const store = createStore('sqlite::memory:');
    await store.migrate();
    const failing = new Proxy({} as DiscoveryService, {
      get: () => async () => {
        throw new Error('SQLITE_CORRUPT at /srv/secret/path.ts:42');
      },
    });
    const app = await createApp({ config: { host: '127.0.0.1', publicUrl: null, allowedHosts: [], discoveryRateLimit: 0, mcpRateLimit: 0, registryRateLimit: 0, pageRateLimit: 0, trustProxyHops: 0, rateLimitIpv6Prefix: 64, mcpAllowedOrigins: [], proxyRateLimit: 0 }, store, read: failing as never, proxy: failing as never, assessments: failing as never, logger: silentLogger });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const response = await contractFetch(baseUrl)(`${baseUrl}/api/v1/servers/search?q=x`);
      const text = await response.text();
      expect(response.status).to.equal(500);
      expect(JSON.parse(text)).to.include({ code: 'internal_error', status: 500, requestId: response.headers.get('x-request-id') });
      expect(text).not.to.match(/SQLITE|secret|\.ts|at /);
    } finally {
      server.close();
      await store.close();
    }
  });
});
