/** The bundled demo catalog (official server.json format, written for this project). */
import demoCatalog from '../demo/demo-catalog.json' with { type: 'json' };
import type { CatalogPolicy } from '../catalog/catalog-policy.js';
import type { Store } from '../store/index.js';
import { ingest, type IngestSummary } from './ingest-service.js';

/** Loads the demo catalog when the catalog is empty; returns null when it was not needed. */
export async function loadDemoCatalogIfEmpty(store: Store, policy: CatalogPolicy | null = null): Promise<IngestSummary | null> {
  if ((await store.catalog.countServers()) > 0) return null;
  return ingest(store, [{ file: 'demo-catalog.json', text: JSON.stringify(demoCatalog), source: 'demo' }], { policy });
}
