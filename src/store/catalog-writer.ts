/**
 * The write side of the catalog, used by ingest inside one transaction: a failed run rolls
 * back and leaves the previous catalog untouched. Writes are batched (multi-row statements),
 * so a large catalog ingests in seconds.
 */
import type { Knex } from 'knex';
import type { CatalogEntry } from '../registry/catalog-entry.js';
import { TAXONOMY } from '../registry/taxonomy.js';
import type { SourceName } from '../types.js';
import { dialectOf, type Db } from './db.js';

export interface SourceRow {
  readonly source: SourceName;
  readonly key: string;
  readonly serverId: string;
  readonly recordHash: string;
}

/** Everything ingest needs to decide where a record belongs, loaded once per run. */
export interface CatalogIndex {
  /** `source\u0000key` → the source row. */
  readonly sources: Map<string, SourceRow>;
  /** merge key → server id. */
  readonly keys: Map<string, string>;
  /** server id → canonical name. */
  readonly servers: Map<string, string>;
}

export interface StoredSource {
  readonly source: SourceName;
  readonly key: string;
  readonly normalized: unknown;
}

export interface CatalogWriter {
  loadIndex(): Promise<CatalogIndex>;
  /** The stored normalized records of every source of these servers. */
  storedSources(serverIds: readonly string[]): Promise<Map<string, StoredSource[]>>;
  /** Content hashes of these servers as stored. */
  contentHashes(serverIds: readonly string[]): Promise<Map<string, string>>;
  saveSources(rows: ReadonlyArray<SourceRow & { record: unknown; normalized: unknown }>, now: string): Promise<void>;
  /** Inserts new servers and replaces changed ones, with their remotes, packages, tools, categories and index rows. */
  writeServers(entries: ReadonlyArray<{ entry: CatalogEntry; isNew: boolean }>, now: string): Promise<void>;
  /** Replaces the merge keys of these servers. */
  setMatchKeys(keysByServer: ReadonlyMap<string, readonly string[]>): Promise<void>;
  countTools(): Promise<number>;
  serverName(serverId: string): Promise<string | null>;
  sourceHash(source: SourceName, key: string): Promise<string | null>;
}

export const sourceKey = (source: string, key: string): string => `${source}\u0000${key}`;

/** The advisory lock key that serializes catalog writers on PostgreSQL (any fixed number). */
const CATALOG_WRITER_LOCK = 0x5e_7a_47;

/** Rows per multi-row statement: well under SQLite's limit on bound variables. */
const CHUNK = 400;

/** Runs `work` in one transaction with a writer bound to it; the catalog's generation moves with it. */
export async function withCatalogWriter<T>(db: Db, work: (writer: CatalogWriter) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    // One catalog writer at a time across instances (SQLite has a single writer by design): the
    // writer allocates row numbers from max(seq), which two concurrent writers would both take.
    if (dialectOf(trx) === 'postgres') await trx.raw('SELECT pg_advisory_xact_lock(?)', [CATALOG_WRITER_LOCK]);
    const result = await work(createWriter(trx));
    await bumpGeneration(trx, 'content');
    return result;
  });
}

/**
 * The rows of `catalog_generation`: `any` moves with every write a cached read could see
 * (catalog content and monitor checks), `content` with catalog writes alone (migration 006).
 */
const GENERATION_ROWS = { any: 1, content: 2 } as const;
export type GenerationKind = keyof typeof GENERATION_ROWS;

/**
 * Tells every instance's read caches that the catalog changed (in the writer's transaction):
 * a catalog write moves both generations, a monitor check only `any`.
 */
export async function bumpGeneration(trx: Knex.Transaction, kind: GenerationKind): Promise<void> {
  const rows = kind === 'content' ? [GENERATION_ROWS.any, GENERATION_ROWS.content] : [GENERATION_ROWS.any];
  await trx('catalog_generation').whereIn('id', rows).increment('generation', 1);
}

/** A generation as committed. */
export async function readGeneration(db: Db, kind: GenerationKind = 'any'): Promise<string> {
  const row: { generation: number | string } | undefined = await db('catalog_generation').where({ id: GENERATION_ROWS[kind] }).first('generation');
  return String(row?.generation ?? 0);
}

/** Keeps the categories table equal to the taxonomy in code. */
export async function syncTaxonomy(db: Db): Promise<void> {
  await db.transaction(async (trx) => {
    for (const [position, category] of TAXONOMY.entries()) {
      await trx('categories').insert({ slug: category.slug, name: category.name, position }).onConflict('slug').merge();
    }
  });
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function insertRows(trx: Knex.Transaction, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  for (const chunk of chunks(rows)) if (chunk.length > 0) await trx(table).insert(chunk);
}

/** Multi-row INSERT into an FTS5 table (knex's builder does not know virtual tables' rowid). */
async function insertFts(trx: Knex.Transaction, table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  const width = columns.length + 1;
  for (const chunk of chunks(rows, Math.floor(CHUNK * 4 / width))) {
    if (chunk.length === 0) continue;
    const values = chunk.map(() => `(${new Array(width).fill('?').join(', ')})`).join(', ');
    await trx.raw(`INSERT INTO ${table} (rowid, ${columns.join(', ')}) VALUES ${values}`, chunk.flat() as Knex.RawBinding[]);
  }
}

function createWriter(trx: Knex.Transaction): CatalogWriter {
  const nextSeq = async (table: string): Promise<number> => {
    const row = await trx(table).max({ seq: 'seq' }).first();
    return Number(row?.seq ?? 0) + 1;
  };

  return {
    async loadIndex() {
      // One after another: a transaction is one connection, which runs one query at a time.
      const sources = await trx('sources').select('source', 'source_key', 'server_id', 'record_hash');
      const keys = await trx('match_keys').select('match_key', 'server_id');
      const servers = await trx('servers').select('id', 'name');
      return {
        sources: new Map(sources.map((r) => [sourceKey(r.source, r.source_key), { source: r.source, key: r.source_key, serverId: r.server_id, recordHash: r.record_hash }])),
        keys: new Map(keys.map((r) => [r.match_key, r.server_id])),
        servers: new Map(servers.map((r) => [r.id, r.name])),
      };
    },

    async storedSources(serverIds) {
      const out = new Map<string, StoredSource[]>();
      for (const chunk of chunks(serverIds)) {
        const rows: Array<{ server_id: string; source: SourceName; source_key: string; normalized: string }> = await trx('sources')
          .whereIn('server_id', chunk)
          .select('server_id', 'source', 'source_key', 'normalized');
        for (const row of rows) out.set(row.server_id, [...(out.get(row.server_id) ?? []), { source: row.source, key: row.source_key, normalized: JSON.parse(row.normalized) }]);
      }
      return out;
    },

    async contentHashes(serverIds) {
      const out = new Map<string, string>();
      for (const chunk of chunks(serverIds)) {
        const rows: Array<{ id: string; content_hash: string }> = await trx('servers').whereIn('id', chunk).select('id', 'content_hash');
        for (const row of rows) out.set(row.id, row.content_hash);
      }
      return out;
    },

    async saveSources(rows, now) {
      for (const chunk of chunks(rows)) {
        if (chunk.length === 0) continue;
        await trx('sources')
          .insert(chunk.map((row) => ({
            source: row.source, source_key: row.key, server_id: row.serverId, record: JSON.stringify(row.record),
            normalized: JSON.stringify(row.normalized), record_hash: row.recordHash, ingested_at: now,
          })))
          .onConflict(['source', 'source_key'])
          .merge();
      }
    },

    async writeServers(entries, now) {
      const changed = entries.filter((e) => !e.isNew).map((e) => e.entry.server.id);
      const seqs = new Map<string, number>();
      for (const chunk of chunks(changed)) {
        const rows: Array<{ id: string; seq: number }> = await trx('servers').whereIn('id', chunk).select('id', 'seq');
        for (const row of rows) seqs.set(row.id, row.seq);
      }
      await deleteChildren(trx, changed, [...seqs.values()]);
      let serverSeq = await nextSeq('servers');
      let toolSeq = await nextSeq('tools');
      const servers: Record<string, unknown>[] = [];
      const serverFts: unknown[][] = [];
      const categories: Record<string, unknown>[] = [];
      const remotes: Record<string, unknown>[] = [];
      const packages: Record<string, unknown>[] = [];
      const tools: Record<string, unknown>[] = [];
      const toolFts: unknown[][] = [];
      for (const { entry, isNew } of entries) {
        const { server } = entry;
        const seq = isNew ? serverSeq++ : seqs.get(server.id);
        if (seq === undefined) throw new Error(`server ${server.id} is not in the catalog`);
        const row = serverRow(entry, now);
        if (isNew) servers.push({ ...row, seq, id: server.id, created_at: now });
        else await trx('servers').where({ id: server.id }).update(row);
        serverFts.push([seq, server.name, server.title ?? '', server.description, entry.searchCategories, entry.searchTools]);
        for (const slug of server.categories) categories.push({ slug, server_id: server.id });
        for (const [position, remote] of server.remotes.entries()) {
          remotes.push({ server_id: server.id, position, transport: remote.transport, url: remote.url, host: remote.host, headers: JSON.stringify(remote.headers) });
        }
        for (const [position, pkg] of server.packages.entries()) {
          packages.push({
            server_id: server.id, position, registry_type: pkg.registryType, identifier: pkg.identifier, version: pkg.version, runtime_hint: pkg.runtimeHint,
            transport: pkg.transport, environment_variables: JSON.stringify(pkg.environmentVariables), arguments: JSON.stringify(pkg.arguments),
          });
        }
        for (const [position, tool] of entry.tools.entries()) {
          const rowid = toolSeq++;
          tools.push({
            seq: rowid, id: tool.id, server_id: server.id, position, name: tool.name, title: tool.title, description: tool.description,
            input_schema: JSON.stringify(tool.inputSchema), annotations: JSON.stringify(tool.annotations), authentication: tool.authentication, sort_name: tool.name.toLowerCase(),
          });
          toolFts.push([rowid, tool.name.replace(/[_-]+/g, ' '), tool.title ?? '', tool.description, `${server.name} ${server.title ?? ''}`]);
        }
      }
      await insertRows(trx, 'servers', servers);
      await insertFts(trx, 'servers_fts', ['name', 'title', 'description', 'categories', 'tools'], serverFts);
      await insertRows(trx, 'server_categories', categories);
      await insertRows(trx, 'remotes', remotes);
      await insertRows(trx, 'packages', packages);
      await insertRows(trx, 'tools', tools);
      await insertFts(trx, 'tools_fts', ['name', 'title', 'description', 'server'], toolFts);
    },

    async setMatchKeys(keysByServer) {
      const ids = [...keysByServer.keys()];
      for (const chunk of chunks(ids)) await trx('match_keys').whereIn('server_id', chunk).delete();
      const rows = [...keysByServer].flatMap(([serverId, keys]) => keys.map((key) => ({ match_key: key, server_id: serverId })));
      for (const chunk of chunks(rows)) if (chunk.length > 0) await trx('match_keys').insert(chunk).onConflict('match_key').ignore();
    },

    async countTools() {
      const row = await trx('tools').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    async serverName(serverId) {
      const row = await trx('servers').where({ id: serverId }).first('name');
      return row?.name ?? null;
    },

    async sourceHash(source, key) {
      const row = await trx('sources').where({ source, source_key: key }).first('record_hash');
      return row?.record_hash ?? null;
    },
  };
}

function serverRow(entry: CatalogEntry, now: string): Record<string, unknown> {
  const { server } = entry;
  return {
    name: server.name,
    title: server.title,
    description: server.description,
    domain: server.domain,
    version: server.version,
    versions: JSON.stringify(server.versions),
    categories: JSON.stringify(server.categories),
    transports: JSON.stringify(server.transports),
    endpoint_count: server.endpointCount,
    tool_count: server.toolCount,
    authentication: server.authentication,
    repository_url: server.repositoryUrl,
    website_url: server.websiteUrl,
    license: server.license,
    published_at: server.publishedAt,
    updated_at: server.updatedAt,
    sort_name: (server.title ?? server.name).toLowerCase(),
    match_names: `\n${entry.matchNames.join('\n')}\n`,
    source_count: entry.sourceCount,
    content_hash: entry.contentHash,
    modified_at: now,
  };
}

/** Removes what a changed server is about to get again: its children and its index rows. */
async function deleteChildren(trx: Knex.Transaction, serverIds: readonly string[], serverSeqs: readonly number[]): Promise<void> {
  for (const chunk of chunks(serverIds)) {
    const toolSeqs: Array<{ seq: number }> = await trx('tools').whereIn('server_id', chunk).select('seq');
    for (const seqChunk of chunks(toolSeqs.map((t) => t.seq))) {
      await trx.raw(`DELETE FROM tools_fts WHERE rowid IN (${seqChunk.map(() => '?').join(', ')})`, seqChunk);
    }
    for (const table of ['tools', 'remotes', 'packages', 'server_categories']) await trx(table).whereIn('server_id', chunk).delete();
  }
  for (const seqChunk of chunks(serverSeqs)) {
    if (seqChunk.length > 0) await trx.raw(`DELETE FROM servers_fts WHERE rowid IN (${seqChunk.map(() => '?').join(', ')})`, seqChunk);
  }
}
