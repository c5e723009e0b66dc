/**
 * The status monitor: checks every catalogued remote endpoint (and nothing else) with bounded
 * concurrency and spacing between checks of one host, records the results, and lets the tools
 * an endpoint lists enrich the catalog. Runs on an interval in `serve` or once from the CLI.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { attachEndpointTools } from '../ingest/ingest-service.js';
import type { CatalogPolicy } from '../catalog/catalog-policy.js';
import type { Logger } from '../logger.js';
import type { NetClient } from '../net/index.js';
import type { RemoteEndpoint, Store } from '../store/index.js';
import { checkEndpoint } from './check-endpoint.js';

export interface MonitorOptions {
  readonly concurrency?: number;
  /** Pause between two checks of the same host. */
  readonly perHostSpacingMs?: number;
  readonly timeoutMs?: number;
  /** Checks kept per endpoint. */
  readonly history?: number;
  readonly clientVersion: string;
  /**
   * How long a check holds: an endpoint checked by any instance is not due again for this many
   * seconds (the monitor's interval). 0 checks every endpoint on each pass.
   */
  readonly intervalSeconds?: number;
  /** Names this instance in the schedule's claims. */
  readonly instance?: string;
  readonly now?: () => Date;
  /** The catalog policy: a server whose endpoint's tools it refuses is removed. */
  readonly policy?: CatalogPolicy | null;
}

export interface MonitorPassSummary {
  readonly endpoints: number;
  readonly states: Readonly<Record<string, number>>;
  readonly catalogUpdates: number;
}

export const HISTORY = 50;
/** Endpoints claimed at a time: small batches let several instances share a pass. */
const CLAIM_BATCH = 16;
const INSTANCE = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;

/**
 * Checks every endpoint that is due, claiming them from the shared schedule a batch at a time,
 * so instances on one database split the work and none checks an endpoint another just checked.
 */
export async function runMonitorPass(store: Store, net: NetClient, logger: Logger, options: MonitorOptions): Promise<MonitorPassSummary> {
  const states: Record<string, number> = {};
  let catalogUpdates = 0;
  let endpoints = 0;
  const now = options.now ?? (() => new Date());
  const spacing = options.perHostSpacingMs ?? 1000;
  const intervalMs = (options.intervalSeconds ?? 0) * 1000;
  const lastByHost = new Map<string, number>();

  const checkOne = async (endpoint: RemoteEndpoint): Promise<void> => {
    const wait = (lastByHost.get(endpoint.host) ?? -Infinity) + spacing - Date.now();
    if (wait > 0) await sleep(wait);
    lastByHost.set(endpoint.host, Date.now());
    const { check, tools } = await checkEndpoint(net, endpoint, { timeoutMs: options.timeoutMs ?? 10_000, clientVersion: options.clientVersion, now });
    // `unknown` means not checked (a transport we do not probe): nothing to record.
    if (check.state !== 'unknown') await store.monitor.recordCheck(check, options.history ?? HISTORY);
    states[check.state] = (states[check.state] ?? 0) + 1;
    if (tools && tools.length > 0 && (await attachEndpointTools(store, endpoint.serverId, endpoint.url, tools, check.checkedAt, options.policy ?? null))) catalogUpdates += 1;
  };
  const checkHost = async (hostEndpoints: readonly RemoteEndpoint[]): Promise<void> => {
    for (const endpoint of hostEndpoints) {
      try {
        await checkOne(endpoint);
      } catch (err) {
        // Our side failed (the database, most likely), not the endpoint: counted apart, and the host's next endpoint still gets its turn.
        states.failed = (states.failed ?? 0) + 1;
        logger.error({ err, url: endpoint.url }, 'monitor check failed');
      }
    }
  };

  await store.monitor.scheduleEndpoints();
  // Claims take what was due when the pass began and make it due again after the interval
  // (at least a millisecond later, so a pass never claims an endpoint twice).
  const started = now().getTime();
  const dueBy = new Date(started).toISOString();
  const nextDue = new Date(started + Math.max(1, intervalMs)).toISOString();
  for (;;) {
    const claimed = await store.monitor.claimDue(options.instance ?? INSTANCE, dueBy, nextDue, CLAIM_BATCH);
    if (claimed.length === 0) break;
    endpoints += claimed.length;
    const byHost = new Map<string, RemoteEndpoint[]>();
    for (const endpoint of claimed) byHost.set(endpoint.host, [...(byHost.get(endpoint.host) ?? []), endpoint]);
    const queue = [...byHost.values()];
    const worker = async (): Promise<void> => {
      for (let host = queue.shift(); host; host = queue.shift()) await checkHost(host);
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  }
  return { endpoints, states, catalogUpdates };
}

/** Runs a pass every `intervalSeconds` (never two at once); returns a stop function. */
export function scheduleMonitor(intervalSeconds: number, pass: () => Promise<unknown>, logger: Logger): () => void {
  let running = false;
  const tick = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      await pass();
    } catch (err) {
      logger.error({ err }, 'monitor pass failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalSeconds * 1000);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
