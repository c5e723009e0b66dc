/** Handlers of the registry API's writes (`registry` tag): publishing and status, through the publish service. */
import type { PublishService } from '../../publish/publish-service.js';
import type { HandlerMap } from '../operation.js';

export function registryPublishHandlers(publisher: PublishService): Pick<HandlerMap, 'registryPublish' | 'registryUpdateVersionStatus' | 'registryUpdateServerStatus'> {
  return {
    registryPublish: async ({ body, headers, client }) => ({ status: 200, body: await publisher.publish({ authorization: headers.authorization, client }, body) }),
    registryUpdateVersionStatus: async ({ path, body, headers, client }) => ({
      status: 200, body: await publisher.setVersionStatus({ authorization: headers.authorization, client }, path.serverName, path.version, body),
    }),
    registryUpdateServerStatus: async ({ path, body, headers, client }) => ({
      status: 200, body: await publisher.setServerStatus({ authorization: headers.authorization, client }, path.serverName, body),
    }),
  };
}
