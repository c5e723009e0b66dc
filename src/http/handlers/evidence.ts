/** Handlers for install instructions, trust evidence, tool history and comparison (tag `servers`). */
import type { ReadModel } from '../../read/read-model.js';
import type { HandlerMap } from '../operation.js';

export function evidenceHandlers(read: ReadModel): Pick<HandlerMap, 'getInstall' | 'getTrust' | 'getStatus' | 'getToolHistory' | 'compareServers'> {
  return {
    getStatus: async ({ path }) => ({ status: 200, body: await read.getStatus(path.id) }),
    getInstall: async ({ path, query }) => ({ status: 200, body: await read.getInstall(path.id, query.client) }),
    getTrust: async ({ path }) => ({ status: 200, body: await read.getTrust(path.id) }),
    getToolHistory: async ({ path }) => ({ status: 200, body: await read.getToolHistory(path.id) }),
    compareServers: async ({ query, signal }) => ({ status: 200, body: await read.compareServers(query.ids, signal) }),
  };
}
