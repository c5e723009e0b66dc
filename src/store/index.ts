/** The store as the rest of the service sees it: one object built once in the composition root. */
import { createCatalogReader, type CatalogReader } from './catalog-reader.js';
import { syncTaxonomy, withCatalogWriter, type CatalogWriter } from './catalog-writer.js';
import { migrate, migrationsPending, openDatabase, type Db } from './db.js';
import { createMonitorStore, type MonitorStore } from './monitor-store.js';
import { createAssessmentStore, type AssessmentStore } from './assessment-store.js';

export interface Store {
  readonly catalog: CatalogReader;
  readonly monitor: MonitorStore;
  readonly assessments: AssessmentStore;
  /** Runs `work` in one transaction; a throw rolls everything back. */
  withCatalogWriter<T>(work: (writer: CatalogWriter) => Promise<T>): Promise<T>;
  /** Applies pending migrations and syncs the category taxonomy. */
  migrate(): Promise<void>;
  /** Readiness: whether the database answers and no migration is pending. */
  check(): Promise<{ database: 'ok' | 'error'; migrations: 'ok' | 'pending' | 'error' }>;
  close(): Promise<void>;
}

export function createStore(databaseUrl: string): Store {
  const db: Db = openDatabase(databaseUrl);
  return {
    catalog: createCatalogReader(db),
    monitor: createMonitorStore(db),
    assessments: createAssessmentStore(db),
    withCatalogWriter: (work) => withCatalogWriter(db, work),
    async migrate() {
      await migrate(db);
      await syncTaxonomy(db);
    },
    async check() {
      try {
        await db.raw('SELECT 1');
      } catch {
        return { database: 'error', migrations: 'error' };
      }
      try {
        return { database: 'ok', migrations: (await migrationsPending(db)) ? 'pending' : 'ok' };
      } catch {
        return { database: 'ok', migrations: 'error' };
      }
    },
    close: () => db.destroy(),
  };
}

export type { CatalogReader, ServerSearch, ToolSearch, Page } from './catalog-reader.js';
export type { CatalogWriter, CatalogIndex, SourceRow, StoredSource } from './catalog-writer.js';
export { sourceKey } from './catalog-writer.js';
export type { Assessment, AssessmentStatus, AssessmentStore, NewAssessment, Observation } from './assessment-store.js';
export type { EndpointCheck, EndpointState, MonitorStore, RemoteEndpoint } from './monitor-store.js';
