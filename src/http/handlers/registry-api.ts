/** Handlers of the `registry` tag: the MCP Registry API (`/v0.1`), through the read model. */
import type { ReadModel } from '../../read/read-model.js';
import type { HandlerMap } from '../operation.js';

export function registryApiHandlers(read: ReadModel): Pick<HandlerMap, 'registryListServers' | 'registryListVersions' | 'registryGetVersion'> {
  return {
    registryListServers: async ({ query }) => ({ status: 200, body: await read.registryServers(query) }),
    registryListVersions: async ({ path, query }) => ({ status: 200, body: await read.registryVersions(path.serverName, query.include_deleted ?? false) }),
    registryGetVersion: async ({ path, query }) => ({ status: 200, body: await read.registryVersion(path.serverName, path.version, query.include_deleted ?? false) }),
  };
}
