/**
 * Times publishing on a catalog built from the three real files in ../shared/data (SQLite): each
 * publish and status change runs ingest over the whole stored catalog (identity reads every
 * record), so its time grows with the catalog. Prints the time of each call.
 *
 *   npx tsx scripts/publish-timing.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createService } from '../src/compose.js';
import { ingest } from '../src/ingest/ingest-service.js';
import { testServiceConfig } from '../test/support/service-config.js';

const DATA = new URL('../../shared/data/', import.meta.url);
const FILES = ['official-registry-v0.1-snapshot-2025-12.json', 'docker-mcp-catalog-servers.json', 'toolsdk-mcp-registry-servers.json'];

const dir = mkdtempSync(join(tmpdir(), 'sextant-publish-timing-'));
const service = await createService(testServiceConfig(`sqlite:${join(dir, 'catalog.sqlite')}`), pino({ level: 'silent' }));
try {
  const loaded = await ingest(service.store, FILES.map((file) => ({ file, text: readFileSync(new URL(file, DATA), 'utf8') })));
  console.log(`catalog: ${loaded.servers} servers from ${loaded.records} records`);
  const { token } = await service.access.create('timing', ['publish:io.acme/*'], null);
  const server = service.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const timed = async (label: string, method: string, path: string, body: unknown): Promise<void> => {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await res.arrayBuffer();
    console.log(`${label}: ${res.status} in ${Math.round(performance.now() - started)} ms`);
  };
  const doc = (version: string) => ({ name: 'io.acme/timing', version, description: 'Timing', remotes: [{ type: 'streamable-http', url: 'https://mcp.acme.example/timing' }] });
  for (const version of ['1.0.0', '1.1.0', '1.2.0']) await timed(`publish ${version}`, 'POST', '/v0.1/publish', doc(version));
  await timed('deprecate 1.0.0', 'PATCH', '/v0.1/servers/io.acme%2Ftiming/versions/1.0.0/status', { status: 'deprecated' });
  await timed('delete all', 'PATCH', '/v0.1/servers/io.acme%2Ftiming/status', { status: 'deleted' });
  await timed('publish 2.0.0 again', 'POST', '/v0.1/publish', doc('2.0.0'));
  server.close();
} finally {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
