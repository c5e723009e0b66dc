/**
 * The Koa app: request id, one error middleware that turns everything into problem+json,
 * the rate limits of the discovery routes, the pages and the proxy, JSON bodies, and
 * openapi-backend dispatch to the handlers.
 */
import { randomUUID } from 'node:crypto';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import coBody from 'co-body';
import type { Config } from './config.js';
import { AppError } from './errors.js';
import { createHandlers } from './http/handlers/index.js';
import { loadContract, type OpenApiDocument } from './contract.js';
import { createHostCheck } from './http/host-check.js';
import { corsReads } from './http/cors.js';
import { createDispatcher } from './http/openapi.js';
import { sendProblem } from './http/problem.js';
import { clientKeys } from './http/client-address.js';
import { oneRequestPerConnection } from './http/pipelining.js';
import { rateLimit } from './http/rate-limit.js';
import type { Logger } from './logger.js';
import { createMcpServer } from './mcp/server.js';
import type { ProxyService } from './proxy/proxy-service.js';
import type { AssessmentService } from './assessments/assessment-service.js';
import type { ReadModel } from './read/read-model.js';
import type { Store } from './store/index.js';
import { loadAssets } from './web/assets.js';
import { webEdge } from './web/edge.js';
import { sameOriginForms } from './web/same-origin.js';
import { isPagePath } from './web/security.js';
import { createWebPages } from './web/web-pages.js';

export interface AppDeps {
  readonly config: Pick<Config, 'host' | 'publicUrl' | 'allowedHosts' | 'discoveryRateLimit' | 'pageRateLimit' | 'trustProxyHops' | 'rateLimitIpv6Prefix' | 'mcpAllowedOrigins' | 'proxyRateLimit'>;
  readonly store: Store;
  readonly read: ReadModel;
  readonly proxy: ProxyService;
  readonly assessments: AssessmentService;
  readonly logger: Logger;
  readonly document?: OpenApiDocument;
}

interface State {
  requestId: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** The discovery routes, which the rate limit covers: both route sets, the registry API and /mcp (assessments have their own public limit). */
const DISCOVERY = /^\/(api(?!\/v1\/assessments)(\/|$)|v0\.1\/|mcp\/?$)/;
/** The proxy, which opens outbound connections: a tighter limit on top of discovery's. */
const PROXY = /^\/api\/v1\/proxy\//;
/** The pages' static files, which the page limit does not count (a page loads several). */
const ASSETS = /^\/assets\//;
/** Where the body stays raw text: JSON-RPC answers a parse error itself. */
const RAW_BODY = /^\/mcp\/?$/;
/** Where the body is an HTML form (the assessment form's POST). */
const FORM_BODY = /^\/assess\/?$/;
/** Bytes of a request body at most. A number: the body readers would parse a string such as '256kb' on every request. */
const BODY_LIMIT = 256 * 1024;

export async function createApp(deps: AppDeps): Promise<Koa<State>> {
  const document = deps.document ?? loadContract();
  const mcp = createMcpServer({ read: deps.read, document, logger: deps.logger, version: document.info.version });
  const mcpOptions = { allowedOrigins: deps.config.mcpAllowedOrigins, publicOrigin: deps.config.publicUrl };
  const hostAllowed = createHostCheck(deps.config);
  const pages = createWebPages({ read: deps.read, assessments: deps.assessments, assets: loadAssets() });
  const handlers = createHandlers({ read: deps.read, store: deps.store, document, mcp, mcpOptions, proxy: deps.proxy, assessments: deps.assessments, pages });
  const clientOf = clientKeys({ trustProxyHops: deps.config.trustProxyHops, ipv6Prefix: deps.config.rateLimitIpv6Prefix });
  const dispatch = await createDispatcher(document, handlers, { unvalidated: ['postMcp'], clientOf });
  const app = new Koa<State>();
  app.proxy = deps.config.trustProxyHops > 0;
  app.silent = true;

  app.use(oneRequestPerConnection());
  app.use(async (ctx, next) => {
    const inbound = ctx.get('x-request-id');
    ctx.state.requestId = REQUEST_ID.test(inbound) ? inbound : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    const started = performance.now();
    try {
      await next();
    } catch (err) {
      const error = toAppError(err);
      if (error.code === 'internal_error') deps.logger.error({ err, requestId: ctx.state.requestId }, 'request failed');
      sendProblem(ctx, error, ctx.state.requestId);
    }
    deps.logger.debug({ requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) }, 'request');
  });
  // Before anything else answers, on every route: a Host this deployment does not answer to is DNS rebinding.
  app.use(async (ctx, next) => {
    const host = ctx.req.headers.host;
    if (!hostAllowed(host, ctx.req.socket.localPort)) {
      throw new AppError('host_not_allowed', `This service does not answer to Host ${JSON.stringify(host ?? '')}; an operator names the hosts it answers to with PUBLIC_URL or ALLOWED_HOSTS.`);
    }
    return next();
  });
  app.use(corsReads());
  app.use(webEdge(pages, deps.logger));
  app.use(sameOriginForms(deps.config.publicUrl));
  const limiter = deps.store.rateLimiter;
  app.use(rateLimit({ policy: 'discovery', perMinute: deps.config.discoveryRateLimit, clientOf, applies: (path) => DISCOVERY.test(path), limiter }));
  app.use(rateLimit({ policy: 'pages', perMinute: deps.config.pageRateLimit, clientOf, applies: (path) => isPagePath(path) && !ASSETS.test(path), limiter }));
  app.use(rateLimit({ policy: 'proxy', perMinute: deps.config.proxyRateLimit, clientOf, applies: (path) => PROXY.test(path), limiter }));
  app.use(async (ctx, next) => {
    if (ctx.method === 'POST' && RAW_BODY.test(ctx.path)) {
      try {
        ctx.request.body = await coBody.text(ctx, { limit: BODY_LIMIT, encoding: 'utf8' });
      } catch (err) {
        throw bodyError(err instanceof Error ? err : new Error(String(err)));
      }
    } else if (ctx.method === 'POST' && FORM_BODY.test(ctx.path) && ctx.is('application/x-www-form-urlencoded')) {
      try {
        ctx.request.body = await coBody.form(ctx, { limit: BODY_LIMIT });
      } catch (err) {
        throw bodyError(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return next();
  });
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: BODY_LIMIT,
      parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
      onError: (err) => {
        throw bodyError(err);
      },
    }),
  );
  app.use(dispatch);
  return app;
}

/** Errors from the body parser (http-errors from co-body) as AppErrors. */
function bodyError(err: Error): AppError {
  const status = 'status' in err ? Number(err.status) : 400;
  if (status === 413) return new AppError('payload_too_large', `The request body is larger than ${BODY_LIMIT / 1024} KiB.`);
  if (status === 415) return new AppError('unsupported_media_type', 'The request body must be UTF-8 JSON.');
  return new AppError('malformed_json', 'The request body is not valid JSON.');
}

function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('internal_error', 'Something went wrong on our side. Quote the request id if you report it.');
}
