/**
 * The scenarios, built against a running server from the corpus manifest and from ids read off
 * the server itself, and a preflight that checks each scenario answers (2xx, non-empty) and
 * times a sample of its requests one at a time.
 */
import type { CorpusManifest } from './corpus.js';
import type { LoadRequest } from './load.js';

export type Expect = 'page' | 'record' | 'mcp' | 'html' | 'registry';

export interface Scenario {
  readonly name: string;
  readonly label: string;
  readonly requests: readonly LoadRequest[];
  /** A label per request (the query kind), for the preflight's per-kind latency. */
  readonly kinds: readonly string[];
  readonly expect: Expect;
  /** How the server runs for this scenario, where not as for the others. */
  readonly server?: ServerSetup;
  /** Two servers set up so, loaded in turn (paired.ts): the second's req/s over the first's. */
  readonly pair?: readonly [ServerSetup, ServerSetup];
}

/** A server run otherwise than alone on its core: with WORKERS, on every core, with metrics scraped. */
export interface ServerSetup {
  readonly workers?: number;
  /** Not pinned: the server (and its workers) share every core with the load generator. */
  readonly allCores?: boolean;
  /** METRICS_PORT on, and scraped once a second during the measured pass. */
  readonly metrics?: boolean;
}

export const MCP_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

const AUTHENTICATIONS = ['none', 'api_key', 'unknown'] as const;

type JsonValue = unknown;

function field(value: JsonValue, key: string): JsonValue {
  return typeof value === 'object' && value !== null && key in value ? Object.getOwnPropertyDescriptor(value, key)?.value : undefined;
}

function arrayOf(value: JsonValue): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

function stringsAt(items: JsonValue[], key: string): string[] {
  return items.map((item) => field(item, key)).filter((v): v is string => typeof v === 'string');
}

/** GET a JSON document from the server under test (bounded by `timeoutMs`). */
export async function getJson(base: string, path: string, timeoutMs = 30_000): Promise<JsonValue> {
  const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text);
}

const get = (path: string, kind = 'request', headers?: Readonly<Record<string, string>>): { request: LoadRequest; kind: string } => ({ request: { method: 'GET', path, ...(headers ? { headers } : {}) }, kind });

/**
 * What VS Code's MCP gallery offers: it reads the registry API through Chromium's network stack,
 * which offers these encodings on every request (the other scenarios offer none, as curl).
 */
const CHROMIUM_ENCODINGS: Readonly<Record<string, string>> = { 'accept-encoding': 'gzip, deflate, br, zstd' };

function scenario(name: string, label: string, expect: Expect, items: Array<{ request: LoadRequest; kind: string }>): Scenario {
  return { name, label, expect, requests: items.map((i) => i.request), kinds: items.map((i) => i.kind) };
}

/** `count` offsets spread evenly over [from, to], multiples of `step`. */
function spread(from: number, to: number, count: number, step: number): number[] {
  if (to <= from) return [Math.max(0, from)];
  const out = new Set<number>();
  for (let i = 0; i < count; i += 1) out.add(Math.floor((from + ((to - from) * i) / Math.max(1, count - 1)) / step) * step);
  return [...out];
}

/** Server ids from a-z pages spread over the catalog, and tool ids from some of those servers' records. */
async function readIds(base: string, total: number): Promise<{ servers: string[]; tools: string[] }> {
  const servers: string[] = [];
  for (const offset of spread(0, Math.max(0, Math.min(10_000, total - 100)), 10, 1)) {
    servers.push(...stringsAt(arrayOf(field(await getJson(base, `/api/v1/servers/search?sort=a-z&limit=100&offset=${offset}`), 'items')), 'id'));
  }
  const tools: string[] = [];
  const step = Math.max(1, Math.floor(servers.length / 150));
  for (let i = 0; i < servers.length && tools.length < 1500; i += step) {
    tools.push(...stringsAt(arrayOf(field(await getJson(base, `/api/v1/servers/${encodeURIComponent(servers[i] ?? '')}`), 'tools')), 'id'));
  }
  return { servers: [...new Set(servers)], tools: [...new Set(tools)] };
}

/** The frame of a 12-word request as a person or an agent types it: five stop words around seven words of the corpus. */
const SENTENCE = ['please', '#', 'the', '#', '#', 'and', '#', 'my', '#', 'for', '#', '#'] as const;

/**
 * About 300 sentences of 12 words, their seven content words taken in turn from the corpus's
 * queries (common, mid and rare words, pairs split), so that few documents hold all of them.
 */
export function sentencesOf(queries: ReadonlyArray<{ readonly q: string; readonly kind: string }>, count = 300): string[] {
  const words = queries.filter((query) => query.kind !== 'prefix' && query.kind !== 'broad').flatMap((query) => query.q.split(' '));
  if (words.length === 0) return [];
  const out: string[] = [];
  let next = 0;
  for (let i = 0; i < count; i += 1) {
    out.push(SENTENCE.map((part) => (part === '#' ? (words[next++ % words.length] as string) : part)).join(' '));
  }
  return out;
}

/** Every scenario, in the order they run. */
export async function buildScenarios(base: string, manifest: CorpusManifest): Promise<Scenario[]> {
  const first = await getJson(base, '/api/v1/servers/search?sort=a-z&limit=1');
  const total = Number(field(first, 'total') ?? 0);
  const categories = stringsAt(arrayOf(field(await getJson(base, '/api/v1/categories'), 'items')), 'slug');
  const ids = await readIds(base, total);
  const q = (text: string): string => encodeURIComponent(text);
  const serverQueries = manifest.serverQueries;
  const pageOffsets = spread(0, Math.min(980, Math.max(0, total - 20)), 50, 20);
  const deepOffsets = spread(Math.min(5000, Math.floor(total / 2)), Math.min(10_000, Math.max(0, total - 20)), 50, 20);
  const mcpBody = (text: string): string =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_servers', arguments: { q: text } } });
  const searchAz = scenario('search-az', 'server search, a-z', 'page', [
    ...pageOffsets.map((o) => get(`/api/v1/servers/search?sort=a-z&offset=${o}`, 'a-z')),
    ...categories.map((c) => get(`/api/v1/servers/search?sort=a-z&category=${c}`, 'a-z+category')),
  ]);
  return [
    scenario('search-q', 'server search, q', 'page', serverQueries.map((s) => get(`/api/v1/servers/search?q=${q(s.q)}`, s.kind))),
    searchAz,
    // What metrics cost and what a second worker gives, each a pair of servers loaded in turn
    // (paired.ts), on pages soon all kept: the requests' own cost, not each page's first computation.
    { ...searchAz, name: 'metrics-cost', label: 'a-z pages: metrics on and scraped / off', pair: [{}, { metrics: true }] },
    { ...searchAz, name: 'workers', label: 'a-z pages: WORKERS=2 / 1, both on both cores', pair: [{ workers: 1, allCores: true }, { workers: 2, allCores: true }] },
    scenario('search-tools', 'server search, sort=tools', 'page', pageOffsets.map((o) => get(`/api/v1/servers/search?sort=tools&offset=${o}`, 'tools'))),
    scenario('deep-offset', 'server search, offset ≤ 10000', 'page', deepOffsets.flatMap((o) => [
      get(`/api/v1/servers/search?sort=a-z&offset=${o}`, 'a-z'),
      get(`/api/v1/servers/search?sort=newest&offset=${o}`, 'newest'),
    ])),
    scenario('tool-search', 'tool search, q + authentication', 'page', manifest.toolQueries.map((t, i) =>
      get(`/api/v1/tools/search?q=${q(t.q)}&authentication=${AUTHENTICATIONS[i % AUTHENTICATIONS.length] ?? 'none'}`, t.kind))),
    scenario('search-sentence', 'server search, a 12-word sentence', 'page', sentencesOf(serverQueries).map((text) => get(`/api/v1/servers/search?q=${q(text)}`, 'sentence'))),
    scenario('tool-sentence', 'tool search, a 12-word sentence', 'page', sentencesOf(manifest.toolQueries).map((text) => get(`/api/v1/tools/search?q=${q(text)}`, 'sentence'))),
    scenario('get-server', 'get server by id', 'record', ids.servers.map((id) => get(`/api/v1/servers/${q(id)}`, 'server'))),
    scenario('get-tool', 'get tool by id', 'record', ids.tools.map((id) => get(`/api/v1/tools/${q(id)}`, 'tool'))),
    scenario('legacy-search', 'older /api/search, q', 'page', [...serverQueries].reverse().map((s) => get(`/api/search?q=${q(s.q)}`, s.kind))),
    // VS Code's gallery search: the MCP Registry API, latest versions, a name's part (the query's first word).
    scenario('registry-search', 'registry API: /v0.1/servers?search', 'registry', serverQueries.map((s) => get(`/v0.1/servers?limit=50&version=latest&search=${q(s.q.split(' ')[0] ?? s.q)}`, s.kind, CHROMIUM_ENCODINGS))),
    scenario('web-search', 'web: search results page, q', 'html', serverQueries.map((s) => get(`/servers?q=${q(s.q)}`, s.kind))),
    scenario('web-server', 'web: server page', 'html', ids.servers.map((id) => get(`/servers/${q(id)}`, 'server'))),
    scenario('mcp-search', 'MCP tools/call search_servers', 'mcp', serverQueries.map((s) => ({
      request: { method: 'POST', path: '/mcp', body: mcpBody(s.q), headers: MCP_HEADERS },
      kind: s.kind,
    }))),
  ];
}

export interface Preflight {
  readonly sampled: number;
  readonly ok: number;
  /** 2xx answers with no items (or an MCP tool error). */
  readonly empty: number;
  readonly failures: readonly string[];
  readonly medianMs: number;
  readonly medianBytes: number;
  /** Median single-request latency per request kind. */
  readonly byKind: Readonly<Record<string, { readonly n: number; readonly medianMs: number }>>;
  /** Whether the budget ran out before every sample was sent. */
  readonly cut: boolean;
}

/** Sends up to `samples` of the scenario's requests one by one, each within `perRequestMs`, all within `budgetMs`. */
export async function preflight(base: string, s: Scenario, samples: number, perRequestMs: number, budgetMs: number): Promise<Preflight> {
  const started = Date.now();
  const picks = samplesOf(s, samples);
  const times: number[] = [];
  const sizes: number[] = [];
  const kinds = new Map<string, number[]>();
  const failures: string[] = [];
  let ok = 0;
  let empty = 0;
  let sent = 0;
  for (const index of picks) {
    if (Date.now() - started > budgetMs) break;
    const request = s.requests[index];
    if (!request) continue;
    sent += 1;
    const t0 = performance.now();
    try {
      const res = await fetch(`${base}${request.path}`, {
        method: request.method,
        headers: request.headers ? { ...request.headers } : undefined,
        body: request.body,
        signal: AbortSignal.timeout(perRequestMs),
      });
      const text = await res.text();
      const ms = performance.now() - t0;
      if (!res.ok) {
        failures.push(`${request.method} ${request.path}: HTTP ${res.status} ${text.slice(0, 160)}`);
        continue;
      }
      ok += 1;
      times.push(ms);
      sizes.push(Buffer.byteLength(text));
      const kind = s.kinds[index] ?? 'request';
      kinds.set(kind, [...(kinds.get(kind) ?? []), ms]);
      if (isEmpty(s.expect, text)) empty += 1;
    } catch (err) {
      failures.push(`${request.method} ${request.path}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const byKind: Record<string, { n: number; medianMs: number }> = {};
  for (const [kind, list] of [...kinds].sort()) byKind[kind] = { n: list.length, medianMs: round(median(list)) };
  return { sampled: sent, ok, empty, failures: failures.slice(0, 5), medianMs: round(median(times)), medianBytes: Math.round(median(sizes)), byKind, cut: sent < picks.length };
}

/** Evenly spaced indexes, and for the search scenarios as many of each query kind as possible. */
function samplesOf(s: Scenario, samples: number): number[] {
  const byKind = new Map<string, number[]>();
  s.kinds.forEach((kind, i) => byKind.set(kind, [...(byKind.get(kind) ?? []), i]));
  const per = Math.max(1, Math.ceil(samples / byKind.size));
  const out: number[] = [];
  for (let round = 0; round < per; round += 1) {
    for (const list of byKind.values()) {
      const index = list[Math.floor((round * list.length) / per)];
      if (index !== undefined && !out.includes(index)) out.push(index);
    }
  }
  return out.slice(0, samples);
}

function isEmpty(expect: Expect, text: string): boolean {
  if (expect === 'html') return !text.startsWith('<!doctype html>');
  try {
    const doc: JsonValue = JSON.parse(text);
    if (expect === 'page') return arrayOf(field(doc, 'items')).length === 0;
    if (expect === 'registry') return arrayOf(field(doc, 'servers')).length === 0;
    if (expect === 'mcp') return field(field(doc, 'result'), 'isError') === true || field(doc, 'error') !== undefined;
    return false;
  } catch {
    return true;
  }
}

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
