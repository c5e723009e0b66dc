/** The composition root's wiring: config → store → services → app, shared by the CLI and tests. */
import type Koa from 'koa';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { loadContract } from './http/openapi.js';
import type { Logger } from './logger.js';
import { createNetClient, type NetClient, type NetClientOptions } from './net/index.js';
import { createProxyService, type ProxyService } from './proxy/proxy-service.js';
import { createRegistryService, type RegistryService } from './registry/registry-service.js';
import { createStore, type Store } from './store/index.js';

export type ServiceConfig = Pick<Config, 'databaseUrl' | 'discoveryRateLimit' | 'trustProxyHops' | 'mcpAllowedOrigins' | 'netAllowPrivate' | 'proxyRateLimit'>;

export interface Service {
  readonly store: Store;
  readonly registry: RegistryService;
  readonly net: NetClient;
  readonly proxy: ProxyService;
  readonly app: Koa;
  /** The service's version, from the contract (`info.version`). */
  readonly version: string;
  close(): Promise<void>;
}

/** Opens and migrates the store, builds the services and the app. `net` overrides tune the guarded client (tests). */
export async function createService(config: ServiceConfig, logger: Logger, net: Partial<NetClientOptions> = {}): Promise<Service> {
  const store = createStore(config.databaseUrl);
  const client = createNetClient({ allowPrivate: config.netAllowPrivate, ...net });
  try {
    await store.migrate();
    const document = loadContract();
    const version = document.info.version;
    const registry = createRegistryService({ catalog: store.catalog, monitor: store.monitor });
    const proxy = createProxyService({ catalog: store.catalog, net: client, clientVersion: version });
    const app = await createApp({ config, store, registry, proxy, logger, document });
    return {
      store, registry, net: client, proxy, app, version,
      async close() {
        await client.close();
        await store.close();
      },
    };
  } catch (err) {
    await client.close();
    await store.close();
    throw err;
  }
}
