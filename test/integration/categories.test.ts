/**
 * Categories a person would agree with: on the demo catalog through the API, and on
 * the hand-labelled real servers of test/fixtures/categories/labelled.json (agreement as defined
 * in test/support/category-agreement.ts). The real-data part is skipped, with the reason, where
 * ../shared/data is absent (a bare clone).
 */
import { expect } from 'chai';
import { dataAvailable, measureAgreement, type Agreement } from '../support/category-agreement.js';
import { startHarness, type Harness } from '../support/harness.js';
import type { ServerItem } from '../support/types.js';

describe('categories', () => {
  describe('on the demo catalog', () => {
    let h: Harness;
    before(async () => {
      h = await startHarness();
    });
    after(async () => h.close());

    const categoriesOf = async (): Promise<Map<string, string[]>> => {
      const { body } = await h.request('/api/v1/servers/search?limit=100');
      return new Map(body.items.map((s: ServerItem) => [s.title ?? s.name, s.categories]));
    };

    it('puts only GitHub and Git in version-control, whatever their namespace says', async () => {
      const { body } = await h.request('/api/v1/servers/search?category=version-control&limit=100');
      expect(body.items.map((s: ServerItem) => s.title).sort()).to.deep.equal(['Git', 'GitHub']);
      const all = await categoriesOf();
      for (const title of ['Time', 'Fetch', 'Slack', 'Google Maps', 'Sequential Thinking']) {
        expect(all.get(title), title).to.not.include('version-control');
      }
    });

    it('puts only the search engines in search', async () => {
      const { body } = await h.request('/api/v1/servers/search?category=search&limit=100');
      expect(body.items.map((s: ServerItem) => s.title).sort()).to.deep.equal(['Brave Search', 'Exa Search', 'Tavily']);
    });

    it('files each well-known server under what it does, first', async () => {
      const all = await categoriesOf();
      const primary: Array<[string, string]> = [
        ['Time', 'other'], ['Fetch', 'web-scraping'], ['Slack', 'communication'], ['Google Maps', 'maps-travel'],
        ['Sequential Thinking', 'knowledge-memory'], ['Postgres MCP Pro', 'databases'], ['Stripe', 'finance'],
        ['Playwright', 'browser-automation'], ['Sentry', 'monitoring'], ['Notion', 'productivity'], ['Hugging Face', 'ai-ml'],
      ];
      for (const [title, slug] of primary) expect(all.get(title)?.[0], title).to.equal(slug);
    });
  });

  describe(`on hand-labelled real servers${dataAvailable() ? '' : ' (skipped: ../shared/data not found next to the checkout)'}`, function () {
    this.timeout(60_000);
    let agreement: Agreement;
    before(function () {
      if (!dataAvailable()) this.skip();
      agreement = measureAgreement();
    });

    it('labels at least 60 servers from all three sources, each label saying where it came from', () => {
      expect(agreement.servers.length).to.be.at.least(60);
      expect(new Set(agreement.servers.map((s) => s.file)).size).to.equal(3);
      for (const s of agreement.servers) expect(s.labelFrom, s.key).to.have.length.greaterThan(10);
    });

    it('agrees with a person on at least 85% of them (primary among the labels, nothing rejected)', () => {
      const misses = agreement.servers.filter((s) => !s.agrees).map((s) => `${s.key}: ${s.categories.join(',')} (labels ${s.labels.join(',')})`);
      expect(agreement.rate, `agreement ${(agreement.rate * 100).toFixed(1)}%; disagreements:\n  ${misses.join('\n  ')}`).to.be.at.least(0.85);
      expect(agreement.precision).to.be.at.least(0.85);
    });
  });
});
