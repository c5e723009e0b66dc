/**
 * The older unversioned routes (tag `legacy`): the same services as `/api/v1`, plus
 * `Deprecation` (RFC 9745) and `Link: <successor>; rel="successor-version"` headers.
 */
import type { ReadModel } from '../../read/read-model.js';
import type { HandlerMap } from '../operation.js';

/** 2026-01-01T00:00:00Z, when `/api/v1` became the preferred route set. */
const DEPRECATED_AT = '@1767225600';

function deprecation(successor: string): Record<string, string> {
  return { Deprecation: DEPRECATED_AT, Link: `<${successor}>; rel="successor-version"` };
}

export function legacyHandlers(read: ReadModel): Pick<HandlerMap, 'legacySearch' | 'legacyListCategories' | 'legacyGetServerByDomain'> {
  return {
    legacySearch: async ({ query }) => ({
      status: 200,
      body: await read.searchServers(query),
      headers: deprecation('/api/v1/servers/search'),
    }),
    legacyListCategories: async () => ({
      status: 200,
      body: await read.listCategories(),
      headers: deprecation('/api/v1/categories'),
    }),
    legacyGetServerByDomain: async ({ path }) => {
      const server = await read.getServerByDomain(path.domain);
      return { status: 200, body: server, headers: deprecation(`/api/v1/servers/${encodeURIComponent(server.value.id)}`) };
    },
  };
}
