/** Handlers of the `tools` tag: searchTools, getTool. */
import type { ReadModel } from '../../read/read-model.js';
import type { HandlerMap } from '../operation.js';

export function toolHandlers(read: ReadModel): Pick<HandlerMap, 'searchTools' | 'getTool'> {
  return {
    searchTools: async ({ query, signal }) => ({ status: 200, body: await read.searchTools(query, signal) }),
    getTool: async ({ path }) => ({ status: 200, body: await read.getTool(path.id) }),
  };
}
