/**
 * Prints how the category rules (src/catalog/taxonomy.ts) place the real data: the three files
 * of ../shared/data ingested into a temporary SQLite catalog, then each category's count; the
 * demo catalog's counts; and the agreement with the hand-labelled servers of
 * test/fixtures/categories/labelled.json (defined in test/support/category-agreement.ts).
 *
 *   npx tsx scripts/category-report.ts            (add --misses to list the disagreements)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingest } from '../src/ingest/ingest-service.js';
import { loadDemoCatalogIfEmpty } from '../src/ingest/demo.js';
import { createStore } from '../src/store/index.js';
import { DATA_DIR, DATA_FILES, dataAvailable, measureAgreement } from '../test/support/category-agreement.js';

/** Ingests `load` into a fresh SQLite catalog and returns its categories with counts, largest first. */
async function distribution(load: (store: ReturnType<typeof createStore>) => Promise<unknown>): Promise<{ servers: number; counts: Array<[string, number]> }> {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-categories-'));
  const store = createStore(`sqlite:${join(dir, 'catalog.sqlite')}`);
  try {
    await store.migrate();
    await load(store);
    const categories = await store.catalog.listCategories();
    const counts = categories.map((c): [string, number] => [c.slug, c.count]).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    return { servers: await store.catalog.countServers(), counts };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const print = (title: string, { servers, counts }: Awaited<ReturnType<typeof distribution>>): void => {
  console.log(`\n${title}: ${servers} servers`);
  for (const [slug, count] of counts) console.log(`  ${slug.padEnd(20)} ${String(count).padStart(5)}  ${((100 * count) / servers).toFixed(1).padStart(5)}%`);
};

print('demo catalog', await distribution((store) => loadDemoCatalogIfEmpty(store)));
if (!dataAvailable()) {
  console.log(`\n${DATA_DIR} not found: no real data to report on.`);
} else {
  print('real data (official, Docker, toolsdk)', await distribution((store) => ingest(store, DATA_FILES.map((file) => ({ file, text: readFileSync(`${DATA_DIR}${file}`, 'utf8') })))));
  const agreement = measureAgreement();
  const heldOut = agreement.servers.filter((s) => s.heldOut === true);
  const pct = (n: number): string => `${(100 * n).toFixed(1)}%`;
  console.log(`\nagreement with ${agreement.servers.length} labelled servers: ${pct(agreement.rate)} agree (primary among the labels, nothing rejected)`);
  console.log(`  precision (categories given that a person accepts): ${pct(agreement.precision)}; primary among the labels: ${pct(agreement.primary)}`);
  if (heldOut.length > 0) console.log(`  held out (labelled after the rules were written): ${pct(heldOut.filter((s) => s.agrees).length / heldOut.length)} of ${heldOut.length}`);
  if (process.argv.includes('--misses')) {
    for (const s of agreement.servers.filter((x) => !x.agrees)) console.log(`  ✗ ${s.key}: ${s.categories.join(',')} (labels ${s.labels.join(',')})`);
  }
}
