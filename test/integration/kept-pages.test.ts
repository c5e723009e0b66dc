/**
 * Web pages kept in the read model's cache beside the answers they show (`read.page`): a repeated
 * page is the same bytes without rendering or reading the catalog again, and a page follows the
 * catalog once it changes, and a server page a new monitor check.
 */
import { expect } from 'chai';
import { ingest } from '../../src/ingest/ingest-service.js';
import { fixture, startHarness, type Harness } from '../support/harness.js';

describe('web pages kept for their answers', function () {
  this.timeout(30_000);
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ demo: true });
  });
  afterEach(async () => h.close());

  const html = async (path: string): Promise<string> => {
    const { status, body } = await h.request(path);
    expect(status, path).to.equal(200);
    return String(body);
  };

  it('answers a repeated page with the same bytes, reading nothing again', async () => {
    const { read } = h.service;
    const getServerView = read.getServerView.bind(read);
    let viewReads = 0;
    read.getServerView = async (id) => {
      viewReads += 1;
      return getServerView(id);
    };
    const path = '/servers/io.github.github~github-mcp-server';
    const first = await html(path);
    expect(viewReads, 'the first rendering reads the server with its tools').to.equal(1);
    expect(await html(path)).to.equal(first);
    expect(viewReads, 'the kept page reads nothing').to.equal(1);
    expect(first, 'tool details from the tools read').to.include('create_issue').and.include('aria-label="Annotations"');
    for (const other of ['/', '/servers?q=github', '/tools?q=issue']) expect(await html(other), other).to.equal(await html(other));
  });

  it('shows the new catalog on every page once it changed', async () => {
    const home = await html('/');
    const results = await html('/servers?q=weather');
    expect(results).not.to.include('io.github.acme~weather');
    await ingest(h.service.store, [fixture('official-small.json')]);
    expect(await html('/servers?q=weather')).to.include('/servers/io.github.acme~weather');
    expect(await html('/')).not.to.equal(home);
    expect(await html('/servers/io.github.acme~weather')).to.include('io.github.acme/weather');
  });

  it('shows a new monitor check on the server page', async () => {
    const path = '/servers/com.notion~mcp';
    const before = await html(path);
    const server = (await h.request('/api/v1/servers/com.notion~mcp')).body;
    const url: string = server.remotes[0].url;
    await h.service.store.monitor.recordCheck(
      { serverId: server.id, url, checkedAt: new Date().toISOString(), state: 'down', httpStatus: 503, latencyMs: 12, protocolVersion: null, toolCount: null, error: 'HTTP 503' },
      10,
    );
    const after = await html(path);
    expect(after).not.to.equal(before);
    expect(after).to.include('HTTP 503');
  });
});
