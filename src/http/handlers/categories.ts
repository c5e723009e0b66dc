/** Handlers of the `categories` tag: listCategories. */
import type { ReadModel } from '../../read/read-model.js';
import type { HandlerMap } from '../operation.js';

export function categoryHandlers(read: ReadModel): Pick<HandlerMap, 'listCategories'> {
  return {
    listCategories: async () => ({ status: 200, body: await read.listCategories() }),
  };
}
