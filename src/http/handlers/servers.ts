/** Handlers of the `servers` tag: searchServers, getServer. */
import type { RegistryService } from '../../registry/registry-service.js';
import type { HandlerMap } from '../operation.js';

export function serverHandlers(registry: RegistryService): Pick<HandlerMap, 'searchServers' | 'getServer'> {
  return {
    searchServers: async ({ query }) => ({ status: 200, body: await registry.searchServers(query) }),
    getServer: async ({ path }) => ({ status: 200, body: await registry.getServer(path.id) }),
  };
}
