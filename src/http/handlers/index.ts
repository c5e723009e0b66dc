/** The handler map: every operation of the contract, checked at compile time. */
import type { AccessTokens, Audit } from '../../auth/access-tokens.js';
import type { CatalogPolicy } from '../../catalog/catalog-policy.js';
import type { AssessmentService } from '../../assessments/assessment-service.js';
import type { McpServer } from '../../mcp/server.js';
import type { McpTransportOptions } from '../../mcp/transport.js';
import type { ProxyService } from '../../proxy/proxy-service.js';
import type { ReadModel } from '../../read/read-model.js';
import type { Store } from '../../store/index.js';
import type { OpenApiDocument } from '../../contract.js';
import type { WebPages } from '../../web/web-pages.js';
import type { PortfolioPages } from '../../web/portfolio-pages.js';
import type { WatchlistPages } from '../../web/watchlist-pages.js';
import type { WatchlistService } from '../../watchlists/watchlist-service.js';
import type { HandlerMap } from '../operation.js';
import { assessmentHandlers } from './assessments.js';
import { categoryHandlers } from './categories.js';
import { evidenceHandlers } from './evidence.js';
import { legacyHandlers } from './legacy.js';
import { loginHandlers, type LoginOptions } from './login.js';
import { mcpHandlers } from './mcp.js';
import { metaHandlers } from './meta.js';
import { pageHandlers } from './pages.js';
import { proxyHandlers } from './proxy.js';
import { preflightHandlers } from './preflight.js';
import { registryApiHandlers } from './registry-api.js';
import { registryPublishHandlers } from './registry-publish.js';
import { createPublishService } from '../../publish/publish-service.js';
import { serverHandlers } from './servers.js';
import { toolHandlers } from './tools.js';
import { watchlistHandlers } from './watchlists.js';

export interface HandlerDeps {
  readonly read: ReadModel;
  readonly store: Store;
  readonly document: OpenApiDocument;
  readonly mcp: McpServer;
  readonly mcpOptions: McpTransportOptions;
  readonly proxy: ProxyService;
  readonly assessments: AssessmentService;
  readonly pages: WebPages;
  readonly portfolioPages: PortfolioPages;
  readonly watchlists: WatchlistService;
  readonly watchlistPages: WatchlistPages;
  /** Whether the service is stopping (`/readyz` says so). */
  readonly stopping: () => boolean;
  /** Who a bearer token names, and the log every write leaves (src/auth). */
  readonly access: AccessTokens;
  readonly audit: Audit;
  /** The catalog policy in force (CATALOG_POLICY), or null: publishing refuses what it does not admit. */
  readonly policy: () => CatalogPolicy | null;
  /** Whether reads need a token, and whether the session cookie is Secure. */
  readonly login: LoginOptions;
}

export function createHandlers(deps: HandlerDeps): HandlerMap {
  return {
    ...serverHandlers(deps.read),
    ...registryApiHandlers(deps.read),
    ...registryPublishHandlers(createPublishService({ store: deps.store, access: deps.access, policy: deps.policy })),
    ...toolHandlers(deps.read),
    ...evidenceHandlers(deps.read),
    ...categoryHandlers(deps.read),
    ...legacyHandlers(deps.read),
    ...metaHandlers(deps.document, deps.store, deps.read, deps.stopping),
    ...preflightHandlers(deps.document),
    ...mcpHandlers(deps.mcp, deps.mcpOptions),
    ...proxyHandlers(deps.proxy),
    ...assessmentHandlers(deps.assessments),
    ...pageHandlers(deps.pages, deps.portfolioPages),
    ...watchlistHandlers(deps.watchlists, deps.watchlistPages),
    ...loginHandlers(deps.access, deps.pages, deps.login),
  } satisfies HandlerMap;
}
