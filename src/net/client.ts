/**
 * The guarded outbound HTTP client: the only way Sextant opens connections (STYLE.md habit 10).
 * Every connection, redirect hops included, goes through the guarded connector; responses are
 * size-capped and time-bounded; every failure is a `NetError`. Nothing here logs.
 */
import { Agent, type Dispatcher } from 'undici';
import { createAddressPolicy, type AddressPolicy } from './address-policy.js';
import { lookupAll } from './checked-address.js';
import { toNetError } from './error-mapping.js';
import { NetError } from './errors.js';
import { createGuardedConnector, type Resolve } from './guarded-connector.js';
import { parseHttpUrl } from './http-url.js';
import { checkDeclaredLength, readCappedBody } from './read-body.js';
import { isRedirect, redirectTarget, redirectedHop, type Hop } from './redirects.js';

/** How a client is built. Tests inject `resolve` and allow loopback through `allowPrivate`. */
export interface NetClientOptions {
  /** CIDRs allowed although not globally routable; empty in production. */
  readonly allowPrivate: readonly string[];
  /** Injectable DNS; default `dns.promises.lookup(host, { all: true, verbatim: true })`. */
  readonly resolve?: (hostname: string) => Promise<readonly string[]>;
  /** Bound on the lookup and on the TCP/TLS handshake, each; default 5 000 ms. */
  readonly connectTimeoutMs?: number;
  /** Total per request, redirects and body included; default 15 000 ms. */
  readonly timeoutMs?: number;
  /** Default 2 MiB. */
  readonly maxResponseBytes?: number;
  /** Default 3. */
  readonly maxRedirects?: number;
  /** Extra TLS trust, e.g. a generated test CA; absent in production (the system trust store). */
  readonly tls?: { readonly ca?: string | readonly string[] };
}

/** One outbound request; `timeoutMs` and `maxResponseBytes` override the client's defaults. */
export interface NetRequest {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  /** 'follow' (default) follows same-host redirects; 'manual' returns the first response, 3xx included. */
  readonly redirect?: 'follow' | 'manual';
  /** The caller's own bound (a deadline over several requests): aborting it ends the request, with its reason when that is a NetError. */
  readonly signal?: AbortSignal;
}

/** The final response, after redirects, with the whole (capped) body. */
export interface NetResponse {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ', '. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  /** Final URL after redirects. */
  readonly url: string;
  /** The checked peer address of the connection that answered. */
  readonly remoteAddress: string;
}

/**
 * The guarded client. `request` rejects with a `NetError` for every failure of the request itself;
 * only a negative or non-finite per-request limit (a programming error) is a RangeError.
 */
export interface NetClient {
  request(req: NetRequest): Promise<NetResponse>;
  /** Aborts requests in flight; later requests reject with `connect_failed`. */
  close(): Promise<void>;
}

interface Settings {
  readonly policy: AddressPolicy;
  readonly resolve: Resolve;
  readonly connectTimeoutMs: number;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly maxRedirects: number;
  readonly tls: NetClientOptions['tls'];
}

interface Exchange {
  readonly agent: Agent;
  readonly first: URL;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly followRedirects: boolean;
  readonly addresses: ReadonlyMap<string, string>;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number, got ${value}`);
  return value;
}

function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function send(exchange: Exchange, hop: Hop): Promise<Dispatcher.ResponseData> {
  return exchange.agent.request({
    origin: hop.url.origin,
    path: `${hop.url.pathname}${hop.url.search}`,
    method: hop.method,
    headers: hop.headers,
    body: hop.body,
    signal: exchange.signal,
    headersTimeout: exchange.timeoutMs,
    bodyTimeout: exchange.timeoutMs,
  });
}

async function follow(exchange: Exchange, start: Hop): Promise<NetResponse> {
  let hop = start;
  for (let redirects = 0; ; redirects += 1) {
    const res = await send(exchange, hop);
    const location = res.headers.location;
    if (exchange.followRedirects && isRedirect(res.statusCode) && typeof location === 'string') {
      if (redirects >= exchange.maxRedirects) throw new NetError('too_many_redirects', `more than ${exchange.maxRedirects} redirects`);
      hop = redirectedHop(hop, res.statusCode, redirectTarget(location, hop.url, exchange.first));
      await res.body.dump();
      continue;
    }
    checkDeclaredLength(res.headers['content-length'], exchange.maxBytes);
    const body = await readCappedBody(res.body, exchange.maxBytes);
    const remoteAddress = exchange.addresses.get(hop.url.origin) ?? '';
    return { status: res.statusCode, headers: flattenHeaders(res.headers), body, url: hop.url.href, remoteAddress };
  }
}

async function run(settings: Settings, agents: Set<Agent>, req: NetRequest): Promise<NetResponse> {
  const parsed = parseHttpUrl(req.url);
  if ('problem' in parsed) throw new NetError('invalid_url', `invalid URL: ${parsed.problem}`);
  const timeoutMs = nonNegative('timeoutMs', req.timeoutMs, settings.timeoutMs);
  const maxBytes = nonNegative('maxResponseBytes', req.maxResponseBytes, settings.maxResponseBytes);
  const addresses = new Map<string, string>();
  const connect = createGuardedConnector({ ...settings, onConnected: (origin, address) => addresses.set(origin, address) });
  const agent = new Agent({ connect });
  agents.add(agent);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new NetError('timeout', `no complete response within ${timeoutMs} ms`)), timeoutMs);
  const callerAbort = (): void => {
    const reason: unknown = req.signal?.reason;
    controller.abort(reason instanceof NetError ? reason : new NetError('timeout', 'aborted by the caller'));
  };
  if (req.signal?.aborted) callerAbort();
  else req.signal?.addEventListener('abort', callerAbort, { once: true });
  const { maxRedirects } = settings;
  const followRedirects = req.redirect !== 'manual';
  const exchange: Exchange = { agent, first: parsed.url, signal: controller.signal, timeoutMs, maxBytes, maxRedirects, followRedirects, addresses };
  try {
    return await follow(exchange, { url: parsed.url, method: req.method, headers: req.headers ?? {}, body: req.body });
  } catch (err) {
    throw toNetError(err, controller.signal);
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', callerAbort);
    agents.delete(agent);
    await agent.destroy().catch(() => undefined);
  }
}

/**
 * Builds the guarded client. Each `request` gets its own undici Agent (never the global
 * dispatcher, never an environment proxy) whose connector applies the address policy, so the
 * reported `remoteAddress` is exactly the peer that answered; the Agent is destroyed afterwards.
 * Throws on a bad `allowPrivate` entry or a negative limit.
 */
export function createNetClient(options: NetClientOptions): NetClient {
  const settings: Settings = {
    policy: createAddressPolicy(options.allowPrivate),
    resolve: options.resolve ?? lookupAll,
    connectTimeoutMs: nonNegative('connectTimeoutMs', options.connectTimeoutMs, 5_000),
    timeoutMs: nonNegative('timeoutMs', options.timeoutMs, 15_000),
    maxResponseBytes: nonNegative('maxResponseBytes', options.maxResponseBytes, 2 * 1024 * 1024),
    maxRedirects: nonNegative('maxRedirects', options.maxRedirects, 3),
    tls: options.tls,
  };
  const agents = new Set<Agent>();
  let closed = false;
  return {
    async request(req: NetRequest): Promise<NetResponse> {
      if (closed) throw new NetError('connect_failed', 'the client is closed');
      return run(settings, agents, req);
    },
    async close(): Promise<void> {
      closed = true;
      await Promise.all([...agents].map((agent) => agent.destroy().catch(() => undefined)));
    },
  };
}
