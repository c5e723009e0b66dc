/**
 * Quality flags through the real app (src/catalog/quality.ts): test, template, placeholder and
 * copied records of test/fixtures/quality beside the demo catalog are flagged at ingest, shown
 * in every summary and record, ranked below unflagged servers of equal relevance on every
 * engine the app asks, listed after them in every browsing order, filtered with `quality`, and
 * kept off the home page. Every response is checked against the contract.
 */
import { expect } from 'chai';
import { recomputeQuality } from '../../src/store/quality-flags.js';
import { openDatabase } from '../../src/store/db.js';
import { ingest } from '../../src/ingest/ingest-service.js';
import { fixture, startHarness, type Harness } from '../support/harness.js';
import type { ServerItem } from '../support/types.js';

const INPUTS = [fixture('quality/catalog-official.json'), fixture('quality/catalog-toolsdk.json')];
const flagged = (item: { quality: { flags: readonly string[] } }): boolean => item.quality.flags.length > 0;
const SORTS = ['a-z', 'z-a', 'newest', 'oldest', 'tools', 'endpoints'] as const;

describe('quality flags', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: true, inputs: INPUTS });
  });
  after(async () => h?.close());

  const get = async (path: string): Promise<any> => {
    const { status, body } = await h.request(path);
    expect(status, path).to.equal(200);
    return body;
  };
  /** Every server of a listing, page by page. */
  const all = async (query: string): Promise<ServerItem[]> => {
    const items: ServerItem[] = [];
    for (let offset = 0; ; offset += 100) {
      const body = await get(`/api/v1/servers/search?${query}&limit=100&offset=${offset}`);
      items.push(...body.items);
      if (offset + 100 >= body.total) return items;
    }
  };
  const flagsOf = async (id: string): Promise<string[]> => (await get(`/api/v1/servers/${encodeURIComponent(id)}`)).quality.flags;

  it('flags each record by what it says, and a copy by its publisher\'s other servers', async () => {
    expect(await flagsOf('live.alpic.staging.email-mcp-0a1b2c3d~email-mcp')).to.deep.equal(['test']);
    expect(await flagsOf('live.alpic.staging.mcp-server-4e5f6a7b~mcp-server')).to.deep.equal(['test', 'template']);
    expect(await flagsOf('io.github.example-dev~placeholder-mcp')).to.deep.equal(['placeholder']);
    expect(await flagsOf('ai.smithery~someone-local02')).to.deep.equal(['duplicate']);
    expect(await flagsOf('ai.smithery~someone-test01')).to.deep.equal(['test', 'duplicate']);
    expect(await flagsOf('ai.smithery~someone-time')).to.deep.equal([]);
    expect(await flagsOf('com.notion~mcp'), 'a real server: no flag, stated').to.deep.equal([]);
  });

  it('flags tools whose names are not names, in tool records and tool search', async () => {
    const { items } = await get('/api/v1/tools/search?q=copy&limit=20');
    const byName = new Map(items.map((t: { name: string; quality: { flags: string[] } }) => [t.name, t.quality.flags]));
    expect(byName.get('_________available_mcp_services_for_easy_copy_________')).to.deep.equal(['not_a_name']);
    expect(byName.get('copy_service_config')).to.deep.equal([]);
    const [long] = items.filter((t: { name: string }) => t.name.length > 64);
    expect((await get(`/api/v1/tools/${encodeURIComponent(long.id)}`)).quality.flags).to.deep.equal(['name_too_long']);
  });

  it('ranks the staging email server below every unflagged email server, and echoes no filter', async () => {
    const body = await get('/api/v1/servers/search?q=email&limit=50');
    expect(body.quality).to.equal(null);
    const at = body.items.findIndex(flagged);
    expect(at, 'some flagged server matches').to.be.greaterThan(0);
    expect(body.items.slice(at).every(flagged), body.items.map((s: ServerItem) => s.name).join(', ')).to.equal(true);
  });

  it('keeps a flagged server out of the name tiers: the time server leads its copies', async () => {
    const { items } = await get('/api/v1/servers/search?q=someone&limit=10');
    expect(items[0].name).to.equal('ai.smithery/someone-time');
    expect(items.slice(1).every(flagged)).to.equal(true);
  });

  it('filters with quality=unflagged and quality=flagged, and echoes it', async () => {
    const clean = await get('/api/v1/servers/search?q=email&quality=unflagged&limit=50');
    expect(clean.quality).to.equal('unflagged');
    expect(clean.items.some(flagged)).to.equal(false);
    const only = await get('/api/v1/servers/search?quality=flagged&limit=50');
    expect(only.quality).to.equal('flagged');
    expect(only.items.map((s: ServerItem) => s.name)).to.have.members([
      'live.alpic.staging.email-mcp-0a1b2c3d/email-mcp', 'live.alpic.staging.mcp-server-4e5f6a7b/mcp-server', 'io.github.example-dev/mcp-server-template',
      'io.github.example-dev/placeholder-mcp', 'io.github.example-dev/github-issues-mcp-test', 'io.github.example-dev/demo-mcp-server',
      'ai.smithery/someone-local02', 'ai.smithery/someone-test01',
    ]);
    const everything = await get('/api/v1/servers/search?limit=1');
    expect(everything.total).to.equal(clean.total > 0 ? (await get('/api/v1/servers/search?quality=unflagged&limit=1')).total + only.total : -1);
    const refused = await h.request('/api/v1/servers/search?quality=all');
    expect(refused.status).to.equal(400);
  });

  for (const sort of SORTS) {
    it(`lists flagged servers after all the others when sorted ${sort}`, async () => {
      const items = await all(`sort=${sort}`);
      const at = items.findIndex(flagged);
      expect(at).to.be.greaterThan(0);
      expect(items.slice(at).every(flagged), `${sort}: ${items.map((s) => s.name).join(', ')}`).to.equal(true);
    });
  }

  it('sorts a-z and z-a without leading punctuation, for servers and tools', async () => {
    const az = await all('sort=a-z');
    expect(az[0]?.title, 'a title of dots does not lead a-z').to.not.equal('...Zebra Notes');
    expect((await get('/api/v1/servers/search?sort=z-a&quality=unflagged&limit=1')).items[0].title).to.equal('...Zebra Notes');
    const tools = await get('/api/v1/tools/search?sort=a-z&limit=100');
    expect(tools.items[0].name).to.not.match(/^[^a-z0-9]/i);
    expect(tools.items.some(flagged), 'the flagged tools come after the first hundred').to.equal(false);
  });

  it('answers MCP\'s search_servers with the same filter and flags', async () => {
    const { body } = await h.request('/mcp', {
      method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_servers', arguments: { q: 'email', quality: 'unflagged' } } }),
    });
    expect(body.result.isError).to.equal(false);
    expect(body.result.structuredContent).to.deep.equal(await get('/api/v1/servers/search?q=email&quality=unflagged'));
  });

  it('leaves flagged servers off the home page\'s newest, though they are the newest', async () => {
    const html = (await h.request('/')).body as string;
    const [newestFlagged] = (await get('/api/v1/servers/search?sort=newest&quality=flagged&limit=1')).items;
    const [newest] = (await get('/api/v1/servers/search?sort=newest&limit=1')).items;
    expect(newestFlagged.publishedAt > newest.publishedAt, 'a flagged server is the newest of the catalog').to.equal(true);
    expect(html).to.include(newest.title ?? newest.name).and.not.include('Template!').and.not.include('someone-local02').and.not.include('Email Server');
  });

  it('offers the filter on /servers, keeps it across pages, and says what each flag means', async () => {
    const { status, body } = await h.request('/servers?quality=flagged&sort=a-z');
    expect(status).to.equal(200);
    expect(body).to.include('<option value="flagged" selected>').and.include('Test or staging record').and.include('Copy of another server');
    expect((await h.request('/servers?quality=')).status, 'the form\'s "listed last" sends an empty value').to.equal(200);
  });

  it('keeps the flags across a second ingest of the same files, which changes nothing', async () => {
    const again = await ingest(h.service.store, INPUTS);
    expect(again).to.include({ added: 0, updated: 0 });
    expect(await flagsOf('ai.smithery~someone-local02')).to.deep.equal(['duplicate']);
  });

  it('makes the rows written before the flags existed what ingest writes (the migration\'s backfill)', async () => {
    const db = openDatabase(h.database.url);
    try {
      const read = async () => ({
        servers: await db('servers').orderBy('id').select('id', 'quality_flags', 'flagged', 'browse_name'),
        tools: await db('tools').orderBy('id').select('id', 'quality_flags', 'flagged', 'browse_name'),
      });
      const written = await read();
      await db('servers').update({ quality_flags: '[]', flagged: 0, browse_name: '' });
      await db('tools').update({ quality_flags: '[]', flagged: 0, browse_name: '' });
      await recomputeQuality(db);
      expect(await read()).to.deep.equal(written);
    } finally {
      await db.destroy();
    }
  });
});

describe('quality flags of a copy whose original comes later', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false });
  });
  after(async () => h?.close());

  const official = (names: string[]) => ({
    file: 'official.json',
    text: JSON.stringify({ servers: names.map((name) => ({ server: { name, description: 'Get the current time in any timezone.', version: '1.0.0' } })) }),
  });

  it('flags the copy once its publisher\'s original is in the catalog', async () => {
    await ingest(h.service.store, [official(['ai.smithery/someone-local02'])]);
    expect((await h.request('/api/v1/servers/ai.smithery~someone-local02')).body.quality.flags).to.deep.equal([]);
    await ingest(h.service.store, [official(['ai.smithery/someone-time'])]);
    expect((await h.request('/api/v1/servers/ai.smithery~someone-local02')).body.quality.flags).to.deep.equal(['duplicate']);
    const { body } = await h.request('/api/v1/servers/search?q=time');
    expect(body.items.map((s: ServerItem) => s.name)).to.deep.equal(['ai.smithery/someone-time', 'ai.smithery/someone-local02']);
  });
});

describe('quality on the demo catalog', function () {
  this.timeout(60_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: true });
  });
  after(async () => h?.close());

  for (const q of ['email', 'github', 'database']) {
    it(`holds no test or template record among the first 20 servers for "${q}"`, async () => {
      const { body } = await h.request(`/api/v1/servers/search?q=${q}&limit=20`);
      expect(body.items.length).to.be.greaterThan(0);
      expect(body.items.filter(flagged).map((s: ServerItem) => s.name)).to.deep.equal([]);
    });
  }

  it('flags none of its servers (the reference test server is a server for testing, not a test record)', async () => {
    const { body } = await h.request('/api/v1/servers/search?quality=flagged');
    expect(body.total).to.equal(0);
  });
});
