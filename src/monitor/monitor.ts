/**
 * The status monitor: checks every catalogued remote endpoint (and nothing else) with bounded
 * concurrency and spacing between checks of one host, records the results, and lets the tools
 * an endpoint lists enrich the catalog. Runs on an interval in `serve` or once from the CLI.
 */
import { attachEndpointTools } from '../ingest/ingest-service.js';
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
  readonly now?: () => Date;
}

export interface MonitorPassSummary {
  readonly endpoints: number;
  readonly states: Readonly<Record<string, number>>;
  readonly catalogUpdates: number;
}

export const HISTORY = 50;

/** Checks every endpoint once. */
export async function runMonitorPass(store: Store, net: NetClient, logger: Logger, options: MonitorOptions): Promise<MonitorPassSummary> {
  const endpoints = await store.monitor.listEndpoints();
  const byHost = new Map<string, RemoteEndpoint[]>();
  for (const endpoint of endpoints) byHost.set(endpoint.host, [...(byHost.get(endpoint.host) ?? []), endpoint]);
  const queue = [...byHost.values()];
  const states: Record<string, number> = {};
  let catalogUpdates = 0;
  const now = options.now ?? (() => new Date());
  const spacing = options.perHostSpacingMs ?? 1000;

  const checkHost = async (hostEndpoints: readonly RemoteEndpoint[]): Promise<void> => {
    for (const [index, endpoint] of hostEndpoints.entries()) {
      if (index > 0 && spacing > 0) await new Promise((resolve) => setTimeout(resolve, spacing));
      const { check, tools } = await checkEndpoint(net, endpoint, { timeoutMs: options.timeoutMs ?? 10_000, clientVersion: options.clientVersion, now });
      // `unknown` means not checked (a transport we do not probe): nothing to record.
      if (check.state !== 'unknown') await store.monitor.recordCheck(check, options.history ?? HISTORY);
      states[check.state] = (states[check.state] ?? 0) + 1;
      if (tools && tools.length > 0 && (await attachEndpointTools(store, endpoint.serverId, endpoint.url, tools, check.checkedAt))) catalogUpdates += 1;
    }
  };
  const worker = async (): Promise<void> => {
    for (let host = queue.shift(); host; host = queue.shift()) {
      try {
        await checkHost(host);
      } catch (err) {
        logger.error({ err, host: host[0]?.host }, 'monitor check failed');
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return { endpoints: endpoints.length, states, catalogUpdates };
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
