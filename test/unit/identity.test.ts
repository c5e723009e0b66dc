import { expect } from 'chai';
import { serverIdOf, slugOf, toolIdOf, uniqueId } from '../../src/catalog/ids.js';
import { identify, identityKey, IDENTITY_RULES, MAX_KEY_RECORDS, type IdentityFacts } from '../../src/ingest/identity.js';
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

  const readable: Array<[string, string]> = [
    ['io.github.acme/weather', 'io.github.acme~weather'],
    ['@stripe/agent-toolkit/tree/main/modelcontextprotocol', 'stripe-agent-toolkit'],
    ['crawl4ai-(web-scraping-&-crawling)', 'crawl4ai'],
    ['mcp/github-official', 'github-official'],
    ['@modelcontextprotocol/server-github', 'modelcontextprotocol-server-github'],
    ['(only an aside)', 'only-an-aside'],
  ];
  for (const [name, id] of readable) {
    it(`gives ${name} the readable id ${id}`, () => expect(serverIdOf(name)).to.equal(id));
  }
});

describe('identity across sources (IDENTITY_RULES, rule by rule)', () => {
  const record = (source: IdentityFacts['source'], key: string, matchKeys: string[], name = key): IdentityFacts => ({ source, key, name, matchKeys });
  /** The records' servers, as sets of `source:key`, sorted. */
  const serversOf = (records: IdentityFacts[]): string[][] => {
    const { serverOf } = identify(records);
    const by = new Map<string, string[]>();
    for (const r of records) {
      const id = serverOf.get(identityKey(r.source, r.key)) as string;
      by.set(id, [...(by.get(id) ?? []), `${r.source}:${r.key}`].sort());
    }
    return [...by.values()].sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
  };
  const rule = (name: string): string => IDENTITY_RULES.find((r) => r.name === name)?.rule ?? '';

  it(`package or remote: ${rule('package or remote')}`, () => {
    expect(serversOf([record('official', 'io.x/a', ['pkg:npm:a']), record('toolsdk', 'a', ['pkg:npm:a'])])).to.deep.equal([['official:io.x/a', 'toolsdk:a']]);
    expect(serversOf([record('official', 'io.x/a', ['remote:a.example/mcp']), record('docker', 'a', ['remote:a.example/mcp'])])).to.have.length(1);
  });

  it(`name: ${rule('name')}`, () => {
    expect(serversOf([record('docker', 'solo', [], 'mcp/solo'), record('toolsdk', 'solo-t', [], 'mcp/solo')])).to.have.length(1);
  });

  it(`repository: ${rule('repository')}`, () => {
    const repo = 'repo:github.com/acme/tools';
    expect(serversOf([record('official', 'io.acme/a', [repo, 'pkg:npm:a']), record('docker', 'a', [repo, 'pkg:oci:mcp/a'])]), 'Docker’s own build tells nothing apart').to.have.length(1);
    expect(serversOf([record('official', 'io.acme/a', [repo, 'pkg:npm:a']), record('toolsdk', 'b', [repo, 'pkg:npm:b'])]), 'two npm packages of one repository').to.have.length(2);
    expect(serversOf([record('official', 'io.acme/a', [repo, 'pkg:npm:a']), record('toolsdk', 'a-py', [repo, 'pkg:pypi:a'])]), 'packages in different registries').to.have.length(1);
  });

  it(`one source, one record: ${rule('one source, one record')}`, () => {
    const repo = 'repo:github.com/acme/monorepo';
    expect(serversOf([record('toolsdk', 'a', [repo]), record('toolsdk', 'b', [repo])]), 'a repository alone').to.have.length(2);
    expect(serversOf([record('toolsdk', 'a', ['remote:x.example/mcp']), record('toolsdk', 'b', ['remote:x.example/mcp'])]), 'a shared remote').to.have.length(1);
    expect(serversOf([record('official', 'io.a/x', ['pkg:npm:x']), record('official', 'io.b/x', ['pkg:npm:x'])]), 'two official names').to.have.length(2);
    expect(serversOf([record('publisher', 'io.a/x', ['remote:x.example/mcp']), record('publisher', 'io.b/x', ['remote:x.example/mcp'])]), 'two published names').to.have.length(2);
  });

  it(`one registry name: ${rule('one registry name')}`, () => {
    // The published record shares its name with one official record and its remote with another:
    // by closest match alone it would join neither, and two entries would hold one registry name.
    expect(serversOf([
      record('official', 'com.acme/billing', ['remote:billing.acme.example/mcp']),
      record('official', 'com.acme/billing-v2', ['remote:v2.acme.example/mcp']),
      record('publisher', 'com.acme/billing', ['remote:v2.acme.example/mcp']),
    ])).to.deep.equal([['official:com.acme/billing', 'publisher:com.acme/billing'], ['official:com.acme/billing-v2']]);
  });

  it(`closest match: ${rule('closest match')}`, () => {
    const repo = 'repo:github.com/acme/ads';
    // A toolsdk record with the remote of one official record and the repository of two: the remote decides.
    expect(serversOf([
      record('official', 'ai.smithery/ads', [repo, 'remote:ads.example/mcp']),
      record('official', 'ai.smithery/ads-test', [repo, 'remote:ads-test.example/mcp']),
      record('toolsdk', 'ads', [repo, 'remote:ads.example/mcp']),
    ])).to.deep.equal([['official:ai.smithery/ads', 'toolsdk:ads'], ['official:ai.smithery/ads-test']]);
    // One official record with the remotes of two Docker servers: it joins neither, and they stay apart.
    expect(serversOf([
      record('official', 'com.cf/mcp', ['remote:docs.cf/sse', 'remote:radar.cf/sse']),
      record('docker', 'cf-docs', ['remote:docs.cf/sse']),
      record('docker', 'cf-radar', ['remote:radar.cf/sse']),
    ])).to.have.length(3);
  });

  it(`crowded key: ${rule('crowded key')}`, () => {
    const many = Array.from({ length: MAX_KEY_RECORDS + 1 }, (_, i) => record('toolsdk', `t${i}`, ['remote:template.example/mcp']));
    expect(serversOf(many)).to.have.length(MAX_KEY_RECORDS + 1);
  });

  it(`canonical name and id: ${rule('canonical name')}; ${rule('id')}`, () => {
    const { serverOf, names } = identify([record('toolsdk', 'gh', ['pkg:npm:gh'], '@toolsdk/gh'), record('official', 'io.github.gh/gh', ['pkg:npm:gh']), record('docker', 'gh', ['pkg:npm:gh'], 'mcp/gh')]);
    expect([...names]).to.deep.equal([['io.github.gh~gh', 'io.github.gh/gh']]);
    expect(serverOf.get(identityKey('toolsdk', 'gh'))).to.equal('io.github.gh~gh');
    const published = identify([record('official', 'io.github.gh/gh', ['pkg:npm:gh']), record('publisher', 'io.acme/gh', ['pkg:npm:gh'])]);
    expect([...published.names], 'the publisher first').to.deep.equal([['io.acme~gh', 'io.acme/gh']]);
    const twins = identify([record('toolsdk', 'b', [], 'Twin'), record('docker', 'a', [], 'mcp/twin')]);
    expect([...twins.names]).to.deep.equal([['twin', 'mcp/twin'], ['twin-2', 'Twin']]);
  });

  it('identifies the same servers whatever order the records come in', () => {
    const records = [
      record('official', 'io.x/a', ['pkg:npm:a', 'repo:github.com/x/a']), record('docker', 'a', ['repo:github.com/x/a', 'pkg:oci:mcp/a'], 'mcp/a'),
      record('toolsdk', 'a', ['pkg:npm:a'], '@x/a'), record('toolsdk', 'b', ['repo:github.com/x/a', 'pkg:npm:b'], 'b'), record('docker', 'b', [], 'B'),
    ];
    const expected = identify(records);
    for (let turn = 0; turn < 10; turn += 1) {
      const shuffled = [...records].sort(() => Math.random() - 0.5);
      const got = identify(shuffled);
      expect([...got.serverOf].sort()).to.deep.equal([...expected.serverOf].sort());
      expect([...got.names].sort()).to.deep.equal([...expected.names].sort());
    }
  });
});
