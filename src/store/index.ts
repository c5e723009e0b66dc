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
  /**
   * Changes whenever the catalog may have changed: after a write through this store, or after
   * another process committed to the database (SQLite's data_version, looked at every 250 ms).
   */
  generation(): Promise<string>;
  /** Readiness: whether the database answers and no migration is pending. */
  check(): Promise<{ database: 'ok' | 'error'; migrations: 'ok' | 'pending' | 'error' }>;
  close(): Promise<void>;
}

/** How long a read of SQLite's data_version stays fresh. */
const DATA_VERSION_TTL_MS = 250;

export function createStore(databaseUrl: string): Store {
  const db: Db = openDatabase(databaseUrl);
  let writes = 0;
  let dataVersion = 0;
  let checkedAt = 0;
  const wrote = <T>(work: Promise<T>): Promise<T> => work.finally(() => (writes += 1));
  const monitor = createMonitorStore(db);
  return {
    catalog: createCatalogReader(db),
    monitor: { ...monitor, recordCheck: (check, keep) => wrote(monitor.recordCheck(check, keep)) },
    assessments: createAssessmentStore(db),
    withCatalogWriter: (work) => wrote(withCatalogWriter(db, work)),
    async generation() {
      if (Date.now() - checkedAt > DATA_VERSION_TTL_MS) {
        const rows: Array<{ data_version: number }> = await db.raw('PRAGMA data_version');
        dataVersion = Number(rows[0]?.data_version ?? 0);
        checkedAt = Date.now();
      }
      return `${writes}:${dataVersion}`;
    },
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
