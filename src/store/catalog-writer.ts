/**
 * The write side of the catalog, used by ingest inside one transaction: a failed run rolls
 * back and leaves the previous catalog untouched.
 */
import type { Knex } from 'knex';
import type { CatalogEntry } from '../registry/catalog-entry.js';
import { TAXONOMY } from '../registry/taxonomy.js';
import type { SourceName } from '../types.js';
import type { Db } from './db.js';

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

export interface CatalogWriter {
  loadIndex(): Promise<CatalogIndex>;
  /** The normalized records of every source of a server, as stored. */
  normalizedSources(serverId: string): Promise<unknown[]>;
  saveSource(row: SourceRow & { record: unknown; normalized: unknown }, now: string): Promise<void>;
  contentHash(serverId: string): Promise<string | null>;
  writeServer(entry: CatalogEntry, now: string): Promise<void>;
  /** Creates a placeholder row so sources and keys can reference a new server before it is written. */
  reserveServer(id: string, name: string, now: string): Promise<void>;
  setMatchKeys(serverId: string, keys: readonly string[]): Promise<void>;
  countTools(): Promise<number>;
  serverName(serverId: string): Promise<string | null>;
  sourceHash(source: SourceName, key: string): Promise<string | null>;
  /** The stored normalized record of one source, if any. */
  normalizedSource(source: SourceName, key: string): Promise<unknown>;
}

export const sourceKey = (source: string, key: string): string => `${source}\u0000${key}`;

/** Runs `work` in one transaction with a writer bound to it. */
export async function withCatalogWriter<T>(db: Db, work: (writer: CatalogWriter) => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => work(createWriter(trx)));
}

/** Keeps the categories table equal to the taxonomy in code. */
export async function syncTaxonomy(db: Db): Promise<void> {
  await db.transaction(async (trx) => {
    for (const [position, category] of TAXONOMY.entries()) {
      await trx('categories').insert({ slug: category.slug, name: category.name, position }).onConflict('slug').merge();
    }
  });
}

function createWriter(trx: Knex.Transaction): CatalogWriter {
  return {
    async loadIndex() {
      const [sources, keys, servers] = await Promise.all([
        trx('sources').select('source', 'source_key', 'server_id', 'record_hash'),
        trx('match_keys').select('match_key', 'server_id'),
        trx('servers').select('id', 'name'),
      ]);
      return {
        sources: new Map(sources.map((r) => [sourceKey(r.source, r.source_key), { source: r.source, key: r.source_key, serverId: r.server_id, recordHash: r.record_hash }])),
        keys: new Map(keys.map((r) => [r.match_key, r.server_id])),
        servers: new Map(servers.map((r) => [r.id, r.name])),
      };
    },

    async normalizedSources(serverId) {
      const rows = await trx('sources').where({ server_id: serverId }).select('normalized');
      return rows.map((row): unknown => JSON.parse(row.normalized));
    },

    async saveSource(row, now) {
      await trx('sources')
        .insert({
          source: row.source,
          source_key: row.key,
          server_id: row.serverId,
          record: JSON.stringify(row.record),
          normalized: JSON.stringify(row.normalized),
          record_hash: row.recordHash,
          ingested_at: now,
        })
        .onConflict(['source', 'source_key'])
        .merge();
    },

    async contentHash(serverId) {
      const row = await trx('servers').where({ id: serverId }).first('content_hash');
      return row?.content_hash ?? null;
    },

    async reserveServer(id, name, now) {
      await trx('servers').insert({
        id, name, description: '', versions: '[]', categories: '[]', transports: '[]', endpoint_count: 0, tool_count: 0,
        authentication: 'unknown', sort_name: name.toLowerCase(), match_names: '', source_count: 0, content_hash: '', created_at: now, modified_at: now,
      });
    },

    async writeServer(entry, now) {
      const { server } = entry;
      const existing = await trx('servers').where({ id: server.id }).first('seq');
      if (!existing) throw new Error(`server ${server.id} was not reserved`);
      await trx('servers').where({ id: server.id }).update({
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
      });
      await replaceChildren(trx, entry, existing.seq);
    },

    async setMatchKeys(serverId, keys) {
      await trx('match_keys').where({ server_id: serverId }).delete();
      for (const key of keys) await trx('match_keys').insert({ match_key: key, server_id: serverId }).onConflict('match_key').ignore();
    },

    async serverName(serverId) {
      const row = await trx('servers').where({ id: serverId }).first('name');
      return row?.name ?? null;
    },

    async sourceHash(source, key) {
      const row = await trx('sources').where({ source, source_key: key }).first('record_hash');
      return row?.record_hash ?? null;
    },

    async normalizedSource(source, key) {
      const row = await trx('sources').where({ source, source_key: key }).first('normalized');
      return row ? JSON.parse(row.normalized) : null;
    },

    async countTools() {
      const row = await trx('tools').count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },
  };
}

async function replaceChildren(trx: Knex.Transaction, entry: CatalogEntry, seq: number): Promise<void> {
  const { server, tools } = entry;
  const oldTools = await trx('tools').where({ server_id: server.id }).select('seq');
  for (const { seq: toolSeq } of oldTools) await trx.raw('DELETE FROM tools_fts WHERE rowid = ?', [toolSeq]);
  await trx('tools').where({ server_id: server.id }).delete();
  await trx('remotes').where({ server_id: server.id }).delete();
  await trx('packages').where({ server_id: server.id }).delete();
  await trx('server_categories').where({ server_id: server.id }).delete();
  await trx.raw('DELETE FROM servers_fts WHERE rowid = ?', [seq]);

  await trx.raw('INSERT INTO servers_fts (rowid, name, title, description, categories, tools) VALUES (?, ?, ?, ?, ?, ?)', [
    seq, server.name, server.title ?? '', server.description, entry.searchCategories, entry.searchTools,
  ]);
  for (const slug of server.categories) await trx('server_categories').insert({ slug, server_id: server.id });
  for (const [position, remote] of server.remotes.entries()) {
    await trx('remotes').insert({ server_id: server.id, position, transport: remote.transport, url: remote.url, host: remote.host, headers: JSON.stringify(remote.headers) });
  }
  for (const [position, pkg] of server.packages.entries()) {
    await trx('packages').insert({
      server_id: server.id, position, registry_type: pkg.registryType, identifier: pkg.identifier, version: pkg.version, runtime_hint: pkg.runtimeHint,
      transport: pkg.transport, environment_variables: JSON.stringify(pkg.environmentVariables), arguments: JSON.stringify(pkg.arguments),
    });
  }
  for (const [position, tool] of tools.entries()) {
    const [inserted] = await trx('tools')
      .insert({
        id: tool.id, server_id: server.id, position, name: tool.name, title: tool.title, description: tool.description,
        input_schema: JSON.stringify(tool.inputSchema), annotations: JSON.stringify(tool.annotations), authentication: tool.authentication,
        sort_name: tool.name.toLowerCase(),
      })
      .returning('seq');
    const toolSeq = typeof inserted === 'object' ? inserted.seq : inserted;
    await trx.raw('INSERT INTO tools_fts (rowid, name, title, description, server) VALUES (?, ?, ?, ?, ?)', [
      toolSeq, tool.name.replace(/[_-]+/g, ' '), tool.title ?? '', tool.description, `${server.name} ${server.title ?? ''}`,
    ]);
  }
}
