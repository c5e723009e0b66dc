/**
 * The in-memory engine's indexes over time: those of one content generation, loaded from its
 * snapshot or built from the catalog, and built again (in the background) when a search asks at
 * another. Snapshots are saved in the catalog's database for the next start and other instances.
 */
import { buildServers, buildTools, type BuildSource } from './memory-build.js';
import { indexesFromSnapshot, snapshotAsBuilt, snapshotFingerprint, snapshotOf } from './index-snapshot.js';
import { indexBytes, indexesOf, type MemoryIndexes, type ServerDocs, type ToolDocs } from './memory-index.js';
import type { SearchCoverage } from './engine.js';
import type { SearchSource } from './search-source.js';
import { Unicode61 } from './unicode61.js';

export interface MemoryEngineEvents {
  /** Indexes ready for a generation: built from the catalog, or loaded from a snapshot of them. */
  built(stats: { generation: string; servers: number; tools: number; milliseconds: number; megabytes: number; from: 'catalog' | 'snapshot'; serversMs?: number; keptMs?: number }): void;
  failed(err: unknown): void;
  /** A snapshot could not be read (the indexes are built instead) or kept (the next start builds). */
  snapshotFailed(err: unknown, doing: 'read' | 'keep'): void;
}

/** Builds attempted in a row before giving up, when the catalog keeps changing under them. */
const BUILD_ATTEMPTS = 3;

/**
 * The catalog's content generation as committed, read now: only to know that a build read one
 * catalog from start to end. The generation a search is answered at comes from the read model.
 */
export type CommittedGeneration = () => Promise<string>;

/**
 * The engine's indexes: those of one content generation, loaded from its snapshot or built from
 * the catalog again (in the background) when a search asks at another.
 */
export class CurrentIndexes {
  private readonly tokenizer = new Unicode61();
  private ready: MemoryIndexes | null = null;
  private building: Promise<MemoryIndexes | null> | null = null;
  /** The running build's indexes once they answer (before their snapshot is saved), or null if it fails. */
  private answering: Promise<MemoryIndexes | null> = Promise.resolve(null);
  private closed = false;

  constructor(
    private readonly source: SearchSource,
    private readonly committed: CommittedGeneration,
    private readonly events: Partial<MemoryEngineEvents>,
  ) {}

  /** The indexes if they were built for `generation`; otherwise null, and a rebuild starts. */
  at(generation: string): MemoryIndexes | null {
    if (this.closed) return null;
    if (this.ready?.generation === generation) return this.ready;
    void this.start();
    return null;
  }

  coverage(generation: string): SearchCoverage {
    if (this.closed || this.ready?.generation !== generation) return 'sql';
    return this.ready.toolTerms === null ? 'servers' : 'memory';
  }

  async warm(): Promise<boolean> {
    return !this.closed && (await this.start()) !== null;
  }

  async serving(): Promise<boolean> {
    if (this.closed) return false;
    void this.start();
    return (await this.answering) !== null;
  }

  close(): void {
    this.closed = true;
    this.ready = null;
  }

  /** The build under way, or a new one. */
  private start(): Promise<MemoryIndexes | null> {
    if (!this.building) {
      let answer: (indexes: MemoryIndexes | null) => void = () => undefined;
      this.answering = new Promise((resolve) => (answer = resolve));
      this.building = this.build(answer)
        .catch((err: unknown) => {
          if (!this.closed) this.events.failed?.(err);
          return null;
        })
        .then((indexes) => {
          answer(indexes);
          return indexes;
        })
        .finally(() => (this.building = null));
    }
    return this.building;
  }

  /**
   * Loads the snapshot of the current generation, or builds until a build starts and ends at the
   * same generation, tells `onReady` as soon as server searches answer, then saves a snapshot of
   * the whole index.
   */
  private async build(onReady: (indexes: MemoryIndexes) => void): Promise<MemoryIndexes | null> {
    for (let attempt = 0; attempt < BUILD_ATTEMPTS && !this.closed; attempt += 1) {
      const before = await this.committed();
      if (this.ready?.generation === before && this.ready.toolTerms !== null) return this.ready;
      // A stale index is never used again: let it go before the new one takes the memory.
      this.ready = null;
      const started = performance.now();
      let serversMs: number | undefined;
      const fromSnapshot = await this.loadSnapshot(before);
      const indexes = fromSnapshot ?? (await this.fromCatalog(before, (serving) => {
        this.ready = serving;
        onReady(serving);
        serversMs = Math.round(performance.now() - started);
      }));
      if (!indexes) continue;
      const { servers, tools } = indexes;
      this.ready = indexesOf(before, servers, tools);
      onReady(this.ready);
      const keptMs = fromSnapshot ? undefined : await this.saveSnapshot(before, servers, tools);
      this.events.built?.({
        generation: before, servers: servers.text.size, tools: tools.text.size, milliseconds: Math.round(performance.now() - started),
        megabytes: Math.round((indexBytes(servers) + indexBytes(tools)) / 1e6), from: fromSnapshot ? 'snapshot' : 'catalog',
        ...(serversMs === undefined ? {} : { serversMs }), ...(keptMs === undefined ? {} : { keptMs }),
      });
      return this.ready;
    }
    return null;
  }

  /** The indexes of `generation` from its snapshot, if one is saved (another instance, or an earlier start, built them). */
  private async loadSnapshot(generation: string): Promise<BuiltIndexes | null> {
    try {
      const stored = await this.source.snapshots?.find(generation, snapshotFingerprint());
      if (!stored) return null;
      try {
        return await indexesFromSnapshot(stored, this.tokenizer);
      } finally {
        await stored.close();
      }
    } catch (err) {
      if (!this.closed) this.events.snapshotFailed?.(err, 'read');
      return null;
    }
  }

  /** Saves a snapshot of indexes just built, for the next start and for the other instances; how long it took (ms). */
  private async saveSnapshot(generation: string, servers: ServerDocs, tools: ToolDocs): Promise<number> {
    const started = performance.now();
    try {
      await this.source.snapshots?.save(generation, snapshotFingerprint(), snapshotOf(servers, tools, this.tokenizer));
    } catch (err) {
      if (!this.closed) this.events.snapshotFailed?.(err, 'keep');
    }
    return Math.round(performance.now() - started);
  }

  /**
   * The indexes of `generation` read from the catalog, servers first: once they are indexed
   * `onServers` is told, so server searches answer from memory while the tools are indexed and
   * tool searches answer from SQL. Null when the catalog moved on meanwhile (a write makes the build moot).
   */
  private async fromCatalog(generation: string, onServers: (indexes: MemoryIndexes) => void): Promise<BuiltIndexes | null> {
    const from: BuildSource = { sql: this.source.sql, classify: this.source.classify, tokenizer: this.tokenizer, live: () => !this.closed };
    const moved = async (): Promise<boolean> => this.closed || (await this.committed()) !== generation;
    const servers = await buildServers(from);
    if (await moved()) return null;
    onServers(indexesOf(generation, servers, null));
    const tools = await buildTools(from);
    return (await moved()) ? null : { servers, tools };
  }
}

/** The two indexes of one generation. */
interface BuiltIndexes {
  readonly servers: ServerDocs;
  readonly tools: ToolDocs;
}

/**
 * Builds the indexes of the catalog `source` reads, at `generation`, and saves their snapshot
 * there. Ingest calls it inside its write's transaction (src/ingest/ingest-service.ts), so that
 * the instances following the write load the indexes once it commits, instead of each building
 * its own while SQL answers their searches.
 */
export async function saveIndexSnapshot(source: SearchSource, generation: string): Promise<void> {
  const { snapshots } = source;
  if (!snapshots) throw new Error('this search source keeps no index snapshots');
  const tokenizer = new Unicode61();
  const from: BuildSource = { sql: source.sql, classify: source.classify, tokenizer, live: () => true };
  await snapshots.save(generation, snapshotFingerprint(), snapshotAsBuilt(() => buildServers(from), () => buildTools(from), tokenizer));
}
