/**
 * The issue's example searches, as callers meet them (`npm run search:quality -- --examples`):
 * each one's total and first three servers through every engine, and where GitHub's own server
 * stands in the registry API's `GET /v0.1/servers?search=github`. Run before and after a change
 * to the search, the two printouts are the before/after table.
 */
import { rankedServers } from '../src/search/engine-choice.js';
import { createSqlEngine } from '../src/search/index.js';
import { createRegistryApiService, RANKED_HEAD } from '../src/registry-api/registry-api-service.js';
import type { Store } from '../src/store/index.js';
import { fieldOf, type MeasuredEngine } from '../test/support/search-relevance.js';

/** Server searches from the issue: sentences that found nothing, and the keywords beside them. */
export const EXAMPLE_QUERIES = [
  'read my google calendar',
  'google calendar',
  'create github issues from my terminal',
  'I am planning a week in Lisbon in May: find me cheap flights from Berlin and a hotel close to the old town',
  'flights',
  'convert pdf to text',
  'pdf',
  'enviar correo electrónico',
  '天气',
] as const;

/** The registry API search, and the server it should put first. */
export const REGISTRY_SEARCH = { search: 'github', name: 'io.github.github/github-mcp-server' } as const;

/** Page sizes to place it at: the API's default, and 50. */
const PAGE_SIZES = [30, 50] as const;

export interface ExampleRow {
  readonly query: string;
  readonly engine: string;
  readonly total: number;
  readonly top: readonly string[];
}

export interface RegistryPosition {
  readonly search: string;
  /** `latest` (one entry per server), or null for every version as the list serves them by default. */
  readonly version: 'latest' | null;
  readonly name: string;
  /** 1-based place among every entry the search lists; null when it is not listed. */
  readonly position: number | null;
  readonly entries: number;
  /** The page it is on at each of PAGE_SIZES. */
  readonly pages: readonly number[] | null;
}

export async function exampleRows(engines: readonly { label: string; engine: MeasuredEngine }[]): Promise<ExampleRow[]> {
  const rows: ExampleRow[] = [];
  for (const query of EXAMPLE_QUERIES) {
    for (const { label, engine } of engines) {
      const page = await engine.registry.searchServers({ q: query, limit: 3 });
      rows.push({ query, engine: label, total: page.total, top: page.items.map((item) => item.name) });
    }
  }
  return rows;
}

/** Walks every page of `GET /v0.1/servers?search=github` (with `version=latest`, and without) to find GitHub's server. */
export async function registryPositions(store: Store): Promise<RegistryPosition[]> {
  // Ranked as the service ranks it on SQLite (src/compose.ts): by the catalog's relevance search, here FTS5's.
  const generation = await store.contentGeneration();
  const rank = rankedServers([createSqlEngine(store.searchSource)], RANKED_HEAD);
  const registry = createRegistryApiService({ versions: store.registryVersions, catalog: store.catalog, monitor: store.monitor, rank });
  const positions: RegistryPosition[] = [];
  for (const version of ['latest', null] as const) {
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const input = { search: REGISTRY_SEARCH.search, limit: 100, ...(version ? { version } : {}), ...(cursor ? { cursor } : {}) };
      const list: unknown = JSON.parse((await registry.listServers(input, generation)).text);
      names.push(...serverNames(list));
      cursor = nextCursor(list);
    } while (cursor);
    const index = names.indexOf(REGISTRY_SEARCH.name);
    const position = index < 0 ? null : index + 1;
    positions.push({ ...REGISTRY_SEARCH, version, position, entries: names.length, pages: position === null ? null : PAGE_SIZES.map((size) => Math.ceil(position / size)) });
  }
  return positions;
}

function serverNames(list: unknown): string[] {
  const servers = fieldOf(list, 'servers');
  return Array.isArray(servers) ? servers.map((entry) => fieldOf(fieldOf(entry, 'server'), 'name')).filter((name): name is string => typeof name === 'string') : [];
}

function nextCursor(list: unknown): string | undefined {
  const cursor = fieldOf(fieldOf(list, 'metadata'), 'nextCursor');
  return typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
}

export function printExamples(rows: readonly ExampleRow[], positions: readonly RegistryPosition[]): void {
  console.log('\nexample server searches (total, first three)');
  for (const row of rows) {
    const query = row.query.length > 48 ? `${row.query.slice(0, 45)}...` : row.query;
    console.log(`  ${query.padEnd(48)} ${row.engine.padEnd(20)} ${String(row.total).padStart(5)}  ${row.top.join(', ') || '-'}`);
  }
  console.log('');
  for (const position of positions) {
    const pages = (position.pages ?? []).map((page, i) => `${page} at ${PAGE_SIZES[i]}`).join(', ');
    const place = position.position === null ? `not listed among ${position.entries}` : `entry ${position.position} of ${position.entries} (page ${pages} a page)`;
    console.log(`GET /v0.1/servers?search=${position.search}${position.version ? `&version=${position.version}` : ''}: ${position.name} is ${place}`);
  }
}
