/**
 * Search must use the full-text index (FTS5 on SQLite, the GIN index on PostgreSQL): a full scan
 * of the servers table for a `q` search fails.
 */
import { expect } from 'chai';
import { parseQuery } from '../../src/search/query.js';
import type { ServerSort } from '../../src/types.js';
import { TEST_DIALECT } from '../support/database.js';
import { startHarness, type Harness } from '../support/harness.js';
import { explainServerSearch } from '../support/query-plan.js';

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
        const plan = await explainServerSearch(h.service.store.searchSource, { terms: query.terms, text: query.text, category, trust: null, quality: null, sort, limit: 20, offset: 0 });
        if (TEST_DIALECT === 'postgres') {
          // PostgreSQL's planner weighs a category against the text by their statistics: with a
          // category it may start from the category's index; without one the GIN index drives.
          if (category === null) expect(plan.some((step) => /Bitmap Index Scan on servers_fts_document/.test(step)), plan.join(' / ')).to.equal(true);
          expect(plan.filter((step) => /Seq Scan on servers/.test(step)), plan.join(' / ')).to.deep.equal([]);
          return;
        }
        expect(plan.some((step) => /servers_fts VIRTUAL TABLE INDEX \d+:=?M/.test(step)), plan.join(' / ')).to.equal(true);
        expect(plan.filter((step) => /^SCAN (s|servers)\b/.test(step)), plan.join(' / ')).to.deep.equal([]);
      });
    }
  }
});
