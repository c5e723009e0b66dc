/**
 * Search as a person uses it (DESIGN.md "Search quality"), on the demo catalog, on both
 * databases: a mistyped word still finds what it stands for (ranking.ts: TYPOS), and a server's
 * reverse-DNS namespace is not content (`io.github.` matches no word) though a search for the
 * namespace finds the servers under it.
 */
import { expect } from 'chai';
import { startHarness, type Harness } from '../support/harness.js';
import type { ServerItem } from '../support/types.js';

describe('search quality on the demo catalog', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({});
  });
  after(async () => h?.close());

  const search = async (q: string, path = '/api/v1/servers/search'): Promise<{ total: number; names: string[] }> => {
    const { status, body } = await h.request(`${path}?q=${encodeURIComponent(q)}`);
    expect(status, q).to.equal(200);
    return { total: body.total, names: body.items.map((item: ServerItem) => item.name) };
  };

  it('finds the GitHub server for "github", not every server published under io.github.', async () => {
    const { total, names } = await search('github');
    expect(names[0]).to.equal('io.github.github/github-mcp-server');
    // Sequential Thinking, Fetch, Time… are io.github.modelcontextprotocol/… and say nothing of GitHub.
    for (const name of ['io.github.modelcontextprotocol/server-sequential-thinking', 'io.github.modelcontextprotocol/server-fetch', 'io.github.modelcontextprotocol/server-time']) {
      expect(names).to.not.include(name);
    }
    expect(total).to.be.lessThan(5);
  });

  it('finds the servers under a namespace when the namespace itself is searched', async () => {
    const { total, names } = await search('io.github.modelcontextprotocol');
    expect(total).to.equal(11);
    expect(names.every((name) => name.startsWith('io.github.modelcontextprotocol/'))).to.equal(true);
    const exact = await search('com.stripe/mcp');
    expect(exact.names).to.deep.equal(['com.stripe/mcp']);
  });

  it('keeps the publisher where it is the product: "stripe" finds com.stripe/mcp first', async () => {
    expect((await search('stripe')).names[0]).to.equal('com.stripe/mcp');
    expect((await search('notion')).names[0]).to.equal('com.notion/mcp');
  });

  it('forgives one typo from 5 letters: atlasian, notoin, githb, sequental thinking', async () => {
    expect((await search('atlasian')).names[0]).to.equal('com.atlassian/atlassian-mcp-server');
    expect((await search('notoin')).names[0], 'a transposition is one edit').to.equal('com.notion/mcp');
    expect((await search('githb')).names[0]).to.equal('io.github.github/github-mcp-server');
    expect((await search('sequental thinking')).names[0]).to.equal('io.github.modelcontextprotocol/server-sequential-thinking');
  });

  it('forgives two typos from 9 letters, and none below 5', async () => {
    expect((await search('playwrigth')).names[0], 'playwright, two edits away').to.equal('io.github.microsoft/playwright-mcp');
    expect((await search('sentyr')).names[0]).to.equal('io.github.getsentry/sentry-mcp');
    expect((await search('slak')).total, 'four letters: no typo allowed').to.equal(0);
    expect((await search('stirpe')).names[0], 'a transposition in six letters').to.equal('com.stripe/mcp');
  });

  it('ranks exact and prefix matches above typos: a word that matches is never widened', async () => {
    // "slack" matches exactly: "black" or "stack" (one edit away) are not added to its matches.
    const { names } = await search('slack');
    expect(names).to.deep.equal(['io.github.modelcontextprotocol/server-slack']);
    expect((await search('playwr')).names[0], 'a prefix is a match, not a typo').to.equal('io.github.microsoft/playwright-mcp');
  });

  it('forgives typos in tool search too', async () => {
    const { status, body } = await h.request('/api/v1/tools/search?q=screenshoot');
    expect(status).to.equal(200);
    expect(body.total).to.be.greaterThan(0);
    expect(body.items.every((tool: { name: string; description: string }) => /screenshot/i.test(`${tool.name} ${tool.description}`))).to.equal(true);
  });
});
