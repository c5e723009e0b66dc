/**
 * The Koa app, its middlewares in the order a request meets them: one request per connection
 * at a time, compression of every response, request id and the error middleware (problem+json),
 * the Host check, CORS, the pages' edge (headers, same-origin forms, error pages), rate limits,
 * bodies, and dispatch to the handlers (src/http/dispatch.ts).
 */
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import type { Config } from './config.js';
import { scrubString, scrubUrl } from './catalog/secrets.js';
import { AppError } from './errors.js';
import { createHandlers } from './http/handlers/index.js';
import { loadContract, type OpenApiDocument } from './contract.js';
import { requestBodies } from './http/bodies.js';
import { compression } from './http/compression.js';
import { createHostCheck } from './http/host-check.js';
import { corsReads } from './http/cors.js';
import { createDispatcher } from './http/dispatch.js';
import { sendProblem } from './http/problem.js';
import { clientKeys } from './http/client-address.js';
import { oneRequestPerConnection } from './http/pipelining.js';
import { rateLimit } from './http/rate-limit.js';
import { webEdge } from './http/web-edge.js';
import { createAccessTokens, createAudit, type AccessTokens, type Audit } from './auth/access-tokens.js';
import type { CatalogPolicy } from './catalog/catalog-policy.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics/metrics.js';
import { createMcpServer } from './mcp/server.js';
import type { ProxyService } from './proxy/proxy-service.js';
import type { AssessmentService } from './assessments/assessment-service.js';
import { createWatchlistService, type WatchlistService } from './watchlists/watchlist-service.js';
import { watchlistGate } from './http/watchlist-gate.js';
import { readAccess } from './http/read-access.js';
import { createWatchlistPages } from './web/watchlist-pages.js';
import type { ReadModel } from './read/read-model.js';
import type { Store } from './store/index.js';
import { loadAssets } from './web/assets.js';
import { isPagePath } from './web/security.js';
import { createWebPages } from './web/web-pages.js';
import { createPortfolioPages } from './web/portfolio-pages.js';

export interface AppDeps {
  readonly config: Pick<Config, 'host' | 'publicUrl' | 'allowedHosts' | 'discoveryRateLimit' | 'mcpRateLimit' | 'registryRateLimit' | 'pageRateLimit' | 'trustProxyHops' | 'rateLimitIpv6Prefix' | 'mcpAllowedOrigins' | 'proxyRateLimit'> & Partial<Pick<Config, 'readAccess'>>;
  readonly store: Store;
  readonly read: ReadModel;
  readonly proxy: ProxyService;
  readonly assessments: AssessmentService;
  /** Watchlists and the token their routes need (null: off, the default when absent). */
  readonly watchlists?: { readonly service: WatchlistService; readonly token: string | null };
  readonly logger: Logger;
  /** Where requests and MCP calls are counted, when metrics are on. */
  readonly metrics?: Metrics | null;
  readonly document?: OpenApiDocument;
  /** Whether the service is stopping: it answers what it has begun, on connections that then close. */
  readonly stopping?: () => boolean;
  /** The catalog policy in force (none when absent). */
  readonly policy?: () => CatalogPolicy | null;
  /** Access tokens and the audit log (made from the store when absent). */
  readonly access?: AccessTokens;
  readonly audit?: Audit;
}

interface State {
  requestId: string;
  /** The contract's operation the request was routed to (dispatch.ts sets it). */
  operation?: string;
  /** The name of the access token the request came with, when reads need one (read-access.ts). */
  caller?: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The REST API's routes, both route sets (assessments have their own public limit). */
const API = /^\/api(?!\/v1\/assessments)(\/|$)/;
/** The MCP endpoint and the registry API: each surface has a budget of its own (docs/limits.md). */
const MCP = /^\/mcp\/?$/;
const REGISTRY = /^\/v0\.1\//;
/** The proxy, which opens outbound connections: a tighter limit on top of discovery's. */
const PROXY = /^\/api\/v1\/proxy\//;
/** The pages' static files, which the page limit does not count (a page loads several). */
const ASSETS = /^\/assets\//;

export async function createApp(deps: AppDeps): Promise<Koa<State>> {
  const document = deps.document ?? loadContract();
  const metrics = deps.metrics ?? null;
  const mcp = createMcpServer({ read: deps.read, assessments: deps.assessments, document, logger: deps.logger, version: document.info.version, ...(metrics ? { onToolCall: metrics.mcpCall } : {}) });
  const mcpOptions = { allowedOrigins: deps.config.mcpAllowedOrigins, publicOrigin: deps.config.publicUrl };
  const hostAllowed = createHostCheck(deps.config);
  const assets = loadAssets();
  const readMode = deps.config.readAccess ?? 'open';
  // "Sign out" is in every page's header while reads need a token, whoever reads: a page is then
  // served only past read-access.ts (a session, or a program's Bearer token, for which the form is
  // harmless), so the bytes the read model keeps for all suit each reader; they name no token.
  const frame = { signOut: readMode === 'token' };
  const pages = createWebPages({ read: deps.read, assessments: deps.assessments, assets, frame });
  const watchlists = deps.watchlists ?? { service: createWatchlistService({ store: deps.store.watchlists, assessments: deps.assessments }), token: null };
  const stopping = deps.stopping ?? (() => false);
  const access = deps.access ?? createAccessTokens({ store: deps.store.access, limiter: deps.store.rateLimiter });
  const audit = deps.audit ?? createAudit(deps.store.access);
  const handlers = createHandlers({ read: deps.read, store: deps.store, document, mcp, mcpOptions, proxy: deps.proxy, assessments: deps.assessments, watchlists: watchlists.service, watchlistPages: createWatchlistPages(watchlists.service, assets, watchlists.token, frame), pages, portfolioPages: createPortfolioPages(deps.assessments, assets, frame), stopping, access, audit, policy: deps.policy ?? (() => null), login: { mode: readMode, secure: deps.config.publicUrl?.startsWith('https:') ?? false } });
  const clientOf = clientKeys({ trustProxyHops: deps.config.trustProxyHops, ipv6Prefix: deps.config.rateLimitIpv6Prefix });
  const dispatch = await createDispatcher(document, handlers, { unvalidated: ['postMcp'], clientOf });
  const app = new Koa<State>();
  app.proxy = deps.config.trustProxyHops > 0;
  app.silent = true;

  app.use(oneRequestPerConnection());
  // While stopping, no connection is kept for another request: each closes after its answer.
  app.use(async (ctx, next) => {
    await next();
    if (stopping()) ctx.set('Connection', 'close');
  });
  app.use(compression());
  app.use(requestIdAndErrors(deps.logger, clientOf, metrics));
  // Before anything else answers, on every route: a Host this deployment does not answer to is DNS rebinding.
  app.use(async (ctx, next) => {
    const host = ctx.req.headers.host;
    if (!hostAllowed(host, ctx.req.socket.localPort)) {
      throw new AppError('host_not_allowed', `This service does not answer to Host ${JSON.stringify(host ?? '')}; an operator names the hosts it answers to with PUBLIC_URL or ALLOWED_HOSTS.`);
    }
    return next();
  });
  app.use(corsReads());
  app.use(webEdge(pages, deps.logger, deps.config.publicUrl));
  const limiter = deps.store.rateLimiter;
  app.use(rateLimit({ policy: 'discovery', perMinute: deps.config.discoveryRateLimit, clientOf, applies: (path) => API.test(path), limiter }));
  app.use(rateLimit({ policy: 'mcp', perMinute: deps.config.mcpRateLimit, clientOf, applies: (path) => MCP.test(path), limiter }));
  app.use(rateLimit({ policy: 'registry', perMinute: deps.config.registryRateLimit, clientOf, applies: (path) => REGISTRY.test(path), limiter }));
  app.use(rateLimit({ policy: 'pages', perMinute: deps.config.pageRateLimit, clientOf, applies: (path) => isPagePath(path) && !ASSETS.test(path), limiter }));
  app.use(rateLimit({ policy: 'proxy', perMinute: deps.config.proxyRateLimit, clientOf, applies: (path) => PROXY.test(path), limiter }));
  app.use(readAccess({ mode: readMode, access, pages, clientOf }));
  app.use(watchlistGate(watchlists.token));
  app.use(requestBodies());
  app.use(dispatch);
  return app;
}

/**
 * Names each request (its caller's id when it sent a usable one), turns every error into
 * problem+json, logs the request in one line at `info` (its id, operation, target with
 * credentials taken out, status, time and client) and counts it in the metrics.
 */
function requestIdAndErrors(logger: Logger, clientOf: (ctx: Koa.Context) => string, metrics: Metrics | null): Koa.Middleware<State> {
  return async (ctx, next) => {
    const inbound = ctx.get('x-request-id');
    ctx.state.requestId = REQUEST_ID.test(inbound) ? inbound : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    const started = performance.now();
    try {
      await next();
    } catch (err) {
      const error = toAppError(err);
      if (error.code === 'internal_error') logger.error({ err, requestId: ctx.state.requestId }, 'request failed');
      sendProblem(ctx, error, ctx.state.requestId);
    }
    metrics?.request(ctx.state.operation ?? null, ctx.method, ctx.status, (performance.now() - started) / 1000);
    if (logger.isLevelEnabled('info')) {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      logger.info({ requestId: ctx.state.requestId, operation: ctx.state.operation ?? null, method: ctx.method, target: loggedTarget(ctx.originalUrl), status: ctx.status, ms, client: clientOf(ctx), ...(ctx.state.caller ? { caller: ctx.state.caller } : {}) }, 'request');
    }
  };
}

const LOGGED_ORIGIN = 'http://request';

/** A request's path and query as logged: credential parameters and credential-shaped text taken out. */
function loggedTarget(url: string): string {
  const scrubbed = scrubString(scrubUrl(`${LOGGED_ORIGIN}${url}`));
  return scrubbed.startsWith(LOGGED_ORIGIN) ? scrubbed.slice(LOGGED_ORIGIN.length) : scrubbed;
}

function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('internal_error', 'Something went wrong on our side. Quote the request id if you report it.');
}
