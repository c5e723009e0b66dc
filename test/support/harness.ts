/**
 * Starts the real service on port 0 on a fresh database (SQLite, or PostgreSQL under
 * `npm run test:pg`: see database.ts), and gives tests a typed
 * client (openapi-fetch over the generated paths) whose every response is checked against the
 * contract: a mismatch fails the test.
 */
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import createClient, { type Client } from 'openapi-fetch';
import { pino } from 'pino';
import type { paths } from '../../generated/openapi.js';
import { createService, type Service, type ServiceOptions } from '../../src/compose.js';
import { loadDemoCatalogIfEmpty } from '../../src/ingest/demo.js';
import { ingest } from '../../src/ingest/ingest-service.js';
import type { IngestInput } from '../../src/ingest/detect.js';
import type { NetClientOptions } from '../../src/net/index.js';
import type { Logger } from '../../src/logger.js';
import type { ProbeRunner, WorkerOptions } from '../../src/assessments/worker.js';
import { contractViolations } from './contract.js';
import { freshDatabase, type TestDatabase } from './database.js';
import { testServiceConfig } from './service-config.js';

export const silentLogger = pino({ level: 'silent' });

export interface Harness {
  readonly baseUrl: string;
  readonly service: Service;
  readonly database: TestDatabase;
  readonly client: Client<paths>;
  /** A raw request (for inputs the typed client refuses); its response is contract-checked too. */
  request(path: string, init?: RequestInit): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly demo?: boolean;
  readonly inputs?: readonly IngestInput[];
  readonly discoveryRateLimit?: number;
  readonly mcpRateLimit?: number;
  readonly registryRateLimit?: number;
  readonly pageRateLimit?: number;
  readonly trustProxyHops?: number;
  readonly rateLimitIpv6Prefix?: number;
  readonly mcpAllowedOrigins?: readonly string[];
  /** PUBLIC_URL and ALLOWED_HOSTS: the hosts the app answers to beside loopback ones. */
  readonly publicUrl?: string;
  readonly allowedHosts?: readonly string[];
  readonly netAllowPrivate?: readonly string[];
  readonly proxyRateLimit?: number;
  /** PROXY_DEADLINE, in seconds. */
  readonly proxyDeadline?: number;
  /** Overrides for the guarded network client (e.g. short timeouts, an injected resolver). */
  readonly net?: Partial<NetClientOptions>;
  readonly assessmentLimit?: number;
  readonly assessmentDailyCap?: number;
  /** Run assessment workers, with these probes (default: none run). */
  readonly probe?: ProbeRunner;
  /** Reuse a database (a restart); the caller drops it. */
  readonly database?: TestDatabase;
  /** Worker settings (e.g. a short lease). */
  readonly workerOptions?: WorkerOptions;
  /** The service's logger (default: silent). */
  readonly logger?: Logger;
  /** WATCHLIST_TOKEN (default: unset, watchlists off). */
  readonly watchlistToken?: string;
  /** Watchlist schedule and webhook settings (a short tick, a quick retry, a moved clock). */
  readonly watchlists?: ServiceOptions['watchlists'];
  /** READ_ACCESS (default: open). */
  readonly readAccess?: 'open' | 'token';
  /** The catalog policy in force, as serve follows CATALOG_POLICY (default: none). */
  readonly policy?: ServiceOptions['policy'];
}

/** Fetch that fails loudly when a response breaks the contract. */
export function contractFetch(baseUrl: string): (input: Request | string | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      /* not JSON: the contract check reports the media type */
    }
    const url = new URL(request.url, baseUrl);
    const violations = await contractViolations({ method: request.method, path: url.pathname, status: response.status, headers: response.headers, body });
    if (violations.length > 0) throw new Error(`${request.method} ${url.pathname}${url.search} → ${response.status} breaks the contract:\n  ${violations.join('\n  ')}`);
    return response;
  };
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const database = options.database ?? (await freshDatabase());
  const { discoveryRateLimit, mcpRateLimit, registryRateLimit, pageRateLimit, trustProxyHops, rateLimitIpv6Prefix, mcpAllowedOrigins, publicUrl, allowedHosts, netAllowPrivate, proxyRateLimit, proxyDeadline, assessmentLimit, assessmentDailyCap } = options;
  const service = await createService(
    testServiceConfig(database.url, { discoveryRateLimit, mcpRateLimit, registryRateLimit, pageRateLimit, trustProxyHops, rateLimitIpv6Prefix, mcpAllowedOrigins, publicUrl, allowedHosts, netAllowPrivate, proxyRateLimit, proxyDeadline, assessmentLimit, assessmentDailyCap, watchlistToken: options.watchlistToken, readAccess: options.readAccess }),
    options.logger ?? silentLogger,
    {
      net: options.net ?? {}, workers: options.probe !== undefined, ...(options.probe ? { probe: options.probe } : {}),
      ...(options.workerOptions ? { workerOptions: options.workerOptions } : {}),
      ...(options.watchlists ? { watchlists: options.watchlists } : {}),
      ...(options.policy ? { policy: options.policy } : {}),
    },
  );
  if (options.demo ?? true) await loadDemoCatalogIfEmpty(service.store);
  if (options.inputs?.length) await ingest(service.store, options.inputs);
  const server: HttpServer = service.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const checkedFetch = contractFetch(baseUrl);
  return {
    baseUrl,
    service,
    database,
    client: createClient<paths>({ baseUrl, fetch: (request: Request) => checkedFetch(request) }),
    async request(path, init) {
      const response = await checkedFetch(`${baseUrl}${path}`, init);
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        /* leave as text */
      }
      return { status: response.status, headers: response.headers, body };
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await service.close();
      if (!options.database) await database.drop();
    },
  };
}

/** A fixture file from test/fixtures as an ingest input. */
export function fixture(name: string): IngestInput {
  const file = new URL(`../fixtures/${name}`, import.meta.url);
  return { file: name, text: readFileSync(file, 'utf8') };
}
