/** Handlers of the `proxy` tag: proxyConnect, proxyInvoke. */
import type { ProxyService } from '../../proxy/proxy-service.js';
import type { HandlerMap } from '../operation.js';

export function proxyHandlers(proxy: ProxyService): Pick<HandlerMap, 'proxyConnect' | 'proxyInvoke'> {
  return {
    proxyConnect: async ({ body }) => ({ status: 200, body: await proxy.connect(body) }),
    proxyInvoke: async ({ body }) => ({ status: 200, body: await proxy.invoke(body) }),
  };
}
