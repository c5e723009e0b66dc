/**
 * The links of the contract's Server: where the REST route set serves the server and searches
 * its tools. Every surface shows the same representation, so the read model adds them as a
 * server's answer is made; the services and the store know no URL.
 */
import type { CatalogServer } from '../catalog/catalog-entry.js';
import type { Server } from '../types.js';

export function withLinks(server: CatalogServer): Server {
  return {
    ...server,
    links: {
      self: `/api/v1/servers/${encodeURIComponent(server.id)}`,
      tools: `/api/v1/tools/search?q=${encodeURIComponent(server.name)}`,
    },
  };
}
