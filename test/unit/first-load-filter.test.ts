/** A first load's lookups (src/ingest/first-load-filter.ts): asked only about what the run wrote, and about all of it. */
import { expect } from 'chai';
import { FirstLoadFilter } from '../../src/ingest/first-load-filter.js';
import type { PendingBatch, PlacementLookups } from '../../src/ingest/pending-batch.js';
import type { ServerRows } from '../../src/store/index.js';

/** Lookups that record what they are asked and find nothing. */
function recording(): { readonly asked: Record<string, unknown[]>; readonly catalog: PlacementLookups } {
  const asked: Record<string, unknown[]> = {};
  const ask = (name: string, values: readonly unknown[]): void => {
    asked[name] = [...values];
  };
  const catalog: PlacementLookups = {
    sourceRows: async (records) => (ask('sourceRows', records.map((r) => `${r.source}/${r.key}`)), new Map()),
    serversByName: async (names) => (ask('serversByName', names), new Map()),
    sourcesOfServers: async (ids) => (ask('sourcesOfServers', ids), new Map()),
    takenIds: async (ids) => (ask('takenIds', ids), new Set()),
    createdAt: async (ids) => (ask('createdAt', ids), new Set()),
    contentHashes: async (ids) => (ask('contentHashes', ids), new Map()),
    serverNames: async (ids) => (ask('serverNames', ids), new Map()),
    storedSources: async (ids) => (ask('storedSources', ids), new Map()),
  };
  return { asked, catalog };
}

/** A batch that saved `official/<key>` and wrote the server `id` named `name`. */
function batch(key: string, id: string, name: string): PendingBatch {
  const rows = { id, name } as unknown as ServerRows;
  return {
    saved: [{ source: 'official', key, serverId: id, recordHash: 'h', serverJson: '{}' }],
    created: new Set([id]),
    writes: [{ rows, isNew: true }],
  };
}

describe('FirstLoadFilter', () => {
  it('asks the catalog about the values the run wrote, of each kind, and about no other', async () => {
    const { asked, catalog } = recording();
    const run = new FirstLoadFilter(100);
    run.addWritten(batch('a', 'server-a', 'io.github.a/a'));
    run.addWritten(batch('b', 'server-b', 'io.github.b/b'));
    const lookups = run.lookups(catalog);
    await lookups.sourceRows([{ source: 'official', key: 'a' }, { source: 'official', key: 'c' }, { source: 'docker', key: 'b' }]);
    await lookups.serversByName(['io.github.a/a', 'io.github.c/c', 'server-a']);
    for (const name of ['sourcesOfServers', 'takenIds', 'contentHashes', 'serverNames', 'storedSources'] as const) await lookups[name](['server-b', 'server-c', 'io.github.b/b']);
    await lookups.createdAt(['server-a', 'server-c'], '2026-11-26T12:00:00Z');
    expect(asked).to.deep.equal({
      // A key of another source, a name asked as an id and an id asked as a name are other values.
      sourceRows: ['official/a'],
      serversByName: ['io.github.a/a'],
      sourcesOfServers: ['server-b'],
      takenIds: ['server-b'],
      contentHashes: ['server-b'],
      serverNames: ['server-b'],
      storedSources: ['server-b'],
      createdAt: ['server-a'],
    });
  });

  it('never leaves out a value it was given, however many', async () => {
    const { asked, catalog } = recording();
    // Ten times the values it was sized for: more false positives, never a miss.
    const run = new FirstLoadFilter(1_000);
    const ids = Array.from({ length: 60_000 }, (_, i) => `server-${i}`);
    for (const id of ids) run.addWritten(batch(id, id, `name-${id}`));
    await run.lookups(catalog).takenIds(ids);
    expect(asked.takenIds).to.deep.equal(ids);
  });
});
