/** Handlers of the `meta` tag: the contract itself, liveness and readiness. */
import type { ReadModel } from '../../read/read-model.js';
import type { Store } from '../../store/index.js';
import type { OpenApiDocument } from '../../contract.js';
import type { HandlerMap } from '../operation.js';

export function metaHandlers(document: OpenApiDocument, store: Store, read: Pick<ReadModel, 'searchCoverage'>): Pick<HandlerMap, 'getOpenApiDocument' | 'getHealth' | 'getReadiness'> {
  return {
    getOpenApiDocument: async () => ({ status: 200, body: document }),
    getHealth: async () => ({ status: 200, body: { status: 'ok' } }),
    getReadiness: async () => {
      const checks = await store.check();
      if (checks.database !== 'ok' || checks.migrations !== 'ok') return { status: 503, body: { status: 'not_ready', checks } };
      const [servers, search] = await Promise.all([store.catalog.countServers(), read.searchCoverage()]);
      return { status: 200, body: { status: 'ready', checks, servers, search } };
    },
  };
}
