/** The composition root's wiring: config → store → services → app, shared by the CLI and tests. */
import type Koa from 'koa';
import { createApp } from './app.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { createRegistryService, type RegistryService } from './registry/registry-service.js';
import { createStore, type Store } from './store/index.js';

export interface Service {
  readonly store: Store;
  readonly registry: RegistryService;
  readonly app: Koa;
}

/** Opens and migrates the store, builds the services and the app. */
export async function createService(config: Pick<Config, 'databaseUrl' | 'discoveryRateLimit' | 'trustProxyHops' | 'mcpAllowedOrigins'>, logger: Logger): Promise<Service> {
  const store = createStore(config.databaseUrl);
  try {
    await store.migrate();
    const registry = createRegistryService(store.catalog);
    const app = await createApp({ config, store, registry, logger });
    return { store, registry, app };
  } catch (err) {
    await store.close();
    throw err;
  }
}
