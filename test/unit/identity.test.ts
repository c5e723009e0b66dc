import { expect } from 'chai';
import { slugOf, toolIdOf, uniqueId } from '../../src/catalog/ids.js';
import { matchKeysOf, packageKey, repositoryKey, remoteKey } from '../../src/ingest/merge-keys.js';
import { parseQuery } from '../../src/search/query.js';

describe('identity', () => {
  const slugs: Array<[string, string]> = [
    ['io.github.acme/weather', 'io.github.acme~weather'],
    ['io.github.Couchbase-Ecosystem/mcp-server-couchbase', 'io.github.couchbase-ecosystem~mcp-server-couchbase'],
    ['@modelcontextprotocol/server-github', 'modelcontextprotocol~server-github'],
    ['Cloudflare Browser Rendering (Playwright)', 'cloudflare-browser-rendering-playwright'],
    ['mcp/sqlite', 'mcp~sqlite'],
    ['Größe/ünïcode', 'gro-e~unicode'],
  ];
  for (const [name, slug] of slugs) {
    it(`slugs ${name} as ${slug}`, () => {
      expect(slugOf(name)).to.equal(slug);
      expect(encodeURIComponent(slugOf(name))).to.equal(slugOf(name));
    });
  }

  it('builds tool ids from the server id and a URL-safe tool name', () => {
    expect(toolIdOf('io.github.acme~weather', 'get_forecast')).to.equal('io.github.acme~weather:get_forecast');
    expect(toolIdOf('s', 'Get Forecast!')).to.equal('s:get-forecast');
  });

  it('finds the first free id', () => {
    const taken = new Set(['a', 'a-2']);
    expect(uniqueId('a', (id) => taken.has(id))).to.equal('a-3');
    expect(uniqueId('b', (id) => taken.has(id))).to.equal('b');
  });

  it('normalizes merge keys', () => {
    expect(repositoryKey('https://github.com/Acme/Weather-MCP.git', null)).to.equal('repo:github.com/acme/weather-mcp');
    expect(repositoryKey('https://github.com/acme/servers/tree/main/src/git', null)).to.equal('repo:github.com/acme/servers/src/git');
    expect(repositoryKey('https://github.com/acme/servers', 'src/git/')).to.equal('repo:github.com/acme/servers/src/git');
    expect(repositoryKey('https://github.com/acme', null)).to.equal(null);
    expect(packageKey('oci', 'docker.io/acme/tool:1.2.3')).to.equal('pkg:oci:acme/tool');
    expect(packageKey('oci', 'ghcr.io/acme/tool@sha256:abcdef')).to.equal('pkg:oci:ghcr.io/acme/tool');
    expect(packageKey('pypi', 'Acme_Weather.MCP')).to.equal('pkg:pypi:acme-weather-mcp');
    expect(packageKey('npm', '@acme/weather-mcp@1.0.0')).to.equal('pkg:npm:@acme/weather-mcp');
    expect(remoteKey('https://MCP.Example.com/mcp/')).to.equal('remote:mcp.example.com/mcp');
  });

  it('collects every key of a record once', () => {
    const keys = matchKeysOf({
      source: 'official', key: 'k', name: 'n/x', title: null, description: '', version: null, versions: [],
      repositoryUrl: 'https://github.com/a/b', repositorySubfolder: null, websiteUrl: null, license: null, publishedAt: null, updatedAt: null,
      packages: [{ registryType: 'npm', identifier: '@a/b', version: '1', runtimeHint: null, transport: 'stdio', environmentVariables: [], arguments: [] }],
      remotes: [{ transport: 'sse', url: 'https://x.example.com/sse', host: 'x.example.com', headers: [] }],
      tools: [], upstreamCategories: [], oauth: false, declaresSecrets: false,
    });
    expect(keys).to.deep.equal(['repo:github.com/a/b', 'pkg:npm:@a/b', 'remote:x.example.com/sse']);
  });

  it('parses a query into prefix terms that must all match', () => {
    expect(parseQuery('  GitHub   Issues ')).to.deep.equal({ text: 'github issues', terms: ['github', 'issues'] });
    expect(parseQuery('"; DROP TABLE servers; --')).to.deep.equal({ text: '"; drop table servers; --', terms: ['drop', 'table', 'servers'] });
    expect(parseQuery('git\u0000hub\u001b[0m')).to.deep.equal({ text: 'git hub [0m', terms: ['git', 'hub', '0m'] });
    expect(parseQuery('   ')).to.equal(null);
    expect(parseQuery(undefined)).to.equal(null);
    expect(parseQuery('*"()')).to.deep.equal({ text: '*"()', terms: null });
  });
});
