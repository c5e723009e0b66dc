/** Search must use the FTS5 index: a full scan of the servers table for a `q` search fails. */
import { expect } from 'chai';
import { parseQuery } from '../../src/registry/registry-service.js';
import type { ServerSort } from '../../src/types.js';
import { startHarness, type Harness } from '../support/harness.js';

describe('server search query plan', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h.close());

  const sorts: ServerSort[] = ['relevance', 'a-z', 'z-a', 'newest', 'oldest', 'tools', 'endpoints'];
  for (const sort of sorts) {
    for (const category of [null, 'databases']) {
      it(`reads the FTS index, not the servers table, for q with sort=${sort}${category ? ' and a category' : ''}`, async () => {
        const query = parseQuery('github issues')!;
        const plan = await h.service.store.catalog.explainServerSearch({ terms: query.terms, text: query.text, category, sort, limit: 20, offset: 0 });
        expect(plan.some((step) => /servers_fts VIRTUAL TABLE INDEX \d+:=?M/.test(step)), plan.join(' / ')).to.equal(true);
        expect(plan.filter((step) => /^SCAN (s|servers)\b/.test(step)), plan.join(' / ')).to.deep.equal([]);
      });
    }
  }
});
