/** Handlers of the `servers` tag: searchServers, getServer. */
import type { ReadModel } from '../../read/read-model.js';
import type { HandlerMap } from '../operation.js';

export function serverHandlers(read: ReadModel): Pick<HandlerMap, 'searchServers' | 'getServer'> {
  return {
    searchServers: async ({ query, signal }) => ({ status: 200, body: await read.searchServers(query, signal) }),
    getServer: async ({ path }) => ({ status: 200, body: await read.getServer(path.id) }),
  };
}
