/**
 * Search quality on the labelled sets (test/fixtures/search-relevance: the labelled set, and the
 * held-out set written after the rules were tuned) and the real catalog: the three files of
 * ../shared/data ingested once, every request asked through the discovery service (a page of 10,
 * as REST and MCP callers get it) of each engine that answers relevance searches (the in-memory
 * engine and FTS5; under `npm run test:pg` the in-memory engine and PostgreSQL), and a plain
 * OR-bm25 over the same records computed beside them.
 *
 * The floors: recall@10 at least FLOORS times the plain OR-bm25's, per set and kind (a little
 * under what the engines reach: docs/decisions/search-matching.md has the figures), and no empty
 * answer, a request the contract refuses (`q` too long) counting as one. `npm run search:quality`
 * prints the figures these floors are checked against.
 * Skipped, with the reason, where ../shared/data is absent (a bare clone).
 */
import { expect } from 'chai';
import { createStore, type Store } from '../../src/store/index.js';
import { dataAvailable } from '../support/category-agreement.js';
import { freshDatabase, TEST_DIALECT, type TestDatabase } from '../support/database.js';
import type { Summary } from '../support/relevance-metrics.js';
import {
  KINDS, SETS, baselineSearcher, catalogIds, contractQueryLimit, ingestRealData, loadLabelledSet, measure, measuredEngines, serviceSearcher,
  type Kind, type Measured, type MeasuredEngine, type SetName,
} from '../support/search-relevance.js';

/**
 * Recall@10 at least this many times the plain OR-bm25's, by set, engine and kind: a little under
 * what the engines reach (labelled 1.22× / 1.21×, the issue's target being 1.2×; held-out 1.56× / 1.40×). PostgreSQL's own engine ranks with ts_rank, a stand-in for bm25
 * (ranking.ts: TS_RANK_WEIGHTS), and finds less; it answers only while the in-memory engine builds
 * its index.
 */
const FLOORS: Readonly<Record<SetName, Readonly<Record<'bm25' | 'postgres', Readonly<Record<Kind, number>>>>>> = {
  labelled: { bm25: { servers: 1.2, tools: 1.2 }, postgres: { servers: 0.78, tools: 0.74 } },
  'held-out': { bm25: { servers: 1.5, tools: 1.35 }, postgres: { servers: 0.62, tools: 0.62 } },
};
/** What the plain OR-bm25 finds at least, so that the ratios stand on something. */
const BASELINE_FLOOR: Readonly<Record<SetName, number>> = { labelled: 0.3, 'held-out': 0.2 };
/** Requests of each kind a set holds at least. */
const MIN_REQUESTS: Readonly<Record<SetName, number>> = { labelled: 75, 'held-out': 40 };
const SQL_ENGINE = TEST_DIALECT === 'postgres' ? 'postgres' : 'fts5';
const ENGINES = ['memory', SQL_ENGINE] as const;

const available = dataAvailable();
const figures = (s: Summary): string => `recall@5 ${s.recall5.toFixed(3)}, recall@10 ${s.recall10.toFixed(3)}, nDCG@10 ${s.ndcg10.toFixed(3)}, ${s.empty} empty`;

describe(`search on the labelled sets of real requests${available ? '' : ' (skipped: ../shared/data not found next to the checkout)'}`, function () {
  this.timeout(600_000);
  let database: TestDatabase;
  let store: Store;
  let engines: MeasuredEngine[] = [];
  const sets = new Map(SETS.map((name) => [name, loadLabelledSet(name)]));
  const baseline = new Map<string, Measured>();
  const measured = new Map<string, Measured>();

  before(async function () {
    if (!available) this.skip();
    database = await freshDatabase();
    store = createStore(database.url);
    await store.migrate();
    await ingestRealData(store);
    engines = await measuredEngines(store);
    const plain = await baselineSearcher(store);
    for (const [name, set] of sets) {
      for (const kind of KINDS) {
        baseline.set(`${name} ${kind}`, await measure(kind, set[kind], plain));
        for (const engine of engines) measured.set(`${name} ${engine.name} ${kind}`, await measure(kind, set[kind], serviceSearcher(engine.registry, contractQueryLimit(), { count: 0 })));
      }
    }
  });
  after(async () => {
    for (const engine of engines) engine.close();
    await store?.close();
    await database?.drop();
  });

  for (const name of SETS) {
    const floorOf = (engine: string, kind: Kind): number => FLOORS[name][engine === 'postgres' ? 'postgres' : 'bm25'][kind];
    describe(`the ${name} set`, () => {
      it(`holds at least ${MIN_REQUESTS[name]} requests of each kind, tasks, questions and whole agent tasks among them, some in other languages`, () => {
        const set = sets.get(name);
        for (const kind of KINDS) {
          expect(set?.[kind].length, kind).to.be.at.least(MIN_REQUESTS[name]);
          expect(new Set(set?.[kind].map((r) => r.form)), kind).to.include.members(['keywords', 'question', 'task', 'agent']);
          expect(set?.[kind].filter((r) => r.language !== 'en').length, kind).to.be.at.least(3);
          expect(set?.[kind].every((r) => Object.keys(r.relevant).length > 0), kind).to.equal(true);
        }
      });

      it('labels only ids the real catalog has', async () => {
        const ids = await catalogIds(store);
        for (const kind of KINDS) {
          const unknown = (sets.get(name)?.[kind] ?? []).flatMap((r) => Object.keys(r.relevant).filter((id) => !ids[kind].has(id)).map((id) => `${r.request} → ${id}`));
          expect(unknown, `${kind} labelled with ids the catalog does not have`).to.deep.equal([]);
        }
      });

      it('puts the plain OR-bm25 baseline on its feet: it finds a good share of the labelled ids', () => {
        for (const kind of KINDS) expect(baseline.get(`${name} ${kind}`)?.summary.recall10, kind).to.be.above(BASELINE_FLOOR[name]);
      });

      for (const engine of ENGINES) {
        for (const kind of KINDS) {
          it(`${engine}: ${kind} search finds at least ${floorOf(engine, kind)}× the plain OR-bm25's recall@10`, () => {
            const got = measured.get(`${name} ${engine} ${kind}`)?.summary;
            const plain = baseline.get(`${name} ${kind}`)?.summary;
            expect(got && plain, 'measured').to.not.equal(undefined);
            if (!got || !plain) return;
            expect(got.recall10, `${engine} ${kind}: ${figures(got)}; plain OR-bm25: ${figures(plain)}`).to.be.at.least(floorOf(engine, kind) * plain.recall10);
          });

          it(`${engine}: ${kind} search answers every request with something`, () => {
            const empty = measured.get(`${name} ${engine} ${kind}`)?.answers.filter((answer) => answer.empty).map((answer) => answer.request);
            expect(empty, `${engine} ${kind}: requests answered with nothing (or refused)`).to.deep.equal([]);
          });
        }
      }
    });
  }
});
