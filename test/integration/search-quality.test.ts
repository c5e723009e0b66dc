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

  it('answers a sentence: the words that matter, those matching every one first, each result saying which it holds', async () => {
    const { status, body } = await h.request(`/api/v1/servers/search?q=${encodeURIComponent('how can I read my GitHub issues?')}`);
    expect(status).to.equal(200);
    expect(body.terms, 'stop words left out').to.deep.equal(['read', 'github', 'issues']);
    expect(body.items[0].name).to.equal('io.github.github/github-mcp-server');
    expect(body.items[0].matchedTerms).to.deep.equal(['read', 'github', 'issues']);
    const sizes = body.items.map((item: { matchedTerms: string[] }) => item.matchedTerms.length);
    expect(sizes.some((n: number) => n < 3), 'partial matches follow').to.equal(true);
    expect(sizes.indexOf(Math.min(...sizes)), 'full matches before partial ones').to.be.greaterThan(sizes.lastIndexOf(3));
  });

  it('never zeroes an answer for a word no record holds: it is left out', async () => {
    const { body } = await h.request(`/api/v1/servers/search?q=${encodeURIComponent('notion zzqxjv')}`);
    expect(body.terms).to.deep.equal(['notion']);
    expect(body.items[0].name).to.equal('com.notion/mcp');
    const none = await h.request(`/api/v1/servers/search?q=${encodeURIComponent('zzqxjv')}`);
    expect({ total: none.body.total, terms: none.body.terms }).to.deep.equal({ total: 0, terms: [] });
  });

  it('matches a word by its stem: "repositories" and "browsers" find what "repository" and "browser" find', async () => {
    for (const [inflected, plain] of [['repositories', 'repository'], ['browsers', 'browser'], ['queries', 'query'], ['screenshots', 'screenshot']] as const) {
      const a = (await search(inflected)).names;
      const b = (await search(plain)).names;
      expect(a.length, inflected).to.be.greaterThan(0);
      expect(a.filter((name) => b.includes(name)).length, `${inflected} against ${plain}`).to.be.greaterThan(0);
    }
  });

  it('matches a word by its synonyms: "pg" finds Supabase, whose text says Postgres and never pg, saying it holds "pg"', async () => {
    const { body } = await h.request(`/api/v1/servers/search?q=${encodeURIComponent('query my pg tables')}`);
    expect(body.terms).to.deep.equal(['query', 'pg', 'tables']);
    const supabase = body.items.find((item: ServerItem) => item.name === 'com.supabase/mcp');
    expect(supabase?.matchedTerms).to.deep.equal(['query', 'pg', 'tables']);
  });

  it('takes q up to 1,000 characters on REST, the older route, MCP and the pages, and refuses longer with a clear 400', async () => {
    const task = 'Find a tool that takes a screenshot of a web page in a headless browser. '.padEnd(1000, ' then save it');
    expect(task.length).to.equal(1000);
    for (const path of ['/api/v1/servers/search', '/api/v1/tools/search', '/api/search', '/servers', '/tools']) {
      expect((await h.request(`${path}?q=${encodeURIComponent(task)}`)).status, path).to.equal(200);
      const refused = await h.request(`${path}?q=${encodeURIComponent(`${task}x`)}`);
      expect(refused.status, `${path}, 1,001 characters`).to.equal(400);
    }
    const { body } = await h.request('/mcp', {
      method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_tools', arguments: { q: task, limit: 5 } } }),
    });
    expect(body.result?.isError, JSON.stringify(body).slice(0, 300)).to.equal(false);
    const items = body.result.structuredContent.items as Array<{ name: string; matchedTerms: string[] }>;
    expect(items.length).to.be.greaterThan(0);
    expect(items[0]?.name).to.match(/screenshot/i);
    expect(items[0]?.matchedTerms).to.include('screenshot');
  });

  it('says on the results page when results match only some of the words', async () => {
    const { status, body } = await h.request(`/servers?q=${encodeURIComponent('read my github issues')}`);
    expect(status).to.equal(200);
    expect(body).to.include('Servers matching every word searched (read, github, issues) come first; the others match only some of them.');
    expect(body).to.match(/Matches [a-z, ]+; not [a-z, ]+/);
  });
});
