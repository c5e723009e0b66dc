/**
 * `npm run search:quality`: how well search answers the labelled and the held-out sets of
 * test/fixtures/search-relevance on the real catalog (the three files of ../shared/data,
 * ingested into a temporary SQLite catalog, and with --pg a scratch PostgreSQL database).
 * Every request goes through the registry service with a page of 10, as REST and MCP callers
 * meet it, to each engine that answers relevance searches; beside them, in the same run, a plain
 * Okapi BM25 that ORs the words. Prints recall@5, recall@10, nDCG@10 and empty answers per
 * engine and kind (test/support/relevance-metrics.ts says how each is computed).
 *
 *   npm run search:quality -- [--pg] [--examples] [--misses] [--json FILE]
 *
 * --pg        also PostgreSQL, on a scratch database of the server SEARCH_QUALITY_PG_URL names
 *             (default postgres://postgres@127.0.0.1:5432/postgres), dropped at the end
 * --examples  the issue's example searches and the registry API's `search=github` (before/after)
 * --misses    the requests each engine answers with none of their labelled ids in the first 10
 * --json FILE everything measured, request by request
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, type Store } from '../src/store/index.js';
import { dataAvailable } from '../test/support/category-agreement.js';
import {
  KINDS, SETS, baselineSearcher, contractQueryLimit, ingestRealData, loadLabelledSet, measure, measuredEngines, serviceSearcher,
  type Kind, type LabelledSet, type Measured, type MeasuredEngine, type Searcher,
} from '../test/support/search-relevance.js';
import { createScratchDatabase, type ScratchDatabase } from './pg-scratch-database.js';
import { exampleRows, printExamples, registryPositions } from './search-quality-examples.js';

/** What the issue asks of every engine: this many times the baseline's recall@10. */
const TARGET_RATIO = 1.2;

interface Row {
  readonly label: string;
  readonly kind: Kind;
  readonly measured: Measured;
  readonly refused: number;
  readonly declined: number;
}

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};

async function catalogOn(url: string): Promise<Store> {
  const store = createStore(url);
  await store.migrate();
  const started = performance.now();
  await ingestRealData(store);
  console.log(`catalog on ${url.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'} built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return store;
}

async function rowsOf(set: LabelledSet, label: string, search: Searcher, counters: { refused: { count: number }; declined: { count: number } }): Promise<Row[]> {
  const rows: Row[] = [];
  for (const kind of KINDS) {
    const before = { refused: counters.refused.count, declined: counters.declined.count };
    const measured = await measure(kind, set[kind], search);
    rows.push({ label, kind, measured, refused: counters.refused.count - before.refused, declined: counters.declined.count - before.declined });
  }
  return rows;
}

async function engineRows(set: LabelledSet, engines: readonly { label: string; engine: MeasuredEngine }[], queryLimit: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const { label, engine } of engines) {
    const refused = { count: 0 };
    rows.push(...(await rowsOf(set, label, serviceSearcher(engine.registry, queryLimit, refused), { refused, declined: engine.declined })));
  }
  return rows;
}

function printTable(rows: readonly Row[]): void {
  const fixed = (n: number): string => n.toFixed(3).padStart(9);
  for (const kind of KINDS) {
    const ofKind = rows.filter((row) => row.kind === kind);
    const baseline = ofKind.find((row) => row.label === 'plain OR-bm25')?.measured.summary.recall10 ?? 0;
    console.log(`\n${kind} (${ofKind[0]?.measured.summary.requests ?? 0} requests, page of 10)`);
    console.log(`  ${'engine'.padEnd(22)} recall@5 recall@10  nDCG@10  empty refused declined  ×bm25 (target ≥ ${TARGET_RATIO})`);
    for (const row of ofKind) {
      const { recall5, recall10, ndcg10, empty } = row.measured.summary;
      const ratio = baseline > 0 ? (recall10 / baseline).toFixed(2) : '-';
      console.log(`  ${row.label.padEnd(22)}${fixed(recall5)}${fixed(recall10)}${fixed(ndcg10)}${String(empty).padStart(7)}${String(row.refused).padStart(8)}${String(row.declined).padStart(9)}  ${ratio.padStart(5)}`);
    }
  }
}

/** recall@10 of each engine by how the requests are phrased, and for those not in English. */
function printByForm(set: LabelledSet, rows: readonly Row[]): void {
  for (const kind of KINDS) {
    const groups = new Map<string, Set<string>>();
    for (const r of set[kind]) {
      for (const group of [r.form, ...(r.language === 'en' ? [] : ['not English'])]) groups.set(group, (groups.get(group) ?? new Set()).add(r.request));
    }
    console.log(`\n${kind}, recall@10 by form: ${[...groups].map(([group, requests]) => `${group} ${requests.size}`).join(', ')}`);
    for (const row of rows.filter((r) => r.kind === kind)) {
      const cells = [...groups].map(([group, requests]) => {
        const answers = row.measured.answers.filter((answer) => requests.has(answer.request));
        return `${group} ${(answers.reduce((sum, a) => sum + a.recall10, 0) / Math.max(1, answers.length)).toFixed(2)}`;
      });
      console.log(`  ${row.label.padEnd(22)} ${cells.join('  ')}`);
    }
  }
}

function printMisses(set: LabelledSet, rows: readonly Row[]): void {
  for (const row of rows) {
    const missed = row.measured.answers.filter((answer) => answer.recall10 === 0);
    console.log(`\n${row.label}, ${row.kind}: ${missed.length} of ${set[row.kind].length} requests with no labelled id in the first 10`);
    for (const answer of missed) console.log(`  ${answer.ranked.length === 0 ? '(empty)' : '       '} ${answer.request.slice(0, 110)}`);
  }
}

async function main(): Promise<number> {
  if (!dataAvailable()) {
    console.error('../shared/data not found next to the checkout: no real data to measure on.');
    return 2;
  }
  const queryLimit = contractQueryLimit();
  const dir = mkdtempSync(join(tmpdir(), 'sextant-quality-'));
  const stores: Store[] = [];
  const engines: Array<{ label: string; engine: MeasuredEngine }> = [];
  let pg: ScratchDatabase | null = null;
  try {
    const sqlite = await catalogOn(`sqlite:${join(dir, 'catalog.sqlite')}`);
    stores.push(sqlite);
    engines.push(...(await measuredEngines(sqlite)).map((engine) => ({ label: engine.name === 'memory' ? 'memory (SQLite)' : engine.name, engine })));
    if (args.includes('--pg')) {
      pg = await createScratchDatabase(process.env.SEARCH_QUALITY_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', `sextant_quality_${process.pid}`);
      const postgres = await catalogOn(pg.url);
      stores.push(postgres);
      engines.push(...(await measuredEngines(postgres)).map((engine) => ({ label: engine.name === 'memory' ? 'memory (PostgreSQL)' : engine.name, engine })));
    }
    const none = { count: 0 };
    const measured: Record<string, Row[]> = {};
    for (const name of SETS) {
      const set = loadLabelledSet(name);
      const rows = [...(await rowsOf(set, 'plain OR-bm25', await baselineSearcher(sqlite), { refused: none, declined: none })), ...(await engineRows(set, engines, queryLimit))];
      measured[name] = rows;
      console.log(`\n=== the ${name} set (test/fixtures/search-relevance${name === 'held-out' ? '/holdout-*.json' : ''})`);
      console.log(`q is refused above ${queryLimit} characters by the contract; requests over it: ${KINDS.map((k) => `${k} ${set[k].filter((r) => [...r.request].length > queryLimit).length}`).join(', ')}`);
      printTable(rows);
      printByForm(set, rows);
      if (args.includes('--misses')) printMisses(set, rows);
    }
    const examples = args.includes('--examples') ? { rows: await exampleRows(engines), registry: await registryPositions(sqlite) } : null;
    if (examples) printExamples(examples.rows, examples.registry);
    const file = option('--json');
    if (file) writeFileSync(file, `${JSON.stringify({ when: new Date().toISOString(), queryLimit, sets: measured, examples }, null, 1)}\n`);
    return 0;
  } finally {
    for (const { engine } of engines) engine.close();
    for (const store of stores) await store.close();
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exit(await main());
