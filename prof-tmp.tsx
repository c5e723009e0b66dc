import { readFileSync, existsSync } from 'node:fs';
import { pino } from 'pino';
import { createService } from './src/compose.js';
import { ingest } from './src/ingest/ingest-service.js';
import { testServiceConfig } from './test/support/service-config.js';
const DATA = '/work/shared/data/';
const FILES = ['official-registry-v0.1-snapshot-2025-12.json', 'docker-mcp-catalog-servers.json', 'toolsdk-mcp-registry-servers.json'];
const fresh = !existsSync('/tmp/flood.sqlite');
const service = await createService(testServiceConfig('sqlite:/tmp/flood.sqlite'), pino({ level: 'silent' }));
if (fresh) await ingest(service.store, FILES.map((file) => ({ file, text: readFileSync(`${DATA}${file}`, 'utf8') })));
await service.warmSearch();
const top = await service.read.searchServers({ sort: 'tools', limit: 10, offset: 0 });
const ids = top.value.items.map((s) => s.id);
console.log(top.value.items.map((s) => s.toolCount));
const { createWebPages } = await import('./src/web/web-pages.js');
const { loadAssets } = await import('./src/web/assets.js');
const pages = createWebPages({ read: service.read, assessments: service.assessments, assets: loadAssets() });
for (let i = 0; i < 5; i++) {
  const order = [...ids.slice(i), ...ids.slice(0, i)];
  let t = performance.now();
  const c = await service.registry.compareServers(order);
  const compute = performance.now() - t;
  t = performance.now();
  const page = await pages.compare(order);
  console.log('compare compute', compute.toFixed(1), 'page (incl compute)', (performance.now() - t).toFixed(1), 'bytes', page.text.bytes.length, 'json', JSON.stringify(c).length);
}
await service.close();
