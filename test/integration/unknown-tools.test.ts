/**
 * Unknown is not zero (DESIGN.md "One server, one entry; unknown is not zero"): a server whose
 * tools no source and no check lists has toolCount null on every surface (REST, the registry
 * API's block, MCP, pages, badges), a tool its source names without arguments has a null
 * inputSchema, sort=tools puts unknown counts last, tools the monitor lists count, and
 * migration 024 restates rows stored before it. Every response is checked against the contract.
 */
import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { attachEndpointTools } from '../../src/ingest/ingest-service.js';
import { openDatabase, type Db } from '../../src/store/db.js';
import { migrationSource } from '../../src/store/migrations/index.js';
import { contractFetch, startHarness, type Harness } from '../support/harness.js';

const addFormats = addFormatsModule.default;

const toolsdk = (packageName: string, description: string, tools?: unknown[]) => ({
  type: 'mcp-server', name: packageName, packageName, description, url: `https://github.com/acme/${packageName.slice(6)}`, runtime: 'node', license: 'MIT', env: {},
  _toolsdk: { key: packageName, category: 'developer-tools', path: `developer-tools/${packageName.slice(6)}.json`, validated: tools !== undefined && tools.length > 0 },
  ...(tools === undefined ? {} : { tools }),
});

const INPUTS = [
  {
    file: 'official.json',
    text: JSON.stringify({
      servers: [
        { name: 'io.github.acme/silent', description: 'Acme silent server, published without tools.', version: '1.0.0', packages: [{ registryType: 'npm', identifier: '@acme/silent-mcp', version: '1.0.0', transport: { type: 'stdio' } }] },
        { name: 'io.github.acme/live', description: 'Acme live server behind a remote endpoint.', version: '2.0.0', remotes: [{ type: 'streamable-http', url: 'https://live.acme.example/mcp' }] },
        // A publisher's tool without an inputSchema says nothing of its arguments.
        {
          name: 'io.github.acme/stamps', description: 'Acme stamps, whose publisher lists its tools.', version: '1.0.0', packages: [{ registryType: 'npm', identifier: '@acme/stamps', version: '1.0.0', transport: { type: 'stdio' } }],
          _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tools: [{ name: 'stamp', description: 'Stamp a document' }, { name: 'seal', description: 'Seal', inputSchema: { type: 'object', properties: {} } }] } },
        },
      ].map((server) => ({ server, _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: '2025-10-01T00:00:00Z', updatedAt: '2025-10-01T00:00:00Z', isLatest: true } } })),
    }),
  },
  {
    file: 'docker.json',
    text: JSON.stringify([
      // Docker gives a remote server an empty tools.json: its tools are discovered at run time.
      { name: 'acme-remote', type: 'remote', dynamic: { tools: true }, about: { title: 'Acme Remote', description: 'Acme remote tools.' }, remote: { transport_type: 'streamable-http', url: 'https://remote.acme.example/mcp' }, tools: [] },
      // A local image whose tools.json is empty states that it has none.
      { name: 'acme-empty', type: 'server', image: 'mcp/acme-empty:1.0', about: { title: 'Acme Empty', description: 'Acme image that lists no tools.' }, tools: [] },
      // A tool without `arguments` (or a schema) says nothing of them; an empty list says none.
      {
        name: 'acme-args', type: 'server', image: 'mcp/acme-args:1.0', about: { title: 'Acme Args', description: 'Acme image with two tools.' },
        tools: [{ name: 'lookup', description: 'Look up a record by its id' }, { name: 'now', description: 'The time', arguments: [] }],
      },
    ]),
  },
  {
    file: 'toolsdk.json',
    text: JSON.stringify([
      // toolsdk writes an empty list when its validator could not list the tools.
      toolsdk('@acme/quiet-mcp', 'Acme quiet server whose tools toolsdk could not list.', []),
      toolsdk('@acme/silent-mcp', 'Acme silent server.'),
      toolsdk('@acme/names-mcp', 'Acme server whose tools toolsdk names.', [{ name: 'ping', description: 'Ping a host' }]),
    ]),
  },
];

const QUIET = 'acme-quiet-mcp';
const NAMES = 'acme-names-mcp';
const PING = `${NAMES}:ping`;
const LIVE = 'io.github.acme~live';
const LIVE_TOOL = { title: null, annotations: { title: null, readOnlyHint: true, destructiveHint: null, idempotentHint: null, openWorldHint: null } };

/** A count of none as a page would write it ("0 tools"), not "10 tools". */
const ZERO_TOOLS = /(^|[^0-9,])0 tools/;

describe('unknown tool counts and schemas are null, not zero', function () {
  this.timeout(60_000);
  let h: Harness;
  let mcp: Client;
  let liveBefore: unknown;
  before(async () => {
    h = await startHarness({ demo: false, inputs: INPUTS });
    liveBefore = (await h.request(`/api/v1/servers/${LIVE}`)).body.toolCount;
    await attachEndpointTools(h.service.store, LIVE, 'https://live.acme.example/mcp', [
      { name: 'status', description: 'Service status', inputSchema: { type: 'object', properties: {} }, ...LIVE_TOOL },
      { name: 'echo', description: 'Echo a text', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, ...LIVE_TOOL },
    ], new Date().toISOString());
    // The SDK client checks every structuredContent against the tool's outputSchema, in strict 2020-12.
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    mcp = new Client({ name: 'sextant-tests', version: '1.0.0' }, { jsonSchemaValidator: new AjvJsonSchemaValidator(ajv) });
    const checked = contractFetch(h.baseUrl);
    await mcp.connect(new StreamableHTTPClientTransport(new URL('/mcp', h.baseUrl), { fetch: (url, init) => checked(url, init) }));
  });
  after(async () => {
    await mcp?.close();
    await h?.close();
  });

  const call = async (name: string, args: Record<string, unknown>): Promise<any> => (await mcp.callTool({ name, arguments: args })).structuredContent;

  it('says null for a server no source lists the tools of, in search items, its record and a comparison', async () => {
    const search = await h.client.GET('/api/v1/servers/search', { params: { query: { q: 'quiet' } } });
    expect(search.data?.items.find((s) => s.id === QUIET)?.toolCount).to.equal(null);
    const record = await h.client.GET('/api/v1/servers/{id}', { params: { path: { id: QUIET } } });
    expect(record.data).to.include({ toolCount: null, toolsFingerprint: null, toolFindings: null });
    expect(record.data?.tools).to.deep.equal([]);
    const compare = await h.client.GET('/api/v1/servers/compare', { params: { query: { ids: [QUIET, NAMES] } } });
    expect(compare.data?.servers.map((s) => [s.id, s.toolCount])).to.deep.equal([[QUIET, null], [NAMES, 1]]);
  });

  it('says null where no record lists tools: official records, Docker\'s remote [], toolsdk without a list; 0 only where a record states it', async () => {
    const counts = await Promise.all(['io.github.acme~silent', 'acme-remote', 'acme-empty'].map(async (id) => (await h.request(`/api/v1/servers/${id}`)).body.toolCount));
    expect(counts).to.deep.equal([null, null, 0]);
  });

  it('says null in the registry API\'s catalog block of a server whose records list no tools', async () => {
    const { status, body } = await h.request(`/v0.1/servers/${encodeURIComponent('io.github.acme/silent')}/versions/latest`);
    expect(status).to.equal(200);
    expect(body._meta['local.sextant/catalog']).to.include({ toolCount: null, toolsFingerprint: null });
    expect(body._meta['local.sextant/catalog'].tools).to.deep.equal([]);
  });

  it('gives a tool its source names without arguments a null inputSchema, in REST and MCP', async () => {
    const tool = await h.client.GET('/api/v1/tools/{id}', { params: { path: { id: PING } } });
    expect(tool.data).to.include({ name: 'ping', inputSchema: null, source: 'toolsdk' });
    const found = await h.client.GET('/api/v1/tools/search', { params: { query: { q: 'ping' } } });
    expect(found.data?.items.find((t) => t.id === PING)?.inputSchema).to.equal(null);
    expect((await call('get_tool', { id: PING })).inputSchema).to.equal(null);
    expect((await call('search_tools', { q: 'ping' })).items.find((t: { id: string }) => t.id === PING).inputSchema).to.equal(null);
    const schemas = await Promise.all(['acme-args:lookup', 'acme-args:now', 'io.github.acme~stamps:stamp', 'io.github.acme~stamps:seal'].map(async (id) => (await h.request(`/api/v1/tools/${id}`)).body.inputSchema));
    expect(schemas).to.deep.equal([null, { type: 'object', properties: {} }, null, { type: 'object', properties: {} }]);
  });

  it('says null over MCP: search_servers, get_server and compare_servers', async () => {
    expect((await call('search_servers', { q: 'quiet' })).items.find((s: { id: string }) => s.id === QUIET).toolCount).to.equal(null);
    expect((await call('get_server', { id: QUIET })).toolCount).to.equal(null);
    const compared = await call('compare_servers', { ids: [QUIET, NAMES] });
    expect(compared.servers.map((s: { toolCount: number | null }) => s.toolCount)).to.deep.equal([null, 1]);
  });

  it('counts the tools the monitor listed from an endpoint of a server no source lists the tools of', async () => {
    expect(liveBefore).to.equal(null);
    const { data } = await h.client.GET('/api/v1/servers/{id}', { params: { path: { id: LIVE } } });
    expect(data?.toolCount).to.equal(2);
    const echo = await h.client.GET('/api/v1/tools/{id}', { params: { path: { id: `${LIVE}:echo` } } });
    expect(echo.data).to.include({ source: 'monitor' });
  });

  it('sorts by tools with unknown counts last and ties by id, with and without words', async () => {
    // The in-memory engine answers relevance only: sorted searches are the database's (FTS5 or PostgreSQL).
    for (const q of [undefined, 'acme']) {
      const { data } = await h.client.GET('/api/v1/servers/search', { params: { query: { sort: 'tools', limit: 100, ...(q ? { q } : {}) } } });
      const items = data?.items ?? [];
      expect(items.map((s) => [s.id, s.toolCount]).slice(0, 5), `q=${q}`).to.deep.equal([['acme-args', 2], [LIVE, 2], ['io.github.acme~stamps', 2], [NAMES, 1], ['acme-empty', 0]]);
      expect(items.slice(5).map((s) => s.toolCount), `q=${q}`).to.deep.equal([null, null, null]);
      const unknown = items.filter((s) => s.toolCount === null).map((s) => s.id);
      expect(unknown, `q=${q}`).to.deep.equal([...unknown].sort());
    }
  });

  it('shows "tools not listed" on pages and badges, never "0 tools", and 0 only where a record states it', async () => {
    const quiet = String((await h.request(`/servers/${QUIET}`)).body);
    expect(quiet).to.include('tools not listed').and.include('No source lists this server’s tools');
    expect(quiet).not.to.match(ZERO_TOOLS);
    const list = String((await h.request('/servers?q=acme')).body);
    expect(list.split('tools not listed').length - 1).to.equal(3);
    expect(list.match(new RegExp(ZERO_TOOLS, 'g'))).to.have.length(1);
    const compare = String((await h.request(`/compare?ids=${QUIET},${NAMES}`)).body);
    expect(compare).to.include('<td>not listed</td>').and.include('Not listed: no source lists its tools.');
    expect(String((await h.request(`/api/v1/servers/${QUIET}/badge.svg?kind=tools`)).body)).to.include('not listed');
    expect(String((await h.request('/api/v1/servers/acme-empty/badge.svg?kind=tools')).body)).to.include('0 tools');
  });

  it('says a tool\'s arguments are not listed by its source, not that it takes none', async () => {
    const html = String((await h.request(`/servers/${NAMES}`)).body);
    expect(html).to.include('Arguments not listed by its source').and.include('names and descriptions (their source does not list their arguments)');
    expect(html).not.to.include('Takes no arguments');
    const live = String((await h.request(`/servers/${LIVE}`)).body);
    expect(live, 'a tool whose schema lists no arguments').to.include('Takes no arguments');
  });

  // Last: it moves the schema under the running service (down, then up again).
  it('restates rows stored before migration 024, and its down gives them back', async () => {
    const db = openDatabase(h.database.url);
    try {
      const now = await rowsOf(db);
      // Undone in order, the later migrations first, down to and with 024.
      while ((await db.migrate.currentVersion({ migrationSource })) >= '024') await db.migrate.down({ migrationSource });
      const before = await rowsOf(db);
      expect(before.servers.find((s) => s.id === QUIET)?.tool_count).to.equal(0);
      expect(before.tools.find((t) => t.id === PING)?.input_schema).to.equal('{"type":"object","properties":{}}');
      expect(before.sources.find((s) => s.source_key === '@acme/quiet-mcp')?.normalized.tools).to.deep.equal([]);
      expect(before.history.find((r) => r.tool_name === 'ping')?.fingerprint).not.to.equal(now.history.find((r) => r.tool_name === 'ping')?.fingerprint);
      await db.migrate.latest({ migrationSource });
      expect(await rowsOf(db)).to.deep.equal(now);
    } finally {
      await db.destroy();
    }
  });
});

/** The rows migration 024 restates, in a stable order. */
async function rowsOf(db: Db) {
  const servers: Array<{ id: string; tool_count: number | null }> = await db('servers').orderBy('id').select('id', 'tool_count', 'tools_fingerprint', 'tool_findings', 'tools_changed_at');
  const tools: Array<{ id: string; input_schema: string | null }> = await db('tools').orderBy('id').select('id', 'input_schema', 'fingerprint');
  const history: Array<{ tool_name: string; fingerprint: string }> = await db('tool_history').orderBy(['server_id', 'tool_name', 'first_seen_at']).select('server_id', 'tool_name', 'fingerprint', 'definition', 'seen_by', 'current');
  const sources: Array<{ source: string; source_key: string; normalized: string }> = await db('sources').orderBy(['source', 'source_key']).select('source', 'source_key', 'normalized');
  return { servers, tools, history, sources: sources.map((s) => ({ ...s, normalized: JSON.parse(s.normalized) })) };
}
