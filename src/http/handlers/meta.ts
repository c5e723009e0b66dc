/** Handlers of the `meta` tag: the contract itself, liveness and readiness. */
import type { components } from '../../../generated/openapi.js';
import type { ReadModel } from '../../read/read-model.js';
import type { Store } from '../../store/index.js';
import type { OpenApiDocument } from '../../contract.js';
import type { HandlerMap } from '../operation.js';

type Checks = components['schemas']['Readiness']['checks'];

export function metaHandlers(document: OpenApiDocument, store: Store, read: Pick<ReadModel, 'searchCoverage'>, stopping: () => boolean = () => false): Pick<HandlerMap, 'getOpenApiDocument' | 'getHealth' | 'getReadiness'> {
  return {
    getOpenApiDocument: async () => ({ status: 200, body: document }),
    getHealth: async () => ({ status: 200, body: { status: 'ok' } }),
    getReadiness: async () => {
      const [stored, integrity] = await Promise.all([store.check(), store.integrity()]);
      const checks: Checks = { ...stored, integrity: integrity.state };
      const reason = stopping() ? 'The service is stopping: it finishes the requests it has begun and takes no new ones.' : notReadyReason(checks, integrity.problems.length);
      if (reason !== null) return { status: 503, body: { status: 'not_ready', checks, reason } };
      const [servers, search] = await Promise.all([store.catalog.countServers(), read.searchCoverage()]);
      return { status: 200, body: { status: 'ready', checks, servers, search } };
    },
  };
}

/** Why the service is not ready, for the operator who reads /readyz (the log has the details); null when it is. */
function notReadyReason(checks: Checks, problems: number): string | null {
  if (checks.database !== 'ok') return 'The database does not answer.';
  if (checks.integrity === 'corrupt') {
    return `The database file is damaged: the integrity check at start found ${problems === 1 ? 'a problem' : `${problems} problems`} (the service's log says which). Restore it from a backup.`;
  }
  if (checks.integrity === 'error') return "The database file's integrity could not be checked at start; the service's log says why.";
  if (checks.migrations === 'pending') return 'Database migrations are pending: run `sextant migrate`, or restart the service, which applies them.';
  if (checks.migrations === 'error') return 'The database migrations could not be read.';
  return null;
}
