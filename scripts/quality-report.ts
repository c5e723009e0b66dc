/**
 * Prints how the quality rules (src/catalog/quality.ts) flag the real data: the three files of
 * ../shared/data ingested into a temporary SQLite catalog, then how many servers and tools carry
 * each flag; and the agreement with the hand-labelled records of test/fixtures/quality/labelled.json
 * (defined in test/support/quality-agreement.ts).
 *
 *   npx tsx scripts/quality-report.ts            (add --misses to list the disagreements, --list to list the flagged servers)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_QUALITY_FLAGS, TOOL_QUALITY_FLAGS } from '../src/catalog/quality.js';
import { ingest } from '../src/ingest/ingest-service.js';
import { openDatabase } from '../src/store/db.js';
import { createStore } from '../src/store/index.js';
import { DATA_DIR, DATA_FILES, dataAvailable } from '../test/support/category-agreement.js';
import { disagreements, measureQuality } from '../test/support/quality-agreement.js';

type Row = { name: string; quality_flags: string };

/** How many rows carry each flag, and how many carry any. */
function counted(rows: readonly Row[], flags: readonly string[]): { flagged: number; by: Map<string, number> } {
  const by = new Map(flags.map((flag) => [flag, 0]));
  let flagged = 0;
  for (const row of rows) {
    const raised = JSON.parse(row.quality_flags) as string[];
    if (raised.length > 0) flagged += 1;
    for (const flag of raised) by.set(flag, (by.get(flag) ?? 0) + 1);
  }
  return { flagged, by };
}

const pct = (part: number, whole: number): string => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;

if (!dataAvailable()) {
  console.log(`${DATA_DIR} not found: no real data to report on.`);
  process.exit(0);
}
const dir = mkdtempSync(join(tmpdir(), 'sextant-quality-'));
const url = `sqlite:${join(dir, 'catalog.sqlite')}`;
const store = createStore(url);
try {
  await store.migrate();
  await ingest(store, DATA_FILES.map((file) => ({ file, text: readFileSync(`${DATA_DIR}${file}`, 'utf8') })));
  const db = openDatabase(url);
  const servers: Row[] = await db('servers').orderBy('name').select('name', 'quality_flags');
  const tools: Row[] = await db('tools').select('name', 'quality_flags');
  await db.destroy();
  const s = counted(servers, SERVER_QUALITY_FLAGS);
  const t = counted(tools, TOOL_QUALITY_FLAGS);
  console.log(`real data (official, Docker, toolsdk): ${servers.length} servers, ${s.flagged} flagged (${pct(s.flagged, servers.length)})`);
  for (const [flag, n] of s.by) console.log(`  ${flag.padEnd(14)} ${String(n).padStart(5)}`);
  console.log(`${tools.length} tools, ${t.flagged} flagged`);
  for (const [flag, n] of t.by) console.log(`  ${flag.padEnd(14)} ${String(n).padStart(5)}`);
  if (process.argv.includes('--list')) for (const row of servers.filter((r) => r.quality_flags !== '[]')) console.log(`  ${row.name}: ${row.quality_flags}`);
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
const agreement = measureQuality();
const servers = agreement.servers.length;
console.log(`\nagreement with ${servers} labelled servers: ${pct(agreement.rate * servers, servers)} agree (every flag the labeller raises, none rejected)`);
console.log(`  flagged or not as labelled: ${pct(agreement.flaggedOrNot * servers, servers)}; held out (a random sample): ${pct(agreement.heldOut * 100, 100)}`);
console.log(`  labelled tools: ${pct(agreement.toolRate * 100, 100)} agree`);
if (process.argv.includes('--misses')) for (const line of disagreements(agreement)) console.log(`  ✗ ${line}`);
