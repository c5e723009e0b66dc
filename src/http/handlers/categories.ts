/** Handlers of the `categories` tag: listCategories. */
import type { RegistryService } from '../../registry/registry-service.js';
import type { HandlerMap } from '../operation.js';

export function categoryHandlers(registry: RegistryService): Pick<HandlerMap, 'listCategories'> {
  return {
    listCategories: async () => ({ status: 200, body: await registry.listCategories() }),
  };
}
