/**
 * The rescan: what the catalog derives from each stored tool definition (its fingerprint, what the
 * tool-definition scan finds in it, its server's tool-set fingerprint) made again by today's
 * rules from the stored rows, without reading any source again. A server whose findings or
 * fingerprints change has its registry API block dropped, to be made from its rows as it is read.
 * Definitions the history lacks (tools stored before it was kept) join it as first seen now.
 */
import type { Knex } from 'knex';
import { examineTools } from '../catalog/tool-examination.js';
import { definitionOf } from '../catalog/tool-fingerprint.js';
import { insertMany, type Row } from './bulk-insert.js';
import { TOOL_HISTORY_COLUMNS } from './catalog-inserts.js';
import { inLists } from './in-lists.js';
import { heldRows } from './tool-history.js';

export interface RescanSummary {
  /** Servers and tools read. */
  readonly servers: number;
  readonly tools: number;
  /** Tools whose fingerprint or findings changed, and the servers that hold them. */
  readonly toolsChanged: number;
  readonly serversChanged: number;
}

/** Servers read at a time. */
const CHUNK = 500;

interface ServerRow {
  seq: number; id: string; tools_fingerprint: string | null; tool_findings: number | null;
}

interface ToolRow {
  seq: number; server_id: string; name: string; title: string | null; description: string; input_schema: string | null; annotations: string;
  source: string | null; fingerprint: string; findings: string;
}

/** Rescans every tool in `trx` (a transaction: the rescan is all or nothing), as of `now`. */
export async function rescanTools(trx: Knex, now: string): Promise<RescanSummary> {
  const summary = { servers: 0, tools: 0, toolsChanged: 0, serversChanged: 0 };
  for (let after = 0; ;) {
    const servers: ServerRow[] = await trx('servers').where('seq', '>', after).orderBy('seq').limit(CHUNK).select('seq', 'id', 'tools_fingerprint', 'tool_findings');
    const last = servers.at(-1);
    if (!last) return summary;
    after = last.seq;
    summary.servers += servers.length;
    const tools: ToolRow[] = await trx('tools').whereIn('server_id', servers.map((s) => s.id)).orderBy(['server_id', 'position']);
    summary.tools += tools.length;
    const byServer = new Map<string, ToolRow[]>();
    for (const tool of tools) {
      const group = byServer.get(tool.server_id);
      if (group) group.push(tool);
      else byServer.set(tool.server_id, [tool]);
    }
    const history: Row[] = [];
    const changedServers: string[] = [];
    for (const server of servers) {
      const { tools: changed, toolSet } = await rescanServer(trx, server, byServer.get(server.id) ?? [], history, now);
      summary.toolsChanged += changed;
      if (changed > 0 || toolSet) changedServers.push(server.id);
    }
    const held = new Set([...(await heldRows(trx, servers.map((s) => s.id))).values()].flat().map((r) => `${r.server_id}\n${r.tool_name}\n${r.fingerprint}`));
    // A new period only for what no period holds now; it is held, so it has no retired_at.
    await insertMany(trx as Knex.Transaction, { table: 'tool_history', columns: TOOL_HISTORY_COLUMNS.filter((c) => c !== 'retired_at') }, history.filter((row) => !held.has(`${row[0]}\n${row[1]}\n${row[2]}`)));
    for (const list of inLists(changedServers)) await trx('registry_versions').whereIn('server_id', list).update({ catalog_meta: null });
    summary.serversChanged += changedServers.length;
  }
}

/** Rescans one server's tools: how many changed, and whether its tool set's fingerprint or serious findings did. Adds their definitions to `history`. */
async function rescanServer(trx: Knex, server: ServerRow, rows: readonly ToolRow[], history: Row[], now: string): Promise<{ tools: number; toolSet: boolean }> {
  const definitions = rows.map((row) => definitionOf({ name: row.name, title: row.title, description: row.description, inputSchema: row.input_schema === null ? null : JSON.parse(row.input_schema), annotations: JSON.parse(row.annotations) }));
  const examined = examineTools(definitions);
  let changed = 0;
  for (const [i, row] of rows.entries()) {
    const { fingerprint = '', findings = [] } = examined.tools[i] ?? {};
    const text = JSON.stringify(findings);
    history.push([server.id, row.name, fingerprint, JSON.stringify(definitions[i]), now, now, 1, JSON.stringify(row.source === null ? [] : [row.source])]);
    if (fingerprint === row.fingerprint && text === row.findings) continue;
    changed += 1;
    await trx('tools').where({ seq: row.seq }).update({ fingerprint, findings: text });
  }
  const { toolsFingerprint, toolFindings } = examined;
  const moved = toolsFingerprint !== server.tools_fingerprint || toolFindings !== (server.tool_findings === null ? null : Number(server.tool_findings));
  if (moved) await trx('servers').where({ id: server.id }).update({ tools_fingerprint: toolsFingerprint, tool_findings: toolFindings });
  return { tools: changed, toolSet: moved };
}
