/**
 * What another writer on the same database does reaches this instance's cached reads: a server
 * ingested through a second store (another process or instance) shows up in search within the
 * generation's 250 ms freshness, on SQLite and on PostgreSQL.
 */
import { expect } from 'chai';
import { ingest } from '../../src/ingest/ingest-service.js';
import { createStore } from '../../src/store/index.js';
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
