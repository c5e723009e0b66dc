import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has defaults for everything', () => {
    expect(loadConfig({})).to.deep.equal({
      port: 3000, host: '127.0.0.1', publicUrl: null, allowedHosts: [], databaseUrl: 'sqlite:./data/sextant.sqlite', demoCatalog: 'auto',
      discoveryRateLimit: 120, mcpRateLimit: 600, registryRateLimit: 3000, pageRateLimit: 120, trustProxyHops: 0, rateLimitIpv6Prefix: 64, mcpAllowedOrigins: [], monitorInterval: 0, shutdownGrace: 20, workers: 1, metricsPort: 9464, metricsHost: '127.0.0.1', answerCacheMb: 128, netAllowPrivate: [], proxyRateLimit: 20, proxyDeadline: 20, assessmentLimit: 10, assessmentDailyCap: 1000,
      rdapBootstrapUrl: 'https://data.iana.org/rdap/dns.json', catalogPolicy: null, watchlistToken: null, readAccess: 'open', logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({ PORT: '8080', HOST: '0.0.0.0', DATABASE_URL: 'sqlite:/tmp/x.sqlite', DEMO_CATALOG: 'off', DISCOVERY_RATE_LIMIT: '0', PAGE_RATE_LIMIT: '0', RATE_LIMIT_IPV6_PREFIX: '56', TRUST_PROXY_HOPS: '2', LOG_LEVEL: 'debug', MCP_ALLOWED_ORIGINS: 'https://a.example.com, http://localhost:5173' });
    expect(config).to.include({ port: 8080, host: '0.0.0.0', demoCatalog: 'off', discoveryRateLimit: 0, pageRateLimit: 0, rateLimitIpv6Prefix: 56, trustProxyHops: 2, logLevel: 'debug' });
    expect(config.mcpAllowedOrigins).to.deep.equal(['https://a.example.com', 'http://localhost:5173']);
    expect(Object.isFrozen(config)).to.equal(true);
    expect(loadConfig({ PROXY_DEADLINE: '5' }).proxyDeadline).to.equal(5);
    expect(() => loadConfig({ PROXY_DEADLINE: '0' })).to.throw(/PROXY_DEADLINE/);
    expect(loadConfig({ SHUTDOWN_GRACE: '0' }).shutdownGrace).to.equal(0);
    expect(() => loadConfig({ SHUTDOWN_GRACE: '3601' })).to.throw(/SHUTDOWN_GRACE/);
    expect(loadConfig({ ANSWER_CACHE_MB: '512' }).answerCacheMb).to.equal(512);
    expect(loadConfig({ CATALOG_POLICY: ' /etc/sextant/policy.yaml ' }).catalogPolicy).to.equal('/etc/sextant/policy.yaml');
    expect(() => loadConfig({ ANSWER_CACHE_MB: '0' })).to.throw(/ANSWER_CACHE_MB/);
    expect(loadConfig({ READ_ACCESS: 'token' }).readAccess).to.equal('token');
    expect(() => loadConfig({ READ_ACCESS: 'tokens' })).to.throw(/READ_ACCESS/);
  });

  it('reports every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: '80a', DISCOVERY_RATE_LIMIT: '-5', DEMO_CATALOG: 'yes', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', TRUST_PROXY_HOPS: '1.5', MCP_ALLOWED_ORIGINS: 'https://ok.example.com,javascript:alert(1)', NET_ALLOW_PRIVATE: '127.0.0.1/32,not-a-cidr', MONITOR_INTERVAL: 'soon', PUBLIC_URL: 'ftp://x', ALLOWED_HOSTS: 'ok.example.com,bad/host', PAGE_RATE_LIMIT: 'lots', RATE_LIMIT_IPV6_PREFIX: '129', METRICS_PORT: '70000', METRICS_HOST: 'a b' });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.split(' ')[0]);
    expect(problems).to.have.members(['PORT', 'DISCOVERY_RATE_LIMIT', 'DEMO_CATALOG', 'LOG_LEVEL', 'DATABASE_URL', 'TRUST_PROXY_HOPS', 'MCP_ALLOWED_ORIGINS', 'NET_ALLOW_PRIVATE', 'MONITOR_INTERVAL', 'PUBLIC_URL', 'ALLOWED_HOSTS', 'PAGE_RATE_LIMIT', 'RATE_LIMIT_IPV6_PREFIX', 'METRICS_PORT', 'METRICS_HOST']);
  });

  it('reads PUBLIC_URL as an origin and ALLOWED_HOSTS as a list', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://Sextant.Example.com/', ALLOWED_HOSTS: 'api.example.org, lb.example.org:8080' });
    expect(config.publicUrl).to.equal('https://sextant.example.com');
    expect(config.allowedHosts).to.deep.equal(['api.example.org', 'lb.example.org:8080']);
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:8080' }).publicUrl).to.equal('http://127.0.0.1:8080');
    for (const bad of ['sextant.example.com', 'https://sextant.example.com/api', 'https://user:pw@sextant.example.com', 'https://sextant.example.com/?x=1', 'ws://sextant.example.com']) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).to.throw(/PUBLIC_URL/);
    }
    for (const bad of ['https://a.example.com', 'a.example.com:99999', 'a b']) {
      expect(() => loadConfig({ ALLOWED_HOSTS: bad }), bad).to.throw(/ALLOWED_HOSTS/);
    }
  });

  it('accepts a PostgreSQL URL as well as a SQLite path', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://app@db.internal:5432/sextant' }).databaseUrl).to.equal('postgres://app@db.internal:5432/sextant');
    expect(loadConfig({ DATABASE_URL: 'postgresql://app@db.internal/sextant' }).databaseUrl).to.equal('postgresql://app@db.internal/sextant');
    expect(() => loadConfig({ DATABASE_URL: 'postgres:/missing-slashes' })).to.throw(/DATABASE_URL/);
  });

  it('does not print a database password', () => {
    try {
      loadConfig({ DATABASE_URL: 'mysql://app:s3cret@db/x' });
    } catch (err) {
      expect((err as Error).message).not.to.contain('s3cret');
    }
  });
});
