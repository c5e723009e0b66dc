/** Handlers for install instructions, trust evidence and comparison (tag `servers`). */
import type { RegistryService } from '../../registry/registry-service.js';
import type { HandlerMap } from '../operation.js';

export function evidenceHandlers(registry: RegistryService): Pick<HandlerMap, 'getInstall' | 'getTrust' | 'getStatus' | 'compareServers'> {
  return {
    getStatus: async ({ path }) => ({ status: 200, body: await registry.getStatus(path.id) }),
    getInstall: async ({ path, query }) => ({ status: 200, body: await registry.getInstall(path.id, query.client) }),
    getTrust: async ({ path }) => ({ status: 200, body: await registry.getTrust(path.id) }),
    compareServers: async ({ query }) => ({ status: 200, body: await registry.compareServers(query.ids) }),
  };
}
