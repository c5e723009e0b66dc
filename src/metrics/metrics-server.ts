/**
 * The metrics' own HTTP listener (METRICS_HOST:METRICS_PORT, loopback unless configured): apart
 * from the public port, so the service's internals are not published with its API, and a scrape
 * never waits behind the public port's rate limits or queues.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { Logger } from '../logger.js';

/** The exposition text and its media type, from one process's registry or every worker's. */
export type ScrapeText = () => Promise<{ readonly contentType: string; readonly text: string }>;

/** Listens on `host:port` and answers `GET /metrics` with `scrape()`'s text; anything else is a 404. */
export async function serveMetrics(scrape: ScrapeText, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics are at GET /metrics.\n');
      return;
    }
    scrape().then(
      ({ contentType, text }) => {
        res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`metrics could not be collected: ${err instanceof Error ? err.message : String(err)}\n`);
      },
    );
  });
  server.listen(port, host);
  await once(server, 'listening');
  return server;
}

/**
 * The metrics port as configured, its address logged; or null, with an error logged, when it
 * cannot be had: serving goes on without metrics (a second `serve` on one machine must not fail for it).
 */
export async function openMetricsPort(scrape: ScrapeText, where: { readonly metricsHost: string; readonly metricsPort: number }, logger: Logger): Promise<Server | null> {
  try {
    const server = await serveMetrics(scrape, where.metricsHost, where.metricsPort);
    const address = server.address();
    logger.info({ url: `http://${where.metricsHost}:${typeof address === 'object' && address ? address.port : where.metricsPort}/metrics` }, 'metrics are served');
    return server;
  } catch (err) {
    logger.error({ err: err instanceof Error ? err.message : String(err) }, 'the metrics port could not be opened (METRICS_PORT): serving without metrics');
    return null;
  }
}
