/**
 * The labelled search set (test/fixtures/search-relevance) run against the real catalog: the
 * three files of ../shared/data ingested into a store, each engine that answers relevance
 * searches asked through the registry service (what REST and MCP callers get), and the plain
 * OR-bm25 baseline over the same records. Used by test/integration/search-quality-labelled.test.ts
 * and scripts/search-quality.ts.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ingest } from '../../src/ingest/ingest-service.js';
import { searchThrough } from '../../src/search/engine-choice.js';
import { createDiscoveryService, type ServerSearchInput, type ToolSearchInput } from '../../src/discovery/discovery-service.js';
import { createMemoryEngine, createSqlEngine, type EngineName, type SearchEngine } from '../../src/search/index.js';
import type { Store } from '../../src/store/index.js';
import type { ServerPage, ToolPage } from '../../src/types.js';
import { DATA_DIR, DATA_FILES } from './category-agreement.js';
import { plainBm25, score, summarize, type Grades, type PlainDocument, type Scored, type Summary } from './relevance-metrics.js';

export const KINDS = ['servers', 'tools'] as const;
export type Kind = (typeof KINDS)[number];

/** One labelled request. */
export interface LabelledRequest {
  readonly request: string;
  /** How it is phrased: keywords, question, task, sentence, or an agent's whole task (agent). */
  readonly form: string;
  /** ISO 639-1 code. */
  readonly language: string;
  readonly relevant: Grades;
}

export type LabelledSet = Readonly<Record<Kind, readonly LabelledRequest[]>>;

/** Results asked of every search. */
export const PAGE = 10;

function isRequest(value: unknown): value is LabelledRequest {
  if (typeof value !== 'object' || value === null) return false;
  const { request, form, language, relevant } = { request: null, form: null, language: null, relevant: null, ...value };
  return typeof request === 'string' && typeof form === 'string' && typeof language === 'string' && typeof relevant === 'object' && relevant !== null
    && Object.values(relevant).every((grade) => grade === 1 || grade === 2);
}

/**
 * The committed sets, checked for shape as they are read: `labelled` (servers.json, tools.json),
 * and `held-out` (holdout-*.json), written after the search rules were tuned and never used to
 * tune them.
 */
export const SETS = ['labelled', 'held-out'] as const;
export type SetName = (typeof SETS)[number];

export function loadLabelledSet(name: SetName = 'labelled'): LabelledSet {
  const read = (kind: Kind): LabelledRequest[] => {
    const file = new URL(`../fixtures/search-relevance/${name === 'held-out' ? 'holdout-' : ''}${kind}.json`, import.meta.url);
    const { requests } = { requests: null, ...JSON.parse(readFileSync(file, 'utf8')) };
    if (!Array.isArray(requests) || !requests.every(isRequest)) throw new Error(`${file.pathname}: not a list of labelled requests`);
    return requests;
  };
  return { servers: read('servers'), tools: read('tools') };
}

/** `value[key]` of parsed JSON or YAML, undefined where there is no such field. */
export function fieldOf(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? Object.entries(value).find(([k]) => k === key)?.[1] : undefined;
}

/** The longest `q` the contract lets a search route take (a longer one is refused with 400). */
export function contractQueryLimit(): number {
  const contract: unknown = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
  const limit = ['components', 'parameters', 'Query', 'schema', 'maxLength'].reduce(fieldOf, contract);
  if (typeof limit !== 'number') throw new Error('openapi.yaml: no maxLength on the shared q parameter (components.parameters.Query)');
  return limit;
}

/** Ingests the three real upstream files into `store` (migrated). */
export async function ingestRealData(store: Store): Promise<void> {
  await ingest(store, DATA_FILES.map((file) => ({ file, text: readFileSync(`${DATA_DIR}${file}`, 'utf8') })));
}

/** Every id of the catalog, by kind. */
export async function catalogIds(store: Store): Promise<Record<Kind, Set<string>>> {
  const { sql } = store.searchSource;
  const ids = async (table: string): Promise<Set<string>> => new Set((await sql.all<{ id: string }>(`SELECT id FROM ${table}`)).map((row) => row.id));
  return { servers: await ids('servers'), tools: await ids('tools') };
}

/** The baseline's documents: servers' name, title, description; tools' name, title, description and server name. */
export async function plainDocuments(store: Store): Promise<Record<Kind, PlainDocument[]>> {
  const { sql } = store.searchSource;
  const join = (...fields: Array<string | null>): string => fields.filter((f) => f !== null).join(' ');
  const servers = await sql.all<{ id: string; name: string; title: string | null; description: string }>('SELECT id, name, title, description FROM servers');
  const tools = await sql.all<{ id: string; name: string; title: string | null; description: string; server: string }>(
    'SELECT t.id, t.name, t.title, t.description, s.name AS server FROM tools t JOIN servers s ON s.id = t.server_id',
  );
  return {
    servers: servers.map((r) => ({ id: r.id, text: join(r.name, r.title, r.description) })),
    tools: tools.map((r) => ({ id: r.id, text: join(r.name, r.title, r.description, r.server) })),
  };
}

/** A way to answer a request: the ids of its first PAGE results. */
export type Searcher = (kind: Kind, q: string) => Promise<string[]>;

/** The plain OR-bm25 over the catalog's records. */
export async function baselineSearcher(store: Store): Promise<Searcher> {
  const documents = await plainDocuments(store);
  const index = { servers: plainBm25(documents.servers), tools: plainBm25(documents.tools) };
  return async (kind, q) => index[kind].search(q, PAGE);
}

/** The registry service's searches, at the catalog's generation of the moment (as the read model asks them). */
export interface ServiceSearches {
  searchServers(input: ServerSearchInput): Promise<ServerPage>;
  searchTools(input: ToolSearchInput): Promise<ToolPage>;
}

/** An engine as callers meet it: the registry service over it, and how often it passed a search on. */
export interface MeasuredEngine {
  readonly name: EngineName;
  readonly registry: ServiceSearches;
  /** Searches it declined, which the SQL engine behind it answered. */
  readonly declined: { count: number };
  close(): void;
}

/** `engine`, counting the searches it declines. */
function counting(engine: SearchEngine, declined: { count: number }): SearchEngine {
  const note = <T>(page: T | null): T | null => {
    if (page === null) declined.count += 1;
    return page;
  };
  return {
    name: engine.name,
    scoring: engine.scoring,
    searchServers: async (query, generation) => note(await engine.searchServers(query, generation)),
    searchTools: async (query, generation) => note(await engine.searchTools(query, generation)),
    rankServers: async (query, generation) => note(await engine.rankServers(query, generation)),
  };
}

/**
 * The engines of `store`'s database, each behind its own registry service: the in-memory engine
 * first (its SQL engine behind it, as the composition root orders them), then the SQL engine alone.
 */
export async function measuredEngines(store: Store): Promise<MeasuredEngine[]> {
  const generation = () => store.contentGeneration();
  const sql = createSqlEngine(store.searchSource);
  const memory = createMemoryEngine(store.searchSource, () => store.contentGeneration(true));
  if (!(await memory.warm())) throw new Error('the in-memory engine could not build its index');
  const service = (engines: SearchEngine[]): ServiceSearches => {
    const discovery = createDiscoveryService({ catalog: store.catalog, search: searchThrough(engines), monitor: store.monitor });
    return {
      searchServers: async (input) => discovery.searchServers(input, await generation()),
      searchTools: async (input) => discovery.searchTools(input, await generation()),
    };
  };
  const memoryDeclined = { count: 0 };
  return [
    { name: 'memory', registry: service([counting(memory, memoryDeclined), sql]), declined: memoryDeclined, close: () => memory.close() },
    { name: sql.name, registry: service([sql]), declined: { count: 0 }, close: () => undefined },
  ];
}

/**
 * Answers as the search routes give them: through the registry service, a PAGE of results; a
 * request longer than the contract's `q` allows is refused there (400), so it gets nothing.
 */
export function serviceSearcher(registry: ServiceSearches, queryLimit: number, refused: { count: number }): Searcher {
  return async (kind, q) => {
    if ([...q].length > queryLimit) {
      refused.count += 1;
      return [];
    }
    const page = kind === 'servers' ? await registry.searchServers({ q, limit: PAGE }) : await registry.searchTools({ q, limit: PAGE });
    return page.items.map((item) => item.id);
  };
}

/** One request's answer and its score. */
export interface Answered extends Scored {
  readonly request: string;
  readonly ranked: readonly string[];
}

export interface Measured {
  readonly summary: Summary;
  readonly answers: readonly Answered[];
}

/** Runs every request of `requests` through `search`, one after another. */
export async function measure(kind: Kind, requests: readonly LabelledRequest[], search: Searcher): Promise<Measured> {
  const answers: Answered[] = [];
  for (const { request, relevant } of requests) {
    const ranked = await search(kind, request);
    answers.push({ request, ranked, ...score(ranked, relevant) });
  }
  return { summary: summarize(answers), answers };
}
