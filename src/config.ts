/**
 * Configuration: the only reader of `process.env`. Every variable is parsed and validated
 * once, at start; `loadConfig` reports every bad variable at once (DESIGN.md "Running it").
 */

import { availableParallelism } from 'node:os';
import { parseHost } from './net/host-names.js';
import { parseCidrList } from './net/address-policy.js';
import { ANSWER_CACHE_MB } from './read/answer-cache.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly port: number;
  /** The address to bind; on loopback only loopback `Host` headers are answered (DNS rebinding). */
  readonly host: string;
  /** The origin the deployment answers as (`https://sextant.example.com`), or null: its host is answered, and /mcp accepts it as an origin. */
  readonly publicUrl: string | null;
  /** More `Host` values answered: `name` (any port) or `name:port`. */
  readonly allowedHosts: readonly string[];
  readonly databaseUrl: string;
  readonly demoCatalog: 'auto' | 'off';
  /** REST API requests (`/api/…`, both route sets) per minute per client; 0 turns the limit off. */
  readonly discoveryRateLimit: number;
  /** `/mcp` requests per minute per client; 0 turns the limit off. */
  readonly mcpRateLimit: number;
  /** Registry API (`/v0.1`) requests per minute per client; 0 turns the limit off. */
  readonly registryRateLimit: number;
  /** Page requests per minute per client (static files aside); 0 turns the limit off. */
  readonly pageRateLimit: number;
  /** How many reverse proxies in front of us may set `X-Forwarded-For`. */
  readonly trustProxyHops: number;
  /** Every limit counts an IPv6 client by its network of this prefix length (IPv4 by its address). */
  readonly rateLimitIpv6Prefix: number;
  /** Browser origins allowed to call /mcp (`*` for any); requests without Origin are always allowed. */
  readonly mcpAllowedOrigins: readonly string[];
  /** Seconds between monitor passes in `serve`; 0 turns the monitor off. */
  readonly monitorInterval: number;
  /** MiB the read model keeps of answers and pages at most. */
  readonly answerCacheMb: number;
  /** The port Prometheus metrics are served on (`GET /metrics`); 0 turns metrics off. */
  readonly metricsPort: number;
  /** The address the metrics port is bound to: loopback unless an operator opens it. */
  readonly metricsHost: string;
  /** Server processes `serve` runs on its one port (`WORKERS`, `auto` for one per core). */
  readonly workers: number;
  /** Seconds `serve` gives the requests in flight to finish after SIGTERM or SIGINT. */
  readonly shutdownGrace: number;
  /** CIDRs the network guard lets through despite being private (tests, private deployments). */
  readonly netAllowPrivate: readonly string[];
  /** Proxy requests per minute per client; 0 turns the limit off. */
  readonly proxyRateLimit: number;
  /** Seconds one proxied call may take in all (initialize, then the request), every upstream request included. */
  readonly proxyDeadline: number;
  /** Assessments per hour per client; 0 turns the limit off. */
  readonly assessmentLimit: number;
  /** Assessments per day across all clients; 0 turns the cap off. */
  readonly assessmentDailyCap: number;
  /** The IANA RDAP bootstrap document the registration probe reads its servers from. */
  readonly rdapBootstrapUrl: string;
  /** The catalog policy file (CATALOG_POLICY): only servers it admits are kept; null admits every server. */
  readonly catalogPolicy: string | null;
  /** The bearer token every watchlist route needs; null turns watchlists off. */
  readonly watchlistToken: string | null;
  /** `token`: every read needs an access token with the `read` scope (a session cookie on pages); `open` (the default): none does. */
  readonly readAccess: 'open' | 'token';
  readonly logLevel: LogLevel;
}

/** Raised with every problem found, so an operator fixes them all in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Readonly<Record<string, string | undefined>>;

/** Reads settings from `env`, noting each malformed one in `problems` and giving its default instead. */
function envReader(env: Env, problems: string[]) {
  const text = (name: string, fallback: string): string => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? fallback : value.trim();
  };
  return {
    problems,
    text,
    list: (name: string): string[] => text(name, '').split(',').map((item) => item.trim()).filter(Boolean),
    integer(name: string, fallback: number, min: number, max: number, or = ''): number {
      const raw = text(name, String(fallback));
      if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
        problems.push(`${name} must be a whole number from ${min} to ${max}${or}, got "${raw}"`);
        return fallback;
      }
      return Number(raw);
    },
    oneOf<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
      const raw = text(name, fallback);
      const found = allowed.find((candidate) => candidate === raw);
      if (found === undefined) problems.push(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
      return found ?? fallback;
    },
  };
}
type EnvReader = ReturnType<typeof envReader>;

/** Where the catalog lives, and the address, origin and hosts the server answers as. */
function placesOf(read: EnvReader): Pick<Config, 'databaseUrl' | 'host' | 'publicUrl' | 'allowedHosts'> {
  const { problems } = read;
  const databaseUrl = read.text('DATABASE_URL', 'sqlite:./data/sextant.sqlite');
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(databaseUrl)) {
    problems.push(`DATABASE_URL must be sqlite:<path> or postgres://…, got "${redactUrl(databaseUrl)}"`);
  }
  const host = read.text('HOST', '127.0.0.1');
  if (!HOST_NAME.test(host)) problems.push(`HOST must be a host name or address, got "${host}"`);
  const publicUrl = readPublicUrl(read.text('PUBLIC_URL', ''), problems);
  const allowedHosts = read.list('ALLOWED_HOSTS');
  for (const entry of allowedHosts) {
    if (parseHost(entry) === null) problems.push(`ALLOWED_HOSTS must list host names or addresses, each with an optional :port, like sextant.internal.example:8080, got "${entry}"`);
  }
  return { databaseUrl, host, publicUrl, allowedHosts: Object.freeze(allowedHosts) };
}

/** Who may call /mcp from a browser, which private ranges outbound requests may reach, and where RDAP starts. */
function reachOf(read: EnvReader): Pick<Config, 'mcpAllowedOrigins' | 'netAllowPrivate' | 'rdapBootstrapUrl'> {
  const { problems } = read;
  const origins = read.list('MCP_ALLOWED_ORIGINS');
  for (const origin of origins) {
    if (origin !== '*' && !/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin)) {
      problems.push(`MCP_ALLOWED_ORIGINS must list origins like https://app.example.com (or *), got "${origin}"`);
    }
  }
  const allowPrivate = read.list('NET_ALLOW_PRIVATE');
  try {
    parseCidrList(allowPrivate);
  } catch (err) {
    problems.push(`NET_ALLOW_PRIVATE must be comma-separated CIDRs like 127.0.0.1/32: ${err instanceof Error ? err.message : String(err)}`);
  }
  const rdapBootstrapUrl = read.text('RDAP_BOOTSTRAP_URL', 'https://data.iana.org/rdap/dns.json');
  if (!/^https?:\/\/\S+$/.test(rdapBootstrapUrl)) problems.push(`RDAP_BOOTSTRAP_URL must be an http(s) URL, got "${rdapBootstrapUrl}"`);
  return { mcpAllowedOrigins: Object.freeze(origins), netAllowPrivate: Object.freeze(allowPrivate), rdapBootstrapUrl };
}

/** A host name or an address, as HOST and METRICS_HOST take them. */
const HOST_NAME = /^[A-Za-z0-9.:\-[\]]+$/;

/** Parses the environment into a frozen Config, or throws a ConfigError listing every problem. */
export function loadConfig(env: Env = process.env): Config {
  const read = envReader(env, []);
  const config: Config = {
    ...placesOf(read),
    ...reachOf(read),
    port: read.integer('PORT', 3000, 0, 65535),
    demoCatalog: read.oneOf('DEMO_CATALOG', 'auto', ['auto', 'off'] as const),
    discoveryRateLimit: read.integer('DISCOVERY_RATE_LIMIT', 120, 0, 1_000_000),
    pageRateLimit: read.integer('PAGE_RATE_LIMIT', 120, 0, 1_000_000),
    mcpRateLimit: read.integer('MCP_RATE_LIMIT', 600, 0, 1_000_000),
    registryRateLimit: read.integer('REGISTRY_RATE_LIMIT', 3000, 0, 1_000_000),
    trustProxyHops: read.integer('TRUST_PROXY_HOPS', 0, 0, 10),
    rateLimitIpv6Prefix: read.integer('RATE_LIMIT_IPV6_PREFIX', 64, 16, 128),
    monitorInterval: read.integer('MONITOR_INTERVAL', 0, 0, 604_800),
    shutdownGrace: read.integer('SHUTDOWN_GRACE', 20, 0, 3600),
    metricsPort: read.integer('METRICS_PORT', 9464, 0, 65535),
    workers: read.text('WORKERS', '1') === 'auto' ? availableParallelism() : read.integer('WORKERS', 1, 1, 64, ' or auto'),
    metricsHost: read.text('METRICS_HOST', '127.0.0.1'),
    answerCacheMb: read.integer('ANSWER_CACHE_MB', ANSWER_CACHE_MB, 1, 65_536),
    proxyRateLimit: read.integer('PROXY_RATE_LIMIT', 20, 0, 1_000_000),
    proxyDeadline: read.integer('PROXY_DEADLINE', 20, 1, 600),
    assessmentLimit: read.integer('ASSESSMENT_LIMIT', 10, 0, 1_000_000),
    assessmentDailyCap: read.integer('ASSESSMENT_DAILY_CAP', 1000, 0, 10_000_000),
    catalogPolicy: read.text('CATALOG_POLICY', '') || null,
    watchlistToken: readWatchlistToken(read.text('WATCHLIST_TOKEN', ''), read.problems),
    readAccess: read.oneOf('READ_ACCESS', 'open', ['open', 'token'] as const),
    logLevel: read.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
  };
  if (!HOST_NAME.test(config.metricsHost)) read.problems.push(`METRICS_HOST must be a host name or address, got "${config.metricsHost}"`);
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return Object.freeze(config);
}

/** PUBLIC_URL as an origin (`https://name[:port]`), or null when unset; a problem when it is not one. */
function readPublicUrl(raw: string, problems: string[]): string | null {
  if (raw === '') return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  const origin = url !== null && /^https?:$/.test(url.protocol) && url.username === '' && url.password === '' && url.pathname === '/' && url.search === '' && url.hash === '';
  if (url === null || !origin) {
    problems.push(`PUBLIC_URL must be the http(s) origin the service answers as, like https://sextant.example.com (no path), got "${raw}"`);
    return null;
  }
  return url.origin;
}

/** WATCHLIST_TOKEN, or null when unset; a short token is refused, as one a caller could guess. */
function readWatchlistToken(raw: string, problems: string[]): string | null {
  if (raw === '') return null;
  // The token is never echoed: a problem names only what is wrong with it.
  if (raw.length < 16 || /\s/.test(raw)) problems.push('WATCHLIST_TOKEN must be at least 16 characters without spaces (e.g. `openssl rand -base64 32`)');
  return raw;
}

/** Hides a password in a connection URL before it is printed. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');
}
