/**
 * The lookups of a first load. Placing a batch asks the catalog about each record's source key,
 * name and id (pending-batch.ts lists the lookups); a run that started on an empty
 * catalog can find there only what it wrote itself. So such a run keeps a Bloom filter of every
 * source key, server id and name it writes (a batch's as soon as it is prepared) and
 * asks the database only about values the filter may hold. A false positive costs a query, never
 * an answer: the filter never misses a value it was given.
 */
import { createRequire } from 'node:module';
import type { BloomFilter as BloomFilterClass } from 'mnemonist';
import { sourceKey } from '../store/index.js';
import type { PendingBatch, PlacementLookups } from './pending-batch.js';

/** mnemonist gives its structures one by one to `require` only; its ES index loads them all, at every start. */
const BloomFilter = createRequire(import.meta.url)('mnemonist/bloom-filter.js') as typeof BloomFilterClass;

/** Values a record gives the catalog, for sizing the filter: its source key, id and name. */
const VALUES_PER_RECORD = 3;
/** One value in a hundred the run never wrote is looked up anyway. */
const ERROR_RATE = 0.01;

/** The filter's values: one kind's cannot pass for another's. */
const SOURCE = 's\u0000';
const ID = 'i\u0000';
const NAME = 'n\u0000';

export class FirstLoadFilter {
  private readonly written: BloomFilterClass;

  /** For a run of `records` records. */
  constructor(records: number) {
    this.written = new BloomFilter({ capacity: Math.max(1_000, records * VALUES_PER_RECORD), errorRate: ERROR_RATE });
  }

  /** Adds what `batch` writes; before the next batch is looked up. */
  addWritten(batch: PendingBatch): void {
    for (const s of batch.saved) this.written.add(SOURCE + sourceKey(s.source, s.key));
    for (const { rows } of batch.writes) {
      this.written.add(ID + rows.id);
      this.written.add(NAME + rows.name);
    }
  }

  /** `catalog`'s lookups, asked only about values this run may have written. */
  lookups(catalog: PlacementLookups): PlacementLookups {
    const maybe = (kind: string, values: readonly string[]): string[] => values.filter((value) => this.written.test(kind + value));
    return {
      sourceRows: (records) => catalog.sourceRows(records.filter((r) => this.written.test(SOURCE + sourceKey(r.source, r.key)))),
      serversByName: (names) => catalog.serversByName(maybe(NAME, names)),
      sourcesOfServers: (ids) => catalog.sourcesOfServers(maybe(ID, ids)),
      takenIds: (ids) => catalog.takenIds(maybe(ID, ids)),
      createdAt: (ids, at) => catalog.createdAt(maybe(ID, ids), at),
      contentHashes: (ids) => catalog.contentHashes(maybe(ID, ids)),
      serverNames: (ids) => catalog.serverNames(maybe(ID, ids)),
      storedSources: (ids) => catalog.storedSources(maybe(ID, ids)),
    };
  }
}
