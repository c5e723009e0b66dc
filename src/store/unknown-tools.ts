/**
 * Migration 024's data: the stored rows restated as ingest writes them now (or, going down, as
 * it wrote them before). A record that lists no tools at all holds `tools: null` in its
 * normalized form, not `[]`; a server none of whose records lists tools has a null count, not 0;
 * a tool whose record names it without its arguments (toolsdk's always; Docker's and a
 * publisher's without a schema or an argument list) has a null input schema, not an empty one,
 * and its fingerprint, its server's tool-set fingerprint and its history's definitions are made
 * again from that, so the next write of the server finds nothing changed.
 * Servers whose rows move have their registry API block dropped (it is made from their rows as
 * they are read), and the content generation moves on.
 */
import type { Knex } from 'knex';
import { definitionOf, fingerprintOf, toolSetFingerprint } from '../catalog/tool-fingerprint.js';
import { asObject, isObject, type JsonObject } from '../json.js';
import type { JsonSchemaObject } from '../types.js';
import { inLists } from './in-lists.js';

export type Direction = 'up' | 'down';

/** The input schema a tool named without its arguments was given before: an empty one, which reads as "no arguments". */
const EMPTY_SCHEMA: JsonSchemaObject = { type: 'object', properties: {} };
const EMPTY_SCHEMA_TEXT = JSON.stringify(EMPTY_SCHEMA);
/** The order materialize takes a tool from its records in: the endpoint itself, then by precedence. */
const TOOL_ORDER: readonly string[] = ['monitor', 'publisher', 'demo', 'official', 'docker', 'toolsdk'];
const PUBLISHER_META = 'io.modelcontextprotocol.registry/publisher-provided';
/** Servers read at a time. */
const CHUNK = 500;

interface SourceRow { server_id: string; source: string; source_key: string; record: string; normalized: string }
interface ToolRow { seq: number; server_id: string; name: string; title: string | null; description: string; input_schema: string | null; annotations: string; fingerprint: string }
interface HistoryRow { server_id: string; tool_name: string; fingerprint: string; first_seen_at: string; definition: string; seen_by: string }
interface ServerRow { seq: number; id: string; tool_count: number | string | null }

/** What a record lists: each tool's name, and whether its arguments are unknown (null: it lists no tools). */
interface Listing { readonly source: string; readonly tools: ReadonlyMap<string, boolean> | null }

/** Restates every server's rows in `trx` (a migration's transaction); how many servers moved. */
export async function restateUnknownTools(trx: Knex, direction: Direction): Promise<number> {
  let moved = 0;
  for (let after = 0; ;) {
    const servers: ServerRow[] = await trx('servers').where('seq', '>', after).orderBy('seq').limit(CHUNK).select('seq', 'id', 'tool_count');
    const last = servers.at(-1);
    if (!last) break;
    after = last.seq;
    moved += await restateServers(trx, servers, direction);
  }
  // Row 2: the content generation (content-generation.ts), so what was built from the rows is built again.
  if (moved > 0) await trx('catalog_generation').where({ id: 2 }).increment('generation', 1);
  return moved;
}

/** Restates one chunk of servers: their records, counts and schemas; how many moved. */
async function restateServers(trx: Knex, servers: readonly ServerRow[], direction: Direction): Promise<number> {
  const ids = servers.map((s) => s.id);
  const listings = await restateRecords(trx, ids, direction);
  const listed = (id: string): boolean => (listings.get(id) ?? []).some((l) => l.tools !== null);
  const counts = direction === 'up'
    ? servers.filter((s) => s.tool_count !== null && Number(s.tool_count) === 0 && !listed(s.id)).map((s) => s.id)
    : servers.filter((s) => s.tool_count === null).map((s) => s.id);
  for (const list of inLists(counts)) await trx('servers').whereIn('id', list).update({ tool_count: direction === 'up' ? null : 0 });
  const schemas = await restateSchemas(trx, ids, listings, direction);
  const moved = new Set([...counts, ...schemas]);
  for (const list of inLists([...moved])) await trx('registry_versions').whereIn('server_id', list).update({ catalog_meta: null });
  return moved.size;
}

/** Rewrites the servers' records' normalized forms; what each lists, by server. */
async function restateRecords(trx: Knex, ids: readonly string[], direction: Direction): Promise<Map<string, Listing[]>> {
  const out = new Map<string, Listing[]>();
  const changed: Array<Array<string | null>> = [];
  for (const list of inLists(ids)) {
    const rows: SourceRow[] = await trx('sources').whereIn('server_id', list).select('server_id', 'source', 'source_key', 'record', 'normalized');
    for (const row of rows) {
      const normalized = restated(row, direction);
      const text = JSON.stringify(normalized);
      if (text !== row.normalized) changed.push([row.source, row.source_key, text]);
      const tools = Array.isArray(normalized.tools) ? new Map(normalized.tools.map(asObject).map((t) => [String(t.name), t.inputSchema === null])) : null;
      out.set(row.server_id, [...(out.get(row.server_id) ?? []), { source: row.source, tools }]);
    }
  }
  await updateRows(trx, 'sources', ['source', 'source_key'], ['normalized'], changed);
  return out;
}

/** A record's normalized form as the adapters now write it (up), or wrote it before (down). */
function restated(row: SourceRow, direction: Direction): JsonObject {
  const normalized = asObject(JSON.parse(row.normalized));
  const tools = Array.isArray(normalized.tools) ? normalized.tools.filter(isObject) : null;
  if (direction === 'down') return { ...normalized, tools: (tools ?? []).map((t) => ({ ...t, inputSchema: t.inputSchema ?? EMPTY_SCHEMA })) };
  const raw = asObject(JSON.parse(row.record));
  if (tools === null || !listsTools(row.source, raw, tools.length)) return { ...normalized, tools: null };
  const stated = schemaStated(row.source, raw);
  return { ...normalized, tools: tools.map((t) => (stated(String(t.name)) ? t : { ...t, inputSchema: null })) };
}

/**
 * Whether a record lists tools, by the rules the adapters follow now (src/ingest: toolsdk.ts,
 * docker.ts, official.ts): any it lists; an empty list only where the source means one.
 */
function listsTools(source: string, raw: JsonObject, count: number): boolean {
  if (source === 'monitor' || count > 0) return true;
  if (source === 'docker') return Array.isArray(raw.tools) && raw.tools.length === 0 && raw.type !== 'remote' && asObject(raw.dynamic).tools !== true;
  const tools = publisherTools(source, raw);
  return Array.isArray(tools) && tools.length === 0;
}

/** The tools a publisher lists in an official (or the demo's, or a published) record's `_meta`. */
function publisherTools(source: string, raw: JsonObject): unknown {
  return source === 'official' || source === 'demo' || source === 'publisher' ? asObject(asObject(raw._meta)[PUBLISHER_META]).tools : undefined;
}

/**
 * Whether a record states the arguments of its tool `name`, by the adapters' rules now: toolsdk
 * never; Docker by `inputSchema` or an `arguments` list; a publisher by `inputSchema`; the
 * monitor always (an endpoint's own listing). A tool not found in the record keeps its schema.
 */
function schemaStated(source: string, raw: JsonObject): (name: string) => boolean {
  if (source === 'toolsdk') return () => false;
  const listed = source === 'docker' ? raw.tools : publisherTools(source, raw);
  if (!Array.isArray(listed)) return () => true;
  const byName = new Map(listed.filter(isObject).map((t) => [typeof t.name === 'string' ? t.name.trim() : '', t]));
  return (name) => {
    const tool = byName.get(name);
    return tool === undefined || tool.inputSchema !== undefined || (source === 'docker' && Array.isArray(tool.arguments));
  };
}

/** The record a server's tool is taken from, as materialize takes it. */
function takenFrom(listings: readonly Listing[], name: string): Listing | undefined {
  for (const source of TOOL_ORDER) {
    const found = listings.find((l) => l.source === source && l.tools?.has(name));
    if (found) return found;
  }
  return undefined;
}

/** Rewrites the schemas and fingerprints of the tools whose arguments are unknown; the servers whose tools moved. */
async function restateSchemas(trx: Knex, ids: readonly string[], listings: ReadonlyMap<string, Listing[]>, direction: Direction): Promise<string[]> {
  const moved = new Map<string, ToolRow[]>();
  /** By server, each moved tool's name with the sources that give it without arguments. */
  const unknownBy = new Map<string, Map<string, Set<string>>>();
  const rewritten: Array<Array<string | number | null>> = [];
  const tools: ToolRow[] = [];
  for (const list of inLists(ids)) {
    tools.push(...(await trx('tools').whereIn('server_id', list).orderBy([{ column: 'server_id' }, { column: 'position' }])
      .select('seq', 'server_id', 'name', 'title', 'description', 'input_schema', 'annotations', 'fingerprint')));
  }
  for (const tool of tools) {
    const records = listings.get(tool.server_id) ?? [];
    const unknown = direction === 'up'
      ? tool.input_schema === EMPTY_SCHEMA_TEXT && takenFrom(records, tool.name)?.tools?.get(tool.name) === true
      : tool.input_schema === null;
    if (!unknown) continue;
    const sources = records.filter((l) => l.tools?.get(tool.name) === true).map((l) => l.source);
    unknownBy.set(tool.server_id, (unknownBy.get(tool.server_id) ?? new Map()).set(tool.name, new Set(sources)));
    const inputSchema = direction === 'up' ? null : EMPTY_SCHEMA;
    tool.input_schema = inputSchema === null ? null : JSON.stringify(inputSchema);
    tool.fingerprint = fingerprintOf(definitionOf({ name: tool.name, title: tool.title, description: tool.description, inputSchema, annotations: JSON.parse(tool.annotations) }));
    rewritten.push([tool.seq, tool.input_schema, tool.fingerprint]);
    moved.set(tool.server_id, []);
  }
  await updateRows(trx, 'tools', ['seq'], ['input_schema', 'fingerprint'], rewritten);
  for (const tool of tools) moved.get(tool.server_id)?.push(tool);
  await updateRows(trx, 'servers', ['id'], ['tools_fingerprint'], [...moved].map(([serverId, held]) => [serverId, toolSetFingerprint(held)]));
  await restateHistory(trx, unknownBy, direction);
  return [...moved.keys()];
}

/**
 * Rewrites the kept definitions of the moved tools that records gave without arguments (every
 * source that gave one is such a record, or none was recorded, for rows kept before sources
 * were) with the schema those records give now, each with its fingerprint.
 */
async function restateHistory(trx: Knex, unknownBy: ReadonlyMap<string, ReadonlyMap<string, ReadonlySet<string>>>, direction: Direction): Promise<void> {
  const rewritten: Array<Array<string | null>> = [];
  for (const list of inLists([...unknownBy.keys()])) {
    const rows: HistoryRow[] = await trx('tool_history').whereIn('server_id', list).select('server_id', 'tool_name', 'fingerprint', 'first_seen_at', 'definition', 'seen_by');
    for (const row of rows) {
      const sources = unknownBy.get(row.server_id)?.get(row.tool_name);
      if (!sources) continue;
      const definition = asObject(JSON.parse(row.definition));
      const seenBy: unknown[] = JSON.parse(row.seen_by);
      const given = direction === 'up' ? JSON.stringify(definition.inputSchema) === EMPTY_SCHEMA_TEXT : definition.inputSchema === null;
      if (!given || (direction === 'up' && !seenBy.every((source) => typeof source === 'string' && sources.has(source)))) continue;
      const restatedDefinition = { ...definition, inputSchema: direction === 'up' ? null : EMPTY_SCHEMA };
      rewritten.push([row.server_id, row.tool_name, row.fingerprint, row.first_seen_at, fingerprintOf(restatedDefinition), JSON.stringify(restatedDefinition)]);
    }
  }
  await updateRows(trx, 'tool_history', ['server_id', 'tool_name', 'fingerprint', 'first_seen_at'], ['fingerprint', 'definition'], rewritten);
}

/** Rows set per statement. */
const UPDATE_ROWS = 500;

/**
 * Sets the `set` columns of the rows of `table` that the `key` columns name, from `rows` (the key
 * values, then the values set), many rows a statement: `UPDATE … FROM (VALUES …)`, which both
 * databases take, their VALUES columns named column1, column2…; a number is cast for PostgreSQL,
 * which would compare it as text.
 */
async function updateRows(trx: Knex, table: string, key: readonly string[], set: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null>>): Promise<void> {
  const assign = set.map((column, i) => `${column} = v.column${key.length + i + 1}`).join(', ');
  const match = key.map((column, i) => `${table}.${column} = v.column${i + 1}`).join(' AND ');
  for (let at = 0; at < rows.length; at += UPDATE_ROWS) {
    const chunk = rows.slice(at, at + UPDATE_ROWS);
    const tuples = chunk.map((row) => `(${row.map((value) => (typeof value === 'number' ? 'CAST(? AS integer)' : '?')).join(', ')})`).join(', ');
    await trx.raw(`UPDATE ${table} SET ${assign} FROM (VALUES ${tuples}) AS v WHERE ${match}`, chunk.flat());
  }
}
