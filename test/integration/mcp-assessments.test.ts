/**
 * The assessment tools at /mcp, through the official MCP SDK client: the same service as REST,
 * the same public limit and the same notice. The probes are stand-ins (this is about the tools).
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ProbeRunner } from '../../src/assessments/worker.js';
import { createAjv } from '../../src/contract.js';
import { contractFetch, startHarness, type Harness } from '../support/harness.js';

const probes: ProbeRunner = async (domain) => [
  { name: 'page_title', outcome: 'observed', value: { title: `Home of ${domain}`, url: `https://${domain}/` }, evidence: `Read https://${domain}/.`, source: 'http', observedAt: new Date().toISOString() },
];

type Content = Array<{ type: string; text: string }>;

describe('assessment tools at /mcp', function () {
  this.timeout(30_000);
  let h: Harness;
  let client: Client;
  const outputOf = async (name: string) => {
    const tool = (await client.listTools()).tools.find((t) => t.name === name);
    return createAjv().compile(tool?.outputSchema ?? {});
  };
  const call = async (name: string, args: Record<string, unknown>): Promise<{ isError: boolean; structuredContent: unknown; text: string }> => {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, structuredContent: result.structuredContent, text: (result.content as Content)[0]?.text ?? '' };
  };

  before(async () => {
    h = await startHarness({ demo: false, probe: probes, assessmentLimit: 3 });
    client = new Client({ name: 'sextant-tests', version: '1.0.0' });
    const checked = contractFetch(h.baseUrl);
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', h.baseUrl), { fetch: (url, init) => checked(url, init) }));
  });
  after(async () => {
    await client.close();
    await h.close();
  });

  it('creates an assessment, reads it once finished and lists the domain\'s history, each valid against its output schema', async () => {
    const created = await call('create_assessment', { domain: 'Firm-Example.com', exposure: 1200 });
    expect(created.isError, created.text).to.equal(false);
    const record = created.structuredContent as { id: string; domain: string; exposure: number; notice: string };
    expect(record).to.include({ domain: 'firm-example.com', exposure: 1200 });
    expect(record.notice).to.match(/not a score/);
    expect((await outputOf('create_assessment'))(record)).to.equal(true);
    const got = await call('get_assessment', { id: record.id });
    const finished = got.structuredContent as { status: string; observations: Array<{ label: string; summary: string }> };
    expect(finished.status).to.equal('complete');
    expect(finished.observations[0]).to.include({ label: 'Home page title', summary: 'The home page\'s title is "Home of firm-example.com".' });
    expect((await outputOf('get_assessment'))(finished)).to.equal(true);
    expect(JSON.parse(got.text)).to.deep.equal(finished);
    const listed = await call('list_assessments', { domain: 'firm-example.com' });
    expect(listed.structuredContent).to.deep.include({ domain: 'firm-example.com', total: 1 });
    expect((listed.structuredContent as { items: Array<{ id: string }> }).items.map((i) => i.id)).to.deep.equal([record.id]);
    expect((await outputOf('list_assessments'))(listed.structuredContent)).to.equal(true);
  });

  it('reports a domain that is not a business domain, an unknown id and bad arguments as tool errors a model can act on', async () => {
    const refused = await call('create_assessment', { domain: 'https://firm.com' });
    expect(refused.isError).to.equal(true);
    expect(refused.text).to.match(/web address/).and.to.match(/domain: /);
    const unknown = await call('get_assessment', { id: '00000000-0000-0000-0000-000000000000' });
    expect(unknown.isError).to.equal(true);
    expect(unknown.text).to.match(/No assessment has the id/).and.to.match(/list_assessments/);
    const extra = await call('create_assessment', { domain: 'firm.com', score: 5 });
    expect(extra.isError).to.equal(true);
    expect(extra.text).to.match(/score/);
  });

  it('counts against the same public limit as REST', async () => {
    const rest = await h.request('/api/v1/assessments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ domain: 'rest-firm.com' }) });
    expect(rest.status).to.equal(201);
    expect((await call('create_assessment', { domain: 'third-firm.com' })).isError).to.equal(false);
    const limited = await call('create_assessment', { domain: 'fourth-firm.com' });
    expect(limited.isError).to.equal(true);
    expect(limited.text).to.match(/public limit of 3 assessments an hour/);
    expect((await call('list_assessments', { domain: 'fourth-firm.com' })).structuredContent).to.deep.include({ total: 0 });
  });
});
