/** Every bulk insert of a catalog write: its table and columns, in the order rows give values. */
import { mergeOn, type BulkInsert } from './bulk-insert.js';
import { SERVER_COLUMNS } from './entry-rows.js';
import { FTS_COLUMNS } from './fts.js';
import { REGISTRY_VERSION_COLUMNS } from './registry-versions.js';

const SOURCE_COLUMNS = ['source', 'source_key', 'server_id', 'record', 'normalized', 'record_hash', 'ingested_at'];
/** What `tool_history` rows give, in order (tool-history.ts). */
export const TOOL_HISTORY_COLUMNS = ['server_id', 'tool_name', 'fingerprint', 'definition', 'first_seen_at', 'last_seen_at', 'current', 'seen_by', 'retired_at'];

export const CATALOG_INSERTS = {
  servers: { table: 'servers', columns: [...SERVER_COLUMNS, 'seq', 'id', 'created_at', 'install_key'] },
  serversFts: { table: 'servers_fts', columns: ['rowid', ...FTS_COLUMNS.servers_fts] },
  categories: { table: 'server_categories', columns: ['slug', 'server_id'] },
  remotes: { table: 'remotes', columns: ['server_id', 'position', 'transport', 'url', 'host', 'headers'] },
  packages: {
    table: 'packages',
    columns: ['server_id', 'position', 'registry_type', 'identifier', 'version', 'runtime_hint', 'transport', 'environment_variables', 'arguments'],
  },
  tools: {
    table: 'tools',
    columns: ['seq', 'id', 'server_id', 'position', 'name', 'title', 'description', 'input_schema', 'annotations', 'authentication', 'sort_name', 'source', 'fingerprint', 'findings',
      'quality_flags', 'flagged', 'browse_name'],
  },
  toolsFts: { table: 'tools_fts', columns: ['rowid', ...FTS_COLUMNS.tools_fts] },
  sources: { table: 'sources', columns: SOURCE_COLUMNS, onConflict: mergeOn(['source', 'source_key'], SOURCE_COLUMNS) },
  registryVersions: { table: 'registry_versions', columns: [...REGISTRY_VERSION_COLUMNS] },
  toolHistory: { table: 'tool_history', columns: TOOL_HISTORY_COLUMNS, onConflict: mergeOn(['server_id', 'tool_name', 'fingerprint', 'first_seen_at'], ['last_seen_at', 'current', 'seen_by', 'retired_at']) },
} satisfies Record<string, BulkInsert>;

/** The tables a catalog write inserts into. */
export const CATALOG_WRITE_TABLES: readonly string[] = [...new Set(Object.values(CATALOG_INSERTS).map((insert) => insert.table))];
