/**
 * `sextant sync`: pulls the official registry's `/v0.1/servers` page by page through the
 * guarded network client, from `updated_since` of the last successful run, into a file ingest
 * then streams, and ingests the whole run in one transaction; a failed page leaves the catalog as it was, and the next run
 * starts again from the same point.
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CatalogPolicy } from '../catalog/catalog-policy.js';
import type { NetClient } from '../net/index.js';
import type { Store } from '../store/index.js';
import { ingest, type IngestSummary } from './ingest-service.js';

export const OFFICIAL_REGISTRY = 'https://registry.modelcontextprotocol.io';

export interface SyncOptions {
  readonly upstream?: string;
  readonly pageSize?: number;
  readonly now?: () => Date;
  readonly onPage?: (pages: number, records: number) => void;
  readonly onProgress?: (done: number, total: number) => void;
  /** Stops the run before its next page, or its ingest as `IngestOptions.signal` says; nothing is changed. */
  readonly signal?: AbortSignal;
  /** Pulls every page, whatever the last run pulled (a widened catalog policy asks for it). */
  readonly full?: boolean;
  /** The catalog policy: ingest keeps only the servers it admits. */
  readonly policy?: CatalogPolicy | null;
}

export interface SyncSummary extends IngestSummary {
  readonly upstream: string;
  readonly pages: number;
  readonly since: string | null;
}

/** Raised when a page cannot be fetched or read; nothing was written. */
export class SyncError extends Error {
  override name = 'SyncError';
}

const MAX_PAGES = 10_000;
const MAX_PAGE_BYTES = 32 * 1024 * 1024;

export async function sync(store: Store, net: NetClient, options: SyncOptions = {}): Promise<SyncSummary> {
  const upstream = (options.upstream ?? OFFICIAL_REGISTRY).replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());
  const since = options.full ? null : await store.monitor.lastSyncStart(upstream);
  const startedAt = now().toISOString();
  const run = await store.monitor.startRun('sync', upstream, startedAt);
  // Pages are written to a file as they come and ingest streams it: memory holds one page.
  const dir = await mkdtemp(join(tmpdir(), 'sextant-sync-'));
  const file = join(dir, 'servers.json');
  try {
    const out = await open(file, 'w');
    let entries = 0;
    let cursor: string | null = null;
    let pages = 0;
    try {
      await out.write('{"servers":[');
      do {
      const url = new URL(`${upstream}/v0.1/servers`);
      url.searchParams.set('limit', String(options.pageSize ?? 100));
      if (cursor) url.searchParams.set('cursor', cursor);
      if (since) url.searchParams.set('updated_since', since);
        options.signal?.throwIfAborted();
        const page = await fetchPage(net, url.toString());
        if (page.servers.length > 0) await out.write(`${entries > 0 ? ',' : ''}${page.servers.map((entry) => JSON.stringify(entry)).join(',')}`);
        entries += page.servers.length;
        cursor = page.nextCursor;
        pages += 1;
        options.onPage?.(pages, entries);
      } while (cursor && pages < MAX_PAGES);
      await out.write(']}');
    } finally {
      await out.close();
    }
    const summary = entries === 0
      ? { records: 0, added: 0, updated: 0, unchanged: 0, servers: await store.catalog.countServers(), tools: 0, notAdmitted: 0, sources: [], seconds: 0 }
      : await ingest(store, [{ file: `${upstream}/v0.1/servers`, path: file }], { now, signal: options.signal, policy: options.policy ?? null, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
    await store.monitor.finishRun(run, now().toISOString(), 'complete', entries, null);
    return { ...summary, upstream, pages, since };
  } catch (err) {
    await store.monitor.finishRun(run, now().toISOString(), 'failed', 0, err instanceof Error ? err.message : String(err));
    throw err;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function fetchPage(net: NetClient, url: string): Promise<{ servers: unknown[]; nextCursor: string | null }> {
  const response = await net.request({ method: 'GET', url, headers: { accept: 'application/json' }, maxResponseBytes: MAX_PAGE_BYTES });
  if (response.status !== 200) throw new SyncError(`${url}: HTTP ${response.status}`);
  let body: unknown;
  try {
    body = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new SyncError(`${url}: the page is not JSON`);
  }
  if (typeof body !== 'object' || body === null || !Array.isArray(Reflect.get(body, 'servers'))) throw new SyncError(`${url}: the page has no servers array`);
  const servers: unknown[] = Reflect.get(body, 'servers');
  const metadata: unknown = Reflect.get(body, 'metadata');
  const next = typeof metadata === 'object' && metadata !== null ? Reflect.get(metadata, 'nextCursor') : undefined;
  return { servers, nextCursor: typeof next === 'string' && next !== '' ? next : null };
}
