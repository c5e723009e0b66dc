/**
 * Times a full cursor walk of the MCP Registry API (`/v0.1/servers`, 100 entries a page) over the
 * catalog built from the three files in ../shared/data: once with nothing kept (every page
 * computed) and once more (pages kept by the read model). Prints entries, pages and times.
 *
 *   npx tsx scripts/registry-walk.ts
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

const dir = mkdtempSync(join(tmpdir(), 'sextant-walk-'));
const service = await createService(testServiceConfig(`sqlite:${join(dir, 'catalog.sqlite')}`), pino({ level: 'silent' }));
try {
  await ingest(service.store, FILES.map((file) => ({ file, text: readFileSync(new URL(file, DATA), 'utf8') })));
  const server = service.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The first request compiles the route's validators: not part of a walk (a cursor no walk uses).
  await fetch(`${base}/v0.1/servers?limit=1&search=${encodeURIComponent('\u0000')}`);
  for (const label of ['computed', 'kept']) {
    const started = performance.now();
    let cursor: string | undefined;
    let entries = 0;
    let pages = 0;
    do {
      const res = await fetch(`${base}/v0.1/servers?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      const body = (await res.json()) as { servers: unknown[]; metadata: { nextCursor?: string } };
      entries += body.servers.length;
      pages += 1;
      cursor = body.metadata.nextCursor;
    } while (cursor);
    console.log(`${label}: ${entries} entries in ${pages} pages, ${Math.round(performance.now() - started)} ms`);
  }
  server.close();
} finally {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
