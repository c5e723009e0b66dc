/**
 * What another writer on the same database does reaches this instance's cached reads: a server
 * ingested through a second store (another process or instance) shows up in search within the
 * generation's 250 ms freshness, on SQLite and on PostgreSQL; and on PostgreSQL, rate limits that
 * outlive the database answering.
 */
import { expect } from 'chai';
import { ingest } from '../../src/ingest/ingest-service.js';
import { createStore } from '../../src/store/index.js';
import { freshDatabase, TEST_DIALECT, withClient, type TestDatabase } from '../support/database.js';
import { catalog } from '../support/fixture-servers.js';
import { startHarness, type Harness } from '../support/harness.js';

describe('a write by another store on the same database', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false, inputs: [catalog([{ name: 'com.example/first-widget' }])] });
  });
  after(async () => h.close());

  it('drops this instance\'s cached search pages', async () => {
    const before = await h.request('/api/v1/servers/search?q=widget');
    expect(before.body.items.map((s: { name: string }) => s.name)).to.deep.equal(['com.example/first-widget']);
    const other = createStore(h.database.url);
    try {
      await ingest(other, [catalog([{ name: 'com.example/second-widget' }])]);
    } finally {
      await other.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await h.request('/api/v1/servers/search?q=widget');
    expect(after.body.items.map((s: { name: string }) => s.name)).to.have.members(['com.example/first-widget', 'com.example/second-widget']);
  });
});

describe(`rate limits when the database stops answering${TEST_DIALECT === 'postgres' ? '' : ' (skipped: SQLite counts in memory; npm run test:pg runs this)'}`, () => {
  it('keep counting in this process (the memory insurance limiter)', async function () {
    if (TEST_DIALECT !== 'postgres') this.skip();
    const database = await freshDatabase();
    const store = createStore(database.url);
    try {
      await store.migrate();
      const limiter = store.rateLimiter({ keyPrefix: 'insured', points: 3, duration: 60 });
      await limiter.consume('client');
      expect(await pointsIn(database, 'insured:client'), 'counted in the database while it answers').to.equal(1);
      await database.drop();
      const remaining: number[] = [];
      for (let i = 0; i < 2; i += 1) remaining.push((await limiter.consume('client')).remainingPoints);
      expect(remaining, 'the insurance limiter counts on its own').to.deep.equal([2, 1]);
    } finally {
      await store.close();
    }
  });
});

/** The points a key has consumed, read from the rate_limits table over a connection of its own. */
async function pointsIn(database: TestDatabase, key: string): Promise<number> {
  const result = await withClient((client) => client.query<{ points: number }>('SELECT points FROM rate_limits WHERE key = $1', [key]), database.url);
  return result.rows[0]?.points ?? 0;
}
