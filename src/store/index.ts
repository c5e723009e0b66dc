/** The store as the rest of the service sees it: one object built once in the composition root. */
import { withCatalogWriter, type CatalogWriter } from './catalog-writer.js';
import { dialectOf, openDatabase, openSideConnection, poolUse, type Db } from './db.js';
import { committedPart, pollGeneration } from './generation-poller.js';
import { migrate } from './migrate.js';
import { createMonitorStore, type MonitorStore } from './monitor-store.js';
import { createAssessmentStore, type AssessmentStore } from './assessment-store.js';
import { createWatchlistStore, type WatchlistStore } from './watchlist-store.js';
import { createAccessStore, type AccessStore } from './access-store.js';
import { createCatalogLookups, type CatalogLookups } from './catalog-lookups.js';
import { createCurationRows, type CurationRows } from './curation-rows.js';
import { createRegistryVersions, type RegistryVersions } from './registry-versions.js';
import { createPublishedVersions, type PublishedReads } from './published-versions.js';
import { SCHEMA } from './migrations/index.js';
import { createRateLimiter, type Limiter, type RateLimiterSpec } from './rate-limiters.js';
import { createReadiness, type Readiness } from './readiness.js';
import { createSearchSnapshots, type IndexSnapshots } from './search-snapshots.js';
import { createSearchSource, type CatalogSearchSource } from './search-reads.js';
import { syncTaxonomy } from './taxonomy-sync.js';

/** The catalog's lookups (searches go through the engines of src/search). */
export type CatalogReader = CatalogLookups;

export interface Store extends Readiness {
  readonly catalog: CatalogReader;
  /** What the search engines (src/search) read the catalog through. */
  readonly searchSource: CatalogSearchSource;
  readonly monitor: MonitorStore;
  /** Every stored server as the catalog policy reads it (src/catalog/catalog-policy.ts), a page at a time. */
  readonly eachPolicySubject: CurationRows['eachPolicySubject'];
  /** What the MCP Registry API serves (src/registry-api). */
  readonly registryVersions: RegistryVersions;
  /** The versions published to this registry (`POST /v0.1/publish`), the publisher's source of truth. */
  readonly published: PublishedReads;
  readonly assessments: AssessmentStore;
  readonly watchlists: WatchlistStore;
  /** Access tokens, browser sessions and the audit log (src/auth). */
  readonly access: AccessStore;
  /** Runs `work` in one transaction; a throw rolls everything back. */
  withCatalogWriter<T>(work: (writer: CatalogWriter) => Promise<T>): Promise<T>;
  /** Applies pending migrations and syncs the category taxonomy. */
  migrate(): Promise<void>;
  /**
   * Changes whenever the catalog's content may have changed (servers, tools, categories; not
   * monitor checks): at once after a write through this store, and within 250 ms after another
   * process or instance committed one (the catalog_generation row). `readNow` reads the row now.
   */
  contentGeneration(readNow?: boolean): Promise<string>;
  /** A rate limiter whose counters every instance sees (rate-limiters.ts). */
  rateLimiter(spec: RateLimiterSpec): Limiter;
  /** The connection pool's use now (metrics). */
  poolUse(): { used: number; free: number; pending: number; max: number };
  close(): Promise<void>;
}

export interface StoreOptions {
  /** SQLite's page cache in MiB (default 64, for ingest). */
  readonly pageCacheMb?: number;
}

export function createStore(databaseUrl: string, options: StoreOptions = {}): Store {
  const db: Db = openDatabase(databaseUrl, { pageCacheMb: options.pageCacheMb });
  // Small reads (the generation, whether the database answers) take a connection of their own on
  // PostgreSQL, not a place behind the pool's queue of searches; SQLite reads them on its one.
  const side = openSideConnection(databaseUrl);
  const generation = pollGeneration(side ?? db);
  return {
    ...createReadiness(db, side ?? db, databaseUrl),
    catalog: createCatalogLookups(db),
    searchSource: createSearchSource(db, snapshotsOf(db, databaseUrl)),
    contentGeneration: (readNow) => generation.current(readNow),
    monitor: createMonitorStore(db),
    registryVersions: createRegistryVersions(db),
    published: createPublishedVersions(db),
    eachPolicySubject: createCurationRows(db).eachPolicySubject,
    assessments: createAssessmentStore(db),
    watchlists: createWatchlistStore(db),
    access: createAccessStore(db),
    withCatalogWriter: (work) => withCatalogWriter(db, work, (wrote) => {
      if (wrote) generation.noteWrite();
    }),
    rateLimiter: (spec) => createRateLimiter(db, spec),
    poolUse: () => poolUse(db),
    migrate: () => migrate(db, databaseUrl, () => syncTaxonomy(db)),
    async close() {
      await side?.destroy();
      await db.destroy();
    },
  };
}

/**
 * Index snapshots, saved per committed generation (which every instance shares; the `writes:`
 * part counts this process's own). On a SQLite file a snapshot is read on a connection of its own
 * with a small page cache, not behind the searches queued on the pool's one connection.
 */
function snapshotsOf(db: Db, databaseUrl: string): IndexSnapshots {
  const ownReader = dialectOf(db) === 'sqlite' && databaseUrl !== 'sqlite::memory:';
  const snapshots = createSearchSnapshots(db, SCHEMA, ownReader ? () => openDatabase(databaseUrl, { pageCacheMb: 2 }) : undefined);
  return {
    find: (generation, fingerprint) => snapshots.find(committedPart(generation), fingerprint),
    save: (generation, fingerprint, snapshot) => snapshots.save(committedPart(generation), fingerprint, snapshot),
  };
}

export type { CatalogLookups } from './catalog-lookups.js';
export type { Limiter, RateLimiterSpec } from './rate-limiters.js';
export type { CatalogSearchSource } from './search-reads.js';
export type { CatalogWriter } from './catalog-writer.js';
export type { PublishedVersionRow, PublishedReads, PublishedVersions, PublishedWrites } from './published-versions.js';
export type { ServerWrite } from './server-writes.js';
export { sourceKey, type SourceRow, type StoredSource } from './write-lookups.js';
export { databaseFailure } from './db.js';
export type { Integrity } from './integrity.js';
export { serverRowsOf, type ServerRows } from './entry-rows.js';
export type { Assessment, AssessmentStatus, AssessmentStore, BatchItem, HistoryEntry, NewAssessment, Observation, StoredAssessment, StoredBatch } from './assessment-store.js';
export type { DeliveryAttempt, DeliveryState, DeliveryUpdate, StoredRun, StoredWatchlist, WatchlistStore } from './watchlist-store.js';
export type { AccessStore, AuditEntry, StoredToken } from './access-store.js';
export type { EndpointCheck, EndpointState, MonitorStore, RemoteEndpoint } from './monitor-store.js';
