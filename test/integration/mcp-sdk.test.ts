/** /mcp through the official MCP TypeScript SDK client, the way Claude, Cursor or VS Code connect. */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createAjv } from '../../src/contract.js';
import { contractFetch, startHarness, type Harness } from '../support/harness.js';

describe('MCP endpoint with the official SDK client', () => {
  let h: Harness;
  let client: Client;
  before(async () => {
    h = await startHarness();
    client = new Client({ name: 'sextant-tests', version: '1.0.0' });
    const checked = contractFetch(h.baseUrl);
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', h.baseUrl), { fetch: (url, init) => checked(url, init) }));
  });
  after(async () => {
    await client.close();
    await h.close();
  });

  it('negotiates the latest protocol version and says who it is', () => {
    expect(client.getServerVersion()).to.include({ name: 'sextant', version: '1.0.0' });
    expect(client.getServerCapabilities()?.tools).to.deep.equal({ listChanged: false });
    expect(client.getInstructions()).to.match(/search_servers/);
  });

  it('lists the tools, each with input and output schemas, all read-only but the one that starts an assessment', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.deep.equal(['search_servers', 'search_tools', 'get_server', 'get_tool', 'get_install', 'get_trust', 'get_status', 'compare_servers', 'list_categories', 'create_assessment', 'get_assessment', 'list_assessments']);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint, tool.name).to.equal(tool.name !== 'create_assessment');
      expect(tool.annotations?.openWorldHint, tool.name).to.equal(tool.name === 'create_assessment');
      expect(tool.inputSchema.type).to.equal('object');
      expect(tool.outputSchema?.type).to.equal('object');
    }
  });

  const calls: Array<[string, Record<string, unknown>]> = [
    ['search_servers', { q: 'github', limit: 3 }],
    ['search_servers', { sort: 'tools', category: 'databases' }],
    ['search_tools', { q: 'issue', authentication: 'api_key' }],
    ['get_server', { id: 'io.github.github~github-mcp-server' }],
    ['get_server', { id: 'io.github.github/github-mcp-server' }],
    ['get_tool', { id: 'io.github.github~github-mcp-server:create_issue' }],
    ['get_install', { id: 'io.github.github~github-mcp-server' }],
    ['get_install', { id: 'com.notion~mcp', client: 'vscode' }],
    ['get_trust', { id: 'io.github.github~github-mcp-server' }],
    ['get_status', { id: 'io.github.github~github-mcp-server' }],
    ['compare_servers', { ids: ['io.github.github~github-mcp-server', 'com.notion~mcp', 'app.linear~linear'] }],
    ['list_categories', {}],
  ];
  for (const [name, args] of calls) {
    it(`calls ${name} ${JSON.stringify(args)} and returns structuredContent valid against its outputSchema`, async () => {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === name)!;
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result.content)).to.equal(false);
      const validate = createAjv().compile(tool.outputSchema!);
      expect(validate(result.structuredContent), JSON.stringify(validate.errors)).to.equal(true);
      const [text] = result.content as Array<{ type: string; text: string }>;
      expect(JSON.parse(text!.text)).to.deep.equal(result.structuredContent);
    });
  }

  it('reports an unknown server as a tool error that says what to do next', async () => {
    const result = await client.callTool({ name: 'get_server', arguments: { id: 'no.such~server' } });
    expect(result.isError).to.equal(true);
    const [text] = result.content as Array<{ text: string }>;
    expect(text!.text).to.match(/no\.such~server/).and.to.match(/search_servers/);
  });

  it('answers a search that finds nothing as a result, not an error: isError false, no items', async () => {
    for (const name of ['search_servers', 'search_tools']) {
      const result = await client.callTool({ name, arguments: { q: 'zqxjvwk' } });
      expect(result.isError, name).to.equal(false);
      expect(result.structuredContent, name).to.deep.include({ items: [], total: 0 });
    }
  });

  it('reports a domain failure as a tool error: unknown ids to compare, an unknown category', async () => {
    const compared = await client.callTool({ name: 'compare_servers', arguments: { ids: ['com.notion~mcp', 'no.such~server'] } });
    expect(compared.isError).to.equal(true);
    expect((compared.content as Array<{ text: string }>)[0]!.text).to.match(/no\.such~server/);
    const category = await client.callTool({ name: 'search_servers', arguments: { category: 'no-such-category' } });
    expect(category.isError).to.equal(true);
    expect(category.structuredContent).to.equal(undefined);
  });

  it('reports invalid arguments as a tool error the model can correct (2025-11-25)', async () => {
    const result = await client.callTool({ name: 'search_servers', arguments: { limit: 500, sort: 'popular' } });
    expect(result.isError).to.equal(true);
    const [text] = result.content as Array<{ text: string }>;
    expect(text!.text).to.match(/limit/).and.to.match(/sort/);
  });

  it('rejects an unknown tool with -32602', async () => {
    const failure = await client.callTool({ name: 'delete_everything', arguments: {} }).catch((err: unknown) => err);
    expect(failure).to.have.property('code', -32602);
  });

  it('answers ping', async () => {
    expect(await client.ping()).to.deep.equal({});
  });
});
