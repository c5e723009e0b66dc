/** The service configuration tests run with: every limit off, RDAP on a dead loopback port; each test overrides what it is about. */
import type { ServiceConfig } from '../../src/compose.js';

export type ConfigOverrides = { readonly [K in keyof ServiceConfig]?: ServiceConfig[K] | undefined };

export function testServiceConfig(databaseUrl: string, overrides: ConfigOverrides = {}): ServiceConfig {
  const given = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return {
    host: '127.0.0.1',
    publicUrl: null,
    allowedHosts: [],
    databaseUrl,
    discoveryRateLimit: 0,
    mcpRateLimit: 0,
    registryRateLimit: 0,
    pageRateLimit: 0,
    trustProxyHops: 0,
    rateLimitIpv6Prefix: 64,
    mcpAllowedOrigins: ['http://localhost:5173'],
    netAllowPrivate: [],
    proxyRateLimit: 0,
    proxyDeadline: 20,
    assessmentLimit: 0,
    assessmentDailyCap: 0,
    rdapBootstrapUrl: 'http://127.0.0.1:9/rdap.json',
    ...given,
  };
}
