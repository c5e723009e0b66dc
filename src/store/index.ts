/** The store as the rest of the service sees it: one object built once in the composition root. */
import { RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import { readContentGeneration, syncTaxonomy, withCatalogWriter, type CatalogWriter } from './catalog-writer.js';
import { dialectOf, isPoolTimeout, openDatabase, openSideConnection, type Db } from './db.js';
import { migrate, migrationsPending } from './migrate.js';
import { createMonitorStore, type MonitorStore } from './monitor-store.js';
import { createAssessmentStore, type AssessmentStore } from './assessment-store.js';
import { createCatalogLookups, type CatalogLookups } from './catalog-lookups.js';
import { createRegistryVersions, type RegistryVersions } from './registry-versions.js';
import { checkIntegrity, type Integrity } from './integrity.js';
import { SCHEMA } from './migrations/index.js';
import { createSearchSnapshots } from './search-snapshots.js';
import { createSearchSource, type CatalogSearchSource } from './search-reads.js';
import { databaseLimiter, type Limiter } from './rate-limits.js';

export interface RateLimiterSpec {
  /** Names the policy's counters (several policies share one table). */
  readonly keyPrefix: string;
  readonly points: number;
  /** Window, in seconds. */
  readonly duration: number;
  /**
   * Counts that must outlive a restart (the assessment quotas): in the database on SQLite too.
   * Elsewhere SQLite counts in memory: a write per request on its one connection would queue
   * every read behind it, and a per-minute count lost in a restart costs a minute's allowance.
   */
  readonly durable?: boolean;
}

/** The catalog's lookups (searches go through the engines of src/search). */
export type CatalogReader = CatalogLookups;

export interface Store {
  readonly catalog: CatalogReader;
  /** What the search engines (src/search) read the catalog through. */
  readonly searchSource: CatalogSearchSource;
  readonly monitor: MonitorStore;
  /** What the MCP Registry API serves (src/registry-api). */
  readonly registryVersions: RegistryVersions;
  readonly assessments: AssessmentStore;
  /** Runs `work` in one transaction; a throw rolls everything back. */
  withCatalogWriter<T>(work: (writer: CatalogWriter) => Promise<T>): Promise<T>;
  /** Applies pending migrations and syncs the category taxonomy. */
  migrate(): Promise<void>;
  /**
   * Changes whenever the catalog's content may have changed (servers, tools, categories; not
   * monitor checks): at once after a write through this store, and within 250 ms after another
   * process or instance committed one (the catalog_generation row). `fresh` reads the row now.
   */
  contentGeneration(fresh?: boolean): Promise<string>;
  /**
   * A rate limiter whose counters live where every instance sees them: in the database on
   * PostgreSQL (with this process's memory as insurance if the database fails); on SQLite in the
   * database when `durable`, else in this process's memory (one instance).
   */
  rateLimiter(spec: RateLimiterSpec): Limiter;
  /** Whether the database answers a query now (on PostgreSQL, on the store's side connection, not behind the pool's queue). */
  answers(): Promise<boolean>;
  /** The database file's integrity, checked once (the first call starts it; later ones share it). */
  integrity(): Promise<Integrity>;
  /** Whether a failure is a wait for a connection that ran out of time (the database is busy). */
  busy(err: unknown): boolean;
  /** Readiness: whether the database answers and no migration is pending. */
  check(): Promise<{ database: 'ok' | 'error'; migrations: 'ok' | 'pending' | 'error' }>;
  close(): Promise<void>;
}

/** How long a read of the catalog's generation stays fresh. */
const GENERATION_TTL_MS = 250;

export interface StoreOptions {
  /** SQLite's page cache in MiB (default 64, for ingest). */
  readonly pageCacheMb?: number;
}

export function createStore(databaseUrl: string, options: StoreOptions = {}): Store {
  const db: Db = openDatabase(databaseUrl, { pageCacheMb: options.pageCacheMb });
  const dialect = dialectOf(db);
  // On PostgreSQL the generation is read on a connection of its own: behind the pool's queue of
  // searches, every request (kept answers too) would wait for it each time it goes stale. SQLite
  // reads it on its one connection (db.ts: openSideConnection).
  const side = openSideConnection(databaseUrl);
  const generationDb = side ?? db;
  // Writes through this store, seen at once; other processes' through the committed row.
  let writes = 0;
  let committed = '0';
  let checkedAt = 0;
  /** The last read's failure, repeated without a query until it is stale (an outage costs one read per TTL). */
  let failure: { error: unknown; at: number } | null = null;
  const readCommitted = async (): Promise<void> => {
    try {
      committed = await readContentGeneration(generationDb);
      checkedAt = Date.now();
      failure = null;
    } catch (error) {
      failure = { error, at: Date.now() };
      throw error;
    }
  };
  /**
   * The read under way when the last one has gone stale: requests arriving meanwhile share it
   * (under load, each would otherwise queue its own query for the one connection).
   */
  let reading: Promise<void> | null = null;
  const contentGeneration = async (fresh = false): Promise<string> => {
    // A fresh read starts after the call, so it sees every commit made before it.
    if (fresh) await readCommitted();
    else if (Date.now() - checkedAt > GENERATION_TTL_MS) {
      if (failure && Date.now() - failure.at <= GENERATION_TTL_MS) throw failure.error;
      await (reading ??= readCommitted().finally(() => (reading = null)));
    }
    return `${writes}:${committed}`;
  };
  // Index snapshots are kept per committed generation, which every instance and process shares
  // (the `writes:` part of `contentGeneration` counts this process's own writes).
  // On SQLite a snapshot is read on a connection of its own (a small page cache: it reads each
  // piece once), not behind the searches queued on the pool's one connection.
  // (A database in memory is one connection's alone: there the pool's is the only one.)
  const ownReader = dialect === 'sqlite' && databaseUrl !== 'sqlite::memory:';
  const snapshots = createSearchSnapshots(db, SCHEMA, ownReader ? () => openDatabase(databaseUrl, { pageCacheMb: 2 }) : undefined);
  let integrity: Promise<Integrity> | null = null;
  const committedPart = (generation: string): string => generation.slice(generation.indexOf(':') + 1);
  const searchSource = createSearchSource(db, {
    find: (generation, fingerprint) => snapshots.find(committedPart(generation), fingerprint),
    save: (generation, fingerprint, snapshot) => snapshots.save(committedPart(generation), fingerprint, snapshot),
  });
  return {
    catalog: createCatalogLookups(db),
    searchSource,
    contentGeneration,
    monitor: createMonitorStore(db),
    registryVersions: createRegistryVersions(db),
    assessments: createAssessmentStore(db),
    withCatalogWriter: (work) => withCatalogWriter(db, work, (wrote) => {
      if (wrote) writes += 1;
    }),
    rateLimiter({ durable, ...spec }) {
      const memory = new RateLimiterMemory({ ...spec });
      if (dialect === 'postgres') return new RateLimiterPostgres({ ...spec, storeClient: db, storeType: 'knex', tableName: 'rate_limits', tableCreated: true, insuranceLimiter: memory });
      return durable ? databaseLimiter(db, spec, memory) : memory;
    },
    async migrate() {
      await migrate(db, databaseUrl, () => syncTaxonomy(db));
    },
    busy: isPoolTimeout,
    async answers() {
      try {
        await generationDb.raw('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    integrity: () => (integrity ??= checkIntegrity(db, databaseUrl)),
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
    async close() {
      await side?.destroy();
      await db.destroy();
    },
  };
}

export type { CatalogLookups } from './catalog-lookups.js';
export type { Limiter } from './rate-limits.js';
export type { CatalogSearchSource } from './search-reads.js';
export type { CatalogWriter, CatalogIndex, ServerWrite, SourceRow, StoredSource } from './catalog-writer.js';
export { sourceKey } from './catalog-writer.js';
export { databaseFailure } from './db.js';
export type { Integrity } from './integrity.js';
export { serverRowsOf, type ServerRows } from './catalog-rows.js';
export type { Assessment, AssessmentStatus, AssessmentStore, NewAssessment, Observation } from './assessment-store.js';
export type { EndpointCheck, EndpointState, MonitorStore, RemoteEndpoint } from './monitor-store.js';
