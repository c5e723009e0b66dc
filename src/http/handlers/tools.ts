/** Handlers of the `tools` tag: searchTools, getTool. */
import type { RegistryService } from '../../registry/registry-service.js';
import type { HandlerMap } from '../operation.js';

export function toolHandlers(registry: RegistryService): Pick<HandlerMap, 'searchTools' | 'getTool'> {
  return {
    searchTools: async ({ query }) => ({ status: 200, body: await registry.searchTools(query) }),
    getTool: async ({ path }) => ({ status: 200, body: await registry.getTool(path.id) }),
  };
}
