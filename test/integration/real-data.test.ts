/**
 * Ingests the three real upstream files from ../shared/data and checks counts, merges,
 * categories and that queries naming well-known servers find them first. Skipped, with the
 * reason, where ../shared/data is absent (a bare clone); .ci/run has it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { IngestInput } from '../../src/ingest/detect.js';
import { ingest, type IngestSummary } from '../../src/ingest/ingest-service.js';
import type { Store } from '../../src/store/index.js';
import { matchKeysOf } from '../../src/ingest/merge-keys.js';
import type { UpstreamServer } from '../../src/ingest/upstream.js';
import { catalogContentsOf, catalogIdentityOf } from '../support/catalog-contents.js';
import { freshSqliteFile, TEST_DIALECT } from '../support/database.js';
import { startHarness, type Harness } from '../support/harness.js';

const DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const FILES = ['official-registry-v0.1-snapshot-2025-12.json', 'docker-mcp-catalog-servers.json', 'toolsdk-mcp-registry-servers.json'];
const available = FILES.every((file) => existsSync(`${DATA}${file}`));

/** Beyond the well-known names: queries whose first result both databases must agree on. */
const PARITY_QUERIES = ['slack', 'postgres', 'playwright', 'kubernetes', 'sentry', 'filesystem', 'google maps', 'weather', 'jira', 'mongodb'];

describe(`real upstream data${available ? '' : ' (skipped: ../shared/data not found next to the checkout)'}`, function () {
  this.timeout(120_000);
  let h: Harness;
  let summary: IngestSummary;

  before(async function () {
    if (!available) this.skip();
    h = await startHarness({ demo: false });
    summary = await ingest(h.service.store, FILES.map((file) => ({ file, text: readFileSync(`${DATA}${file}`, 'utf8') })));
  });
  after(async () => h?.close());

  it('reads every record: 964 official names (of 2,354 versions), 328 Docker, 4,548 toolsdk', () => {
    expect(summary.records).to.equal(964 + 328 + 4548);
    expect(summary.sources).to.deep.equal(['official', 'docker', 'toolsdk']);
    expect(summary.added).to.equal(summary.servers);
    expect(summary.servers).to.be.within(4800, summary.records - 200);
    expect(summary.tools).to.be.greaterThan(8000);
  });

  it('makes one record per official name at its latest version, with the versions listed', async () => {
    const { body } = await h.request('/api/v1/servers/io.github.github%2Fgithub-mcp-server');
    expect(body.versions.length).to.be.greaterThan(1);
    expect(body.versions.filter((v: { isLatest: boolean }) => v.isLatest)).to.have.length(1);
    expect(body.version).to.equal(body.versions[0].version);
  });

  it('merges the same server across sources, keeping each source', async () => {
    const { body } = await h.request('/api/v1/servers/com.stripe~mcp');
    expect(body.sources.map((s: { source: string }) => s.source)).to.include.members(['official', 'docker']);
    const merged = await h.request('/api/v1/servers/search?q=stripe&limit=100');
    const stripeRemote = merged.body.items.filter((s: { name: string }) => s.name === 'mcp/stripe-remote');
    expect(stripeRemote, 'the Docker remote record is merged, not listed apart').to.have.length(0);
  });

  it('puts every server in at least one category and counts them', async () => {
    const { body } = await h.request('/api/v1/categories');
    const counted = body.items.reduce((sum: number, c: { count: number }) => sum + c.count, 0);
    expect(counted).to.be.at.least(summary.servers);
    for (const category of body.items) expect(category.count, category.slug).to.be.greaterThan(0);
  });

  const wellKnown: Array<[string, string]> = [
    ['github', 'io.github.github/github-mcp-server'],
    ['stripe', 'com.stripe/mcp'],
    ['notion', 'com.notion/mcp'],
    ['supabase', 'com.supabase/mcp'],
    ['linear', 'app.linear/linear'],
    ['figma', 'com.figma.mcp/mcp'],
    ['context7', 'io.github.upstash/context7'],
    ['hugging face', 'co.huggingface/hf-mcp-server'],
    ['brave search', 'io.github.brave/brave-search-mcp-server'],
  ];
  for (const [q, name] of wellKnown) {
    it(`finds ${name} first for "${q}"`, async () => {
      const { body } = await h.request(`/api/v1/servers/search?q=${encodeURIComponent(q)}&limit=5`);
      expect(body.items[0]?.name, JSON.stringify(body.items.map((s: { name: string }) => s.name))).to.equal(name);
    });
  }

  it(`leaves the planner statistics of every table the catalog write filled${TEST_DIALECT === 'postgres' ? '' : ' (skipped: PostgreSQL only; npm run test:pg runs it)'}`, async function () {
    // A bulk write (1,000 servers or more) runs ANALYZE at once on PostgreSQL, whose planner
    // otherwise reads a just-filled catalog by sequential scans until autovacuum comes by.
    if (TEST_DIALECT !== 'postgres') this.skip();
    const rows = await h.service.store.searchSource.sql.all<{ tablename: string }>('SELECT DISTINCT tablename FROM pg_stats WHERE schemaname = current_schema()');
    const analysed = rows.map((row) => row.tablename);
    expect(analysed).to.include.members(['servers', 'servers_fts', 'server_categories', 'remotes', 'packages', 'tools', 'tools_fts', 'sources', 'registry_versions']);
  });

  describe(`the same first results on SQLite${TEST_DIALECT === 'postgres' ? '' : ' (skipped: the suite runs on SQLite; npm run test:pg compares)'}`, () => {
    let sqlite: Harness;
    before(async function () {
      if (TEST_DIALECT !== 'postgres' || !available) this.skip();
      sqlite = await startHarness({ demo: false, database: freshSqliteFile() });
      await ingest(sqlite.service.store, FILES.map((file) => ({ file, text: readFileSync(`${DATA}${file}`, 'utf8') })));
    });
    after(async () => {
      await sqlite?.close();
      await sqlite?.database.drop();
    });

    const first = async (harness: Harness, path: string): Promise<string | undefined> => (await harness.request(path)).body.items[0]?.name;
    for (const q of [...wellKnown.map(([query]) => query), ...PARITY_QUERIES]) {
      it(`"${q}" is led by the same server on PostgreSQL as on SQLite`, async () => {
        const path = `/api/v1/servers/search?q=${encodeURIComponent(q)}&limit=1`;
        expect(await first(h, path)).to.equal(await first(sqlite, path));
      });
    }
  });

  it('gives every server of the catalog its own install key, recognisable for the well-known ones', async () => {
    const { servers } = await catalogContentsOf(h.service.store);
    const keys = new Map<string, string>();
    for (const id of servers.keys()) {
      const key = await h.service.store.catalog.installKeyOf(id);
      expect(key, id).to.be.a('string').and.match(/^[a-z0-9][a-z0-9-]*$/);
      expect(keys.get(key!), `${id} and ${keys.get(key!)} share the install key ${key}`).to.equal(undefined);
      keys.set(key!, id);
    }
    expect(keys.size).to.equal(summary.servers);
    const recognisable: Array<[string, string]> = [['com.notion/mcp', 'notion'], ['com.stripe/mcp', 'stripe'], ['com.supabase/mcp', 'supabase'], ['io.github.github/github-mcp-server', 'github']];
    for (const [name, key] of recognisable) {
      const { body } = await h.request(`/api/v1/servers/${encodeURIComponent(name)}/install?client=claude-code`);
      expect(Object.keys(body.clients[0].config.mcpServers), name).to.deep.equal([key]);
    }
    const cloudflare = [...keys].filter(([key]) => key.startsWith('cloudflare'));
    expect(cloudflare.length, 'Cloudflare\'s servers install as cloudflare…, each its own').to.be.greaterThan(0);
  });

  it('shows no tool count of 0 that no record states, sorts unknown counts last, and no toolsdk tool takes "no arguments"', async () => {
    // The real files state no empty tool list: toolsdk's [] is its validator's failure, and
    // Docker gives every remote server []. So no server may show 0, and most show null.
    // Servers with a quality flag come after the others (sql-search.ts SERVER_ORDER): the order holds within each.
    const counts: Array<[string, number | null, boolean]> = [];
    for (let offset = 0; offset < summary.servers; offset += 100) {
      const { body } = await h.request(`/api/v1/servers/search?sort=tools&limit=100&offset=${offset}`);
      counts.push(...body.items.map((s: { id: string; toolCount: number | null; quality: { flags: string[] } }) => [s.id, s.toolCount, s.quality.flags.length > 0] as [string, number | null, boolean]));
    }
    expect(counts).to.have.length(summary.servers);
    expect(counts.filter(([, n]) => n === 0), 'servers showing 0 tools').to.deep.equal([]);
    expect(counts.filter(([, n]) => n === null).length).to.be.greaterThan(4000);
    for (let i = 1; i < counts.length; i += 1) {
      const [[a, m, aFlagged], [b, n, bFlagged]] = [counts[i - 1]!, counts[i]!];
      const inOrder = aFlagged !== bFlagged ? !aFlagged : (m ?? -1) > (n ?? -1) || (m === n && a < b);
      expect(inOrder, `${a} (${m}) before ${b} (${n})`).to.equal(true);
    }
    const { body } = await h.request('/api/v1/tools/search?q=create_issue&limit=50');
    const fromToolsdk = body.items.filter((t: { source: string }) => t.source === 'toolsdk');
    expect(fromToolsdk.length).to.be.greaterThan(0);
    for (const tool of fromToolsdk) expect(tool.inputSchema, tool.id).to.equal(null);
  });

  it('finds tools by what they do across the catalog', async () => {
    const { body } = await h.request('/api/v1/tools/search?q=create_issue&limit=5');
    expect(body.total).to.be.greaterThan(5);
    expect(body.items[0].name).to.equal('create_issue');
  });
  describe('keeps test, template and placeholder records below the rest (src/catalog/quality.ts)', () => {
    type Flagged = { name: string; quality: { flags: string[] } };
    const testOrTemplate = (items: readonly Flagged[]): string[] => items.filter((s) => s.quality.flags.some((f) => f === 'test' || f === 'template')).map((s) => s.name);

    for (const q of ['email', 'github', 'database']) {
      it(`holds none among the first 20 servers for "${q}"`, async () => {
        const { body } = await h.request(`/api/v1/servers/search?q=${q}&limit=20`);
        expect(body.items).to.have.length(20);
        expect(testOrTemplate(body.items)).to.deep.equal([]);
      });
    }

    it('flags the staging, template and copied records the catalog holds, and not the servers beside them', async () => {
      const flagsOf = async (name: string): Promise<string[]> => (await h.request(`/api/v1/servers/${encodeURIComponent(name)}`)).body.quality.flags;
      expect(await flagsOf('live.alpic.staging.mcp-server-6283dc54/mcp-server')).to.include.members(['test', 'template']);
      expect(await flagsOf('ai.smithery/arjunkmrm-local02')).to.deep.equal(['duplicate']);
      expect(await flagsOf('ai.smithery/arjunkmrm-test01')).to.include('test');
      expect(await flagsOf('ai.smithery/arjunkmrm-time')).to.deep.equal([]);
      expect(await flagsOf('io.github.github/github-mcp-server')).to.deep.equal([]);
    });

    it('leaves them off the home page and the first page of every browsing sort', async () => {
      const html: string = (await h.request('/')).body;
      const recent = html.slice(html.indexOf('id="recent-title"'));
      const ids = [...recent.matchAll(/href="\/servers\/([^"?]+)"/g)].map((m) => decodeURIComponent(m[1] ?? ''));
      expect(ids).to.have.length(6);
      for (const id of ids) expect((await h.request(`/api/v1/servers/${encodeURIComponent(id)}`)).body.quality.flags, id).to.deep.equal([]);
      for (const sort of ['a-z', 'z-a', 'newest', 'oldest', 'tools', 'endpoints']) {
        const { body } = await h.request(`/api/v1/servers/search?sort=${sort}&limit=20`);
        expect(body.items.filter((s: Flagged) => s.quality.flags.length > 0).map((s: Flagged) => s.name), sort).to.deep.equal([]);
      }
    });

    it('opens the tools a-z with a name, not punctuation', async () => {
      const { body } = await h.request('/api/v1/tools/search?sort=a-z&limit=20');
      expect(body.items[0].name).to.match(/^[a-z0-9]/i);
      expect(body.items.map((t: { name: string }) => t.name)).to.not.include('_________available_mcp_services_for_easy_copy_________');
    });
  });
});

/**
 * Ingest places a batch before the last one's writes land and sees them through an overlay
 * (src/ingest/pending-batch.ts): batches of a few records, where nearly every lookup meets the
 * pending batch, must write what batches holding a whole source write, and re-ingest alike.
 */
describe(`real upstream data in small batches${available ? '' : ' (skipped: ../shared/data not found next to the checkout)'}`, function () {
  this.timeout(180_000);
  const inputs = (changed: boolean): IngestInput[] => FILES.map((file) => {
    const text = readFileSync(`${DATA}${file}`, 'utf8');
    // Every other description changed: a re-ingest that updates part of the catalog.
    let n = 0;
    return { file, text: changed ? text.replace(/"description": ?"/g, (m) => (n++ % 2 === 0 ? `${m}Changed. ` : m)) : text };
  });
  /**
   * What the store holds: every source row, server (id and name) and content hash, and
   * the install keys given (as a set: which of the servers a batch creates gets a contested key
   * depends on the batch, install-key.ts).
   */
  const catalogOf = async (store: Store): Promise<unknown> => {
    const index = await catalogContentsOf(store);
    const ids = [...index.servers.keys()].sort();
    return {
      sources: [...index.sources].sort(([a], [b]) => a.localeCompare(b)),
      servers: ids.map((id) => [id, index.servers.get(id)]),
      installKeys: [...index.installKeys].sort(),
      hashes: [...index.contentHashes].sort(([a], [b]) => a.localeCompare(b)),
    };
  };

  it('writes the same catalog in batches of 7 records as in batches of a whole source, first and on a re-ingest with changes', async function () {
    if (!available) this.skip();
    const [small, whole] = [await startHarness({ demo: false }), await startHarness({ demo: false })];
    try {
      const first = await ingest(small.service.store, inputs(false), { batchSize: 7 });
      expect(first).to.deep.include({ ...(await ingest(whole.service.store, inputs(false), { batchSize: 100_000 })), seconds: first.seconds });
      expect(await catalogOf(small.service.store)).to.deep.equal(await catalogOf(whole.service.store));
      const again = await ingest(small.service.store, inputs(true), { batchSize: 7 });
      expect(again.updated).to.be.greaterThan(1000);
      expect(again).to.deep.include({ ...(await ingest(whole.service.store, inputs(true), { batchSize: 100_000 })), seconds: again.seconds });
      expect(await catalogOf(small.service.store)).to.deep.equal(await catalogOf(whole.service.store));
    } finally {
      await small.close();
      await whole.close();
    }
  });
});

describe(`real upstream data in any order${available ? '' : ' (skipped: ../shared/data not found next to the checkout)'}${TEST_DIALECT === 'sqlite' ? '' : ' (skipped: identity is worked out in the service; the SQLite run proves it on the real files, the ingest suite on both databases)'}`, function () {
  this.timeout(240_000);
  const input = (file: string): IngestInput => ({ file, text: readFileSync(`${DATA}${file}`, 'utf8') });

  it('gives the same catalog from the three files together and one at a time in three orders, and a re-ingest changes nothing', async function () {
    if (!available || TEST_DIALECT !== 'sqlite') this.skip();
    const [official, docker, toolsdk] = FILES;
    const together = await startHarness({ demo: false });
    try {
      await ingest(together.service.store, FILES.map(input));
      const expected = await catalogIdentityOf(together.service.store);
      const repos = await repositoriesBackingSeveral(together.service.store);
      for (const order of [[toolsdk, docker, official], [docker, official, toolsdk], [official, toolsdk, docker]]) {
        const apart = await startHarness({ demo: false });
        try {
          for (const file of order) await ingest(apart.service.store, [input(file as string)]);
          expect(await catalogIdentityOf(apart.service.store), order.join(', ')).to.deep.equal(expected);
        } finally {
          await apart.close();
        }
      }
      const again = await ingest(together.service.store, FILES.map(input));
      expect(again).to.include({ added: 0, updated: 0 });
      expect(await catalogIdentityOf(together.service.store)).to.deep.equal(expected);
      // GitHub's official server is one entry, with Docker's and both toolsdk records in its provenance.
      const { body } = await together.request('/api/v1/servers/io.github.github~github-mcp-server');
      expect(body.sources.map((s: { source: string; key: string }) => `${s.source}:${s.key}`).sort()).to.deep.equal([
        'docker:github-official', 'official:io.github.github/github-mcp-server', 'toolsdk:@toolsdk-remote/io-github-github-github-mcp-server', 'toolsdk:github-mcp-server',
      ]);
      // Repositories that still back several entries hold distinct servers (IDENTITY_RULES): none of
      // them shares a package or remote, but where two official names do (each its own registry entry).
      expect(repos.shared, 'entries of one repository that share a package or remote').to.deep.equal([]);
      expect(repos.officialTwins).to.be.within(1, 20);
    } finally {
      await together.close();
    }
  });
});

/** Repositories (with subfolder) that back several servers, and those of them whose servers share a package or remote. */
async function repositoriesBackingSeveral(store: Store): Promise<{ readonly shared: string[]; readonly officialTwins: number }> {
  const { sql } = store.searchSource;
  const rows = await sql.all<{ server_id: string; normalized: string }>("SELECT server_id, normalized FROM sources WHERE source <> 'monitor'");
  const officialHolders = new Map<string, number>();
  for (const row of rows) {
    const server = JSON.parse(row.normalized) as UpstreamServer;
    if (server.source === 'official') for (const key of matchKeysOf(server)) officialHolders.set(key, (officialHolders.get(key) ?? 0) + 1);
  }
  const twins = [...officialHolders].filter(([key, n]) => n > 1 && !key.startsWith('repo:')).map(([key]) => key);
  const byRepo = new Map<string, Map<string, Set<string>>>();
  for (const row of rows) {
    const server = JSON.parse(row.normalized) as UpstreamServer;
    const keys = matchKeysOf(server);
    const repo = keys.find((key) => key.startsWith('repo:'));
    if (!repo) continue;
    const servers = byRepo.get(repo) ?? new Map<string, Set<string>>();
    const held = servers.get(row.server_id) ?? new Set<string>();
    for (const key of keys) if (!key.startsWith('repo:') && !twins.includes(key)) held.add(key);
    servers.set(row.server_id, held);
    byRepo.set(repo, servers);
  }
  const shared: string[] = [];
  for (const [repo, servers] of byRepo) {
    if (servers.size < 2) continue;
    const seen = new Map<string, string>();
    for (const [id, keys] of servers) {
      for (const key of keys) {
        const other = seen.get(key);
        if (other !== undefined && other !== id) shared.push(`${repo}: ${other} and ${id} share ${key}`);
        seen.set(key, id);
      }
    }
  }
  return { shared, officialTwins: twins.length };
}
