/**
 * The MCP Registry API (`/v0.1`, DESIGN.md "Registry API") that VS Code, GitHub Copilot and other
 * registries read: every stored version as published, with the official registry's metadata and
 * Sextant's own block (catalog-meta.ts). A page is one read of its versions and one of their
 * checks, written out as JSON text from the stored parts, not parsed again.
 */
import type { components } from '../../generated/openapi.js';
import type { QueryOf } from '../contract.js';
import { scrubValue } from '../catalog/secrets.js';
import { AppError } from '../errors.js';
import { JsonText } from '../json.js';
import { STATUS_HISTORY } from '../discovery/status.js';
import type { CatalogLookups } from '../store/catalog-lookups.js';
import type { MonitorStore } from '../store/monitor-store.js';
import { registryMetaJson, type RegistryListQuery, type RegistryVersionRow, type RegistryVersions } from '../store/registry-versions.js';
import { catalogMetaOf, type CatalogMeta } from './catalog-meta.js';
import { buildNameIndex, type NameIndex } from './name-index.js';
import { decodeCursor, encodeCursor } from './cursor.js';

export type RegistryServerList = components['schemas']['RegistryServerList'];
export type RegistryServerResponse = components['schemas']['RegistryServerResponse'];

export const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';
export const CATALOG_META = 'local.sextant/catalog';
/** The two `_meta` keys as the entries' JSON text writes them. */
const OFFICIAL_KEY = JSON.stringify(OFFICIAL_META);
const CATALOG_KEY = JSON.stringify(CATALOG_META);

/** The list's page size without `limit`, and its bounds (as the published API). */
export const DEFAULT_REGISTRY_LIMIT = 30;

/** The list's query, as the contract validates it. */
export type RegistryListInput = QueryOf<'registryListServers'>;

export interface RegistryApiService {
  /** `generation`: the content generation the read model read (null: unknown, and `search` scans the table). */
  listServers(input: RegistryListInput, generation?: string | null): Promise<JsonText<RegistryServerList>>;
  listVersions(name: string, includeDeleted: boolean): Promise<JsonText<RegistryServerList>>;
  getVersion(name: string, version: string, includeDeleted: boolean): Promise<JsonText<RegistryServerResponse>>;
}

export interface RegistryApiDeps {
  readonly versions: RegistryVersions;
  readonly catalog: Pick<CatalogLookups, 'findServers'>;
  readonly monitor: Pick<MonitorStore, 'recentChecksOf'>;
  /**
   * The catalog's relevance search for a text: the seqs of its first RANKED_HEAD servers, best
   * first, or null when it cannot rank now. With it, `search` lists the entries whose names
   * contain the text in that order (ranked names first, then the rest by name); without it, or
   * when it cannot rank, by name alone, and the cursors that list gives go on by name.
   */
  readonly rank?: (text: string, generation: string | null) => Promise<readonly number[] | null>;
}

/** Servers of the relevance search that lead a ranked `search` list; the other matches follow by name. */
export const RANKED_HEAD = 100;

/** `updated_since` as the stored times are written (ISO 8601 UTC, milliseconds); a 400 if it is no time. */
function sinceOf(value: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new AppError('validation_failed', 'updated_since must be an RFC 3339 date-time, e.g. 2025-08-07T13:15:04.280Z.', [{ location: 'updated_since', message: 'must be an RFC 3339 date-time' }]);
  }
  return new Date(ms).toISOString();
}

/**
 * A list's query from the request's, as the version store reads it (one row more than the page,
 * to tell whether another follows), and whether its cursor goes on by name (CursorPosition).
 */
function listQueryOf(input: RegistryListInput): RegistryListQuery & { readonly byName: boolean } {
  const search = input.search?.trim() ? input.search.trim() : null;
  const cursor = input.cursor !== undefined ? decodeCursor(input.cursor) : null;
  return {
    after: cursor && { name: cursor.name, version: cursor.version },
    byName: cursor?.byName === true,
    limit: (input.limit ?? DEFAULT_REGISTRY_LIMIT) + 1,
    search,
    updatedSince: input.updated_since !== undefined ? sinceOf(input.updated_since) : null,
    version: input.version ?? null,
    includeDeleted: input.include_deleted ?? false,
  };
}

/** The blocks of these servers made from their stored records and checks, read together. */
async function blocksOf({ catalog, monitor }: Pick<RegistryApiDeps, 'catalog' | 'monitor'>, ids: readonly string[]): Promise<Map<string, CatalogMeta>> {
  const out = new Map<string, CatalogMeta>();
  if (ids.length === 0) return out;
  const [servers, checks] = await Promise.all([catalog.findServers(ids), monitor.recentChecksOf(ids, STATUS_HISTORY)]);
  for (const { server, annotations } of servers.values()) out.set(server.id, catalogMetaOf(server, annotations, checks.get(server.id) ?? []));
  return out;
}

/**
 * Whether a row's stored block cannot be served: a server the monitor has checked (its status
 * and trust read its checks) or whose tools changed since first seen, or a version stored without one.
 */
const needsBlock = (row: RegistryVersionRow): boolean => row.catalogMeta === null || row.stale;

/** One entry as JSON text: the version as published, the official block and Sextant's (`block`, or none). */
function entryOf(row: RegistryVersionRow, block: string | null): string {
  const official: Record<string, unknown> = { status: row.status };
  if (row.statusMessage) official.statusMessage = row.statusMessage;
  if (row.statusChangedAt) official.statusChangedAt = row.statusChangedAt;
  if (row.publishedAt) official.publishedAt = row.publishedAt;
  official.updatedAt = row.updatedAt;
  official.isLatest = row.isLatest;
  const ours = block === null ? '' : `,${CATALOG_KEY}:${block}`;
  return `{"server":${row.document},"_meta":{${OFFICIAL_KEY}:${JSON.stringify(scrubValue(official))}${ours}}}`;
}

/** The entries of `rows` as JSON text, each with the block ingest stored, or one made from the server's records. */
async function entriesOf(deps: Pick<RegistryApiDeps, 'catalog' | 'monitor'>, rows: readonly RegistryVersionRow[]): Promise<string[]> {
  const made = await blocksOf(deps, [...new Set(rows.filter(needsBlock).map((row) => row.serverId))]);
  return rows.map((row) => {
    const fromRecords = made.get(row.serverId);
    return entryOf(row, !needsBlock(row) ? row.catalogMeta : fromRecords ? registryMetaJson(fromRecords, row.repairs) : null);
  });
}

/** A list of entries as JSON text. */
const listOf = (entries: readonly string[], metadata: RegistryServerList['metadata']): JsonText<RegistryServerList> =>
  new JsonText(`{"servers":[${entries.join(',')}],"metadata":${JSON.stringify(metadata)}}`);

/** A generation's registry names: the index `search` reads, and each server's names by its seq. */
interface Names {
  readonly index: NameIndex;
  /** Each server's names, as published and in lower case (what `search` is matched in). */
  readonly bySeq: ReadonlyMap<number, ReadonlyArray<{ readonly name: string; readonly lower: string }>>;
}

function namesOf(rows: ReadonlyArray<{ readonly name: string; readonly seq: number | null }>): Names {
  const bySeq = new Map<number, Array<{ name: string; lower: string }>>();
  for (const { name, seq } of [...rows].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (seq === null) continue;
    const names = bySeq.get(seq);
    const held = { name, lower: name.toLowerCase() };
    if (names) names.push(held);
    else bySeq.set(seq, [held]);
  }
  return { index: buildNameIndex(rows.map((row) => row.name)), bySeq };
}

/** The names of a generation, read once for it; null without a generation. */
function namesOfGeneration(versions: RegistryVersions): (at: string | null) => Promise<Names | null> {
  let held: { readonly at: string; readonly names: Promise<Names> } | null = null;
  return async (at) => {
    if (at === null) return null;
    if (held?.at !== at) {
      const names = versions.names().then(namesOf);
      const built = { at, names };
      held = built;
      // A failed read is not kept: the next search reads again.
      names.catch(() => {
        if (held === built) held = null;
      });
    }
    return held.names;
  };
}

/** The names of a list in its order, from its cursor on: up to `count` more at each call (none: no more). */
type NameSource = (count: number) => string[];

/** The index's names containing `search` in name order from `from` on, less `skip`. */
function matchesFrom(index: NameIndex, search: string, from: { readonly name: string; readonly inclusive: boolean } | null, skip: ReadonlySet<string>): NameSource {
  let next = from;
  let done = false;
  return (count) => {
    const names: string[] = [];
    while (!done && names.length < count) {
      const matched = index.matching(search, next, count - names.length);
      if (matched.length < count - names.length) done = true;
      if (matched.length > 0) next = { name: matched.at(-1) as string, inclusive: false };
      names.push(...matched.filter((name) => !skip.has(name)));
    }
    return names;
  };
}

/** `first`'s names, then `then`'s. */
function chained(first: readonly string[], then: NameSource): NameSource {
  let at = 0;
  return (count) => {
    const names = first.slice(at, at + count);
    at += names.length;
    return names.length < count ? [...names, ...then(count - names.length)] : names;
  };
}

/**
 * The registry names that lead a ranked search for `search`, best first: the names of the
 * relevance search's first RANKED_HEAD servers that contain the text, so the list holds the
 * same entries as by name.
 */
async function headOf(ranked: readonly number[], { bySeq }: Names, search: string): Promise<string[]> {
  const needle = search.toLowerCase();
  const head = new Set<string>();
  for (const seq of ranked) {
    for (const { name, lower } of bySeq.get(seq) ?? []) if (lower.includes(needle)) head.add(name);
  }
  return [...head];
}

/**
 * A page of the entries whose names contain `search`: the head's in its order, then every other
 * match by name. The cursor (the last entry of the page before) says where to go on: within the
 * head when its name is one of the head's, else in the rest, after it by name; a cursor of a
 * list by name goes on by name. The names are taken a page's worth at a time, their entries read
 * from SQL in that order. `byName`: whether the page is of a list by name.
 */
async function searchPage({ versions, rank }: Pick<RegistryApiDeps, 'versions' | 'rank'>, names: Names, search: string, query: RegistryListQuery & { readonly byName: boolean }, at: string | null): Promise<{ rows: RegistryVersionRow[]; byName: boolean }> {
  const { byName, ...stored } = query;
  const ranked = byName || !rank ? null : await rank(search, at);
  const head = ranked === null ? [] : await headOf(ranked, names, search);
  const inHead = new Set(head);
  const after = query.after;
  // The name the cursor stopped in goes on after its version.
  const source = after && !inHead.has(after.name)
    ? matchesFrom(names.index, search, { name: after.name, inclusive: true }, inHead)
    : chained(head.slice(after ? head.indexOf(after.name) : 0), matchesFrom(names.index, search, null, inHead));
  const rows: RegistryVersionRow[] = [];
  while (rows.length < query.limit) {
    const wanted = source(query.limit - rows.length);
    if (wanted.length === 0) break;
    rows.push(...(await versions.page({ ...stored, search: null, names: wanted, order: 'names', limit: query.limit - rows.length })));
  }
  return { rows, byName: ranked === null };
}

const notFound = (what: string): AppError => new AppError('not_found', `${what} is not in this registry.`, [], {}, 'server');

export function createRegistryApiService(deps: RegistryApiDeps): RegistryApiService {
  const { versions } = deps;
  const namesAt = namesOfGeneration(versions);
  return {
    async listServers(input, at = null) {
      const query = listQueryOf(input);
      const names = query.search ? await namesAt(at) : null;
      // Without the names of a known generation, a search is listed by name in SQL.
      const { rows, byName } = names && query.search ? await searchPage(deps, names, query.search, query, at) : { rows: await versions.page(query), byName: query.search !== null };
      const limit = query.limit - 1;
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const metadata: RegistryServerList['metadata'] = { count: page.length };
      if (rows.length > limit && last) metadata.nextCursor = encodeCursor({ name: last.name, version: last.version, ...(byName ? { byName } : {}) });
      return listOf(await entriesOf(deps, page), metadata);
    },

    async listVersions(name, includeDeleted) {
      const rows = await versions.versionsOf(name, includeDeleted);
      if (rows.length === 0) throw notFound(`No server named "${name}"`);
      return listOf(await entriesOf(deps, rows), { count: rows.length });
    },

    async getVersion(name, version, includeDeleted) {
      const row = await versions.versionOf(name, version, includeDeleted);
      if (!row) throw notFound(version === 'latest' ? `No server named "${name}"` : `Version "${version}" of "${name}"`);
      const [entry] = await entriesOf(deps, [row]);
      return new JsonText(entry as string);
    },
  };
}
