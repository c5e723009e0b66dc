/** Trust evidence and side-by-side comparison. */
import { expect } from 'chai';
import { fixture, startHarness, type Harness } from '../support/harness.js';

describe('trust evidence', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false, inputs: ['official-small.json', 'docker-small.json', 'toolsdk-small.json', 'install-kinds.json'].map(fixture) });
  });
  after(async () => h.close());

  const outcomes = async (id: string): Promise<Record<string, string>> => {
    const { data } = await h.client.GET('/api/v1/servers/{id}/trust', { params: { path: { id } } });
    return Object.fromEntries(data!.checks.map((c) => [c.check, c.outcome]));
  };

  it('computes every check with its evidence, and counts (not judges) the outcomes', async () => {
    const { data } = await h.client.GET('/api/v1/servers/{id}/trust', { params: { path: { id: 'io.github.acme~weather' } } });
    expect(Object.fromEntries(data!.checks.map((c) => [c.check, c.outcome]))).to.deep.equal({
      namespace_matches_owner: 'pass',
      repository_present: 'pass',
      license_present: 'pass',
      packages_pinned: 'fail',
      remotes_use_https: 'pass',
      secrets_declared: 'pass',
      tool_annotations: 'fail',
      multiple_sources: 'pass',
      endpoint_health: 'unknown',
      tool_definitions: 'pass',
      tools_changed: 'pass',
    });
    const pinned = data!.checks.find((c) => c.check === 'packages_pinned')!;
    expect(pinned.evidence).to.contain('mcp/weather');
    expect(data!.summary).to.deep.equal({ pass: 8, fail: 2, unknown: 1 });
    expect(data!.checks.every((c) => c.evidence.length > 0 && c.source.length > 0)).to.equal(true);
  });

  it('includes each source\'s record as ingested, credentials removed', async () => {
    const { data } = await h.client.GET('/api/v1/servers/{id}/trust', { params: { path: { id: 'io.github.acme~weather' } } });
    expect(data!.upstream.map((u) => u.source)).to.deep.equal(['docker', 'official', 'toolsdk']);
    const official = data!.upstream.find((u) => u.source === 'official')!.record as Record<string, any>;
    expect(official.name).to.equal('io.github.acme/weather');
    expect(official.packages[0].environmentVariables[1]).to.include({ name: 'WEATHER_UNITS', default: 'metric' });
    expect(official.packages[0].environmentVariables[0].default).to.equal('[redacted]');
  });

  it('fails the namespace check when the namespace owner does not own the repository or endpoint', async () => {
    expect((await outcomes('io.github.acme~npm-tool')).namespace_matches_owner).to.equal('pass');
    expect((await outcomes('com.acme~remote-auth')).namespace_matches_owner).to.equal('pass');
    expect((await outcomes('io.github.other~beta')).namespace_matches_owner).to.equal('unknown');
    expect((await outcomes('kanban-remote')).namespace_matches_owner).to.equal('unknown');
  });

  it('passes pinning for exact versions and knows when there is nothing to check', async () => {
    const npm = await outcomes('io.github.acme~npm-tool');
    expect(npm).to.include({ packages_pinned: 'pass', remotes_use_https: 'unknown', multiple_sources: 'fail', license_present: 'unknown' });
    expect((await outcomes('com.acme~remote-open')).packages_pinned).to.equal('unknown');
  });

  it('answers 404 not_found naming the unknown server', async () => {
    const { status, headers, body } = await h.request('/api/v1/servers/nope~nope/trust');
    expect(status).to.equal(404);
    expect(headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(body).to.include({ status: 404, code: 'not_found' });
    expect(body.detail).to.contain('nope~nope');
    expect(body.requestId).to.equal(headers.get('x-request-id'));
  });
});

describe('server comparison', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false, inputs: ['official-small.json', 'docker-small.json', 'toolsdk-small.json', 'install-kinds.json'].map(fixture) });
  });
  after(async () => h.close());

  it('puts servers side by side with shared and unique tools', async () => {
    const { data } = await h.client.GET('/api/v1/servers/compare', { params: { query: { ids: ['io.github.acme~npm-tool', 'io.github.acme~py-tool'] } } });
    expect(data!.servers.map((s) => s.id)).to.deep.equal(['io.github.acme~npm-tool', 'io.github.acme~py-tool']);
    expect(data!.servers[0]).to.deep.include({ transports: ['stdio'], endpointCount: 0, toolCount: 2, authentication: 'api_key', status: 'unknown' });
    expect(data!.servers[1]).to.deep.include({ authentication: 'none' });
    expect(data!.servers[0]!.trust.outcomes.map((o) => o.check)).to.include('packages_pinned');
    expect(data!.tools).to.deep.equal({
      shared: ['shared_tool'],
      unique: [{ serverId: 'io.github.acme~npm-tool', tools: ['lookup'] }, { serverId: 'io.github.acme~py-tool', tools: ['py_only'] }],
    });
  });

  it('accepts canonical names and up to ten servers', async () => {
    const { body } = await h.request(`/api/v1/servers/compare?ids=${encodeURIComponent('io.github.acme/weather,com.example~notes,dev.shared~alpha')}`);
    expect(body.servers.map((s: { name: string }) => s.name)).to.deep.equal(['io.github.acme/weather', 'com.example/notes', 'dev.shared/alpha']);
    expect(body.tools.shared).to.deep.equal([]);
  });

  it('answers unknown ids with 404 naming them', async () => {
    const { status, body } = await h.request('/api/v1/servers/compare?ids=io.github.acme~weather,nope~one,nope~two');
    expect(status).to.equal(404);
    expect(body.detail).to.contain('"nope~one"').and.to.contain('"nope~two"');
  });

  for (const [what, ids] of [['one id', 'a'], ['eleven ids', Array.from({ length: 11 }, (_, i) => `s${i}`).join(',')], ['the same id twice', 'a,a'], ['no ids', '']] as const) {
    it(`answers ${what} with 400`, async () => {
      const { status, body } = await h.request(`/api/v1/servers/compare?ids=${ids}`);
      expect(status).to.equal(400);
      expect(body.errors.map((e: { location: string }) => e.location)).to.include('query.ids');
    });
  }
});
