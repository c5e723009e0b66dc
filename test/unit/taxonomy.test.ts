/** The category rules of src/catalog/taxonomy.ts, one rule at a time. */
import { expect } from 'chai';
import { categorize, TAXONOMY, withoutNamespace, type CategoryInput } from '../../src/catalog/taxonomy.js';

const server = (overrides: Partial<CategoryInput>): CategoryInput => ({ upstream: [], tags: [], name: 'tool', title: null, description: '', tools: [], ...overrides });

describe('category rules', () => {
  describe('the namespace is not content (DESIGN.md "Search quality")', () => {
    const namespaced: Array<[string, string]> = [
      ['io.github.someone/tool', 'a reverse-DNS GitHub namespace'],
      ['io.github.github/tool', 'a namespace that is all "github"'],
      ['com.gitlab.someone/tool', 'a GitLab namespace'],
      ['@github/tool', 'an npm scope'],
      ['@toolsdk-remote/io-github-someone-tool', "toolsdk's dashed copy of an official namespace"],
      ['@toolsdk-remote/ai-smithery-someone-tool', "toolsdk's dashed copy of a Smithery namespace"],
    ];
    for (const [name, what] of namespaced) {
      it(`gives no version-control category for ${what} alone (${name})`, () => {
        expect(categorize(server({ name }))).to.deep.equal(['other']);
      });
    }

    it('files a namespaced server by what it does: io.github.someone/weather-server is maps-travel', () => {
      expect(categorize(server({ name: 'io.github.someone/weather-server', description: 'Weather forecasts for any city.' }))).to.deep.equal(['maps-travel']);
    });

    it('still reads the name after the namespace: io.github.github/github-mcp-server is version-control', () => {
      expect(categorize(server({ name: 'io.github.github/github-mcp-server' }))).to.deep.equal(['version-control']);
    });

    it('strips only the publisher', () => {
      expect(withoutNamespace('io.github.someone/weather')).to.equal('weather');
      expect(withoutNamespace('mcp/google-maps')).to.equal('google-maps');
      expect(withoutNamespace('slack-mcp-server')).to.equal('slack-mcp-server');
      expect(withoutNamespace('@toolsdk-remote/github-mcp-server')).to.equal('github-mcp-server');
    });
  });

  describe('upstream categories', () => {
    it('come first: an upstream category is the primary category', () => {
      expect(categorize(server({ upstream: ['databases'], description: 'Send Slack messages about your tables.' }))[0]).to.equal('databases');
    });

    it("ignore catch-alls: Docker's default devops, toolsdk's uncategorized", () => {
      expect(categorize(server({ name: 'mcp/time', upstream: ['devops'], tags: ['time', 'devops'], description: 'Time and timezone conversion capabilities' }))).to.deep.equal(['other']);
      expect(categorize(server({ upstream: ['uncategorized'] }))).to.deep.equal(['other']);
      expect(categorize(server({ upstream: ['other-tools-and-integrations'], description: 'Shopify e-commerce management' }))).to.deep.equal(['commerce-marketing']);
    });

    it('read tags as words, not as categories', () => {
      expect(categorize(server({ upstream: ['devops'], tags: ['kubernetes'], description: 'Connect to a cluster and manage it' }))).to.deep.equal(['devops']);
    });

    it('map every upstream name to a slug of the taxonomy', () => {
      const slugs = new Set(TAXONOMY.map((c) => c.slug));
      for (const category of TAXONOMY) expect(slugs.has(category.slug)).to.equal(true);
      const upstream = TAXONOMY.flatMap((c) => c.upstream);
      expect(new Set(upstream).size, 'an upstream name maps to one slug').to.equal(upstream.length);
    });
  });

  describe('keywords', () => {
    const cases: Array<[string, Partial<CategoryInput>, string[]]> = [
      ['match whole words only ("digital" is not "git")', { description: 'Digital signage for legitimate shops' }, ['other']],
      ['match a plural', { description: 'Query your databases' }, ['databases']],
      ['match a phrase across separators in names', { name: 'server-google-maps' }, ['maps-travel']],
      ['match camelCase tool names', { tools: [{ name: 'getWeather', description: '' }, { name: 'getForecast', description: '' }] }, ['maps-travel']],
      ['keep a brand spelled in camelCase whole (PayPal)', { description: 'Create PayPal invoices' }, ['finance']],
      ['ignore words every MCP server uses (llm, agents, search, tasks)', { description: 'Lets LLM agents search and run tasks' }, ['other']],
      ['ignore links', { description: 'Time zones. Source: https://github.com/someone/time' }, ['other']],
      ['drop a category far below the best', { name: 'postgres-mcp', title: 'Postgres', description: 'PostgreSQL database tools; writes a log file' }, ['databases']],
      ['match any case, as /iu does (SQL, the Kelvin sign, a long s)', { description: 'SQL, \u212Aubernetes and \u017Fql' }, ['databases', 'devops']],
      ['take a plural s on the last word of a phrase only', { description: 'Reads source codes' }, ['developer-tools']],
      ['not on an earlier word', { description: 'Reads sources code' }, ['other']],
      ['not two', { description: 'Many sqlss' }, ['other']],
      ['need the separators of the phrase (one space)', { description: 'Reads source  code' }, ['other']],
      ['read a dash before a letter as a space, in text and keywords alike', { description: 'Source-code review and text-to-speech' }, ['developer-tools', 'media-design']],
      ['keep other separators of a keyword as they are (ci/cd)', { description: 'Runs CI/CD pipelines' }, ['devops']],
      ['not match next to a digit', { description: 'sql2 and 2sql' }, ['other']],
    ];
    for (const [what, input, expected] of cases) {
      it(what, () => {
        expect(categorize(server(input))).to.deep.equal(expected);
      });
    }

    // ASCII text is read by a quicker path (taxonomy.ts tokensOf): the same cases beside a word
    // that is not ASCII take the other one, and must come out the same.
    const beside = (text: string | undefined): string => `${text ?? ''} — café`;
    for (const [what, input, expected] of cases) {
      it(`${what}, in text that is not ASCII`, () => {
        const other: Partial<CategoryInput> = {
          ...input,
          ...(input.name !== undefined ? { name: beside(input.name) } : {}),
          ...(input.title !== undefined ? { title: beside(input.title ?? undefined) } : {}),
          description: beside(input.description),
          ...(input.tools ? { tools: input.tools.map((t) => ({ name: t.name, description: beside(t.description) })) } : {}),
        };
        expect(categorize(server(other))).to.deep.equal(expected);
      });
    }

    it('give at most three categories, best first', () => {
      const categories = categorize(server({
        name: 'everything',
        description: 'Slack messages, Stripe payments, Postgres databases, Google Maps directions and Figma designs',
      }));
      expect(categories).to.have.length(3);
      const busy = categorize(server({ name: 'slack', title: 'Slack', description: 'Slack messages with Stripe payments' }));
      expect(busy[0]).to.equal('communication');
    });
  });
});
