/** Scrapes the server's metrics once a second while a scenario's load runs: they must answer under load. */

export interface MetricsScrapes {
  /** Scrapes answered 200 with text, and those that failed. */
  readonly scrapes: number;
  readonly failures: number;
  /** The requests the last scrape counted (every sextant_http_request_duration_seconds_count summed). */
  readonly requestsCounted: number | null;
  /** The slowest scrape, ms. */
  readonly slowestMs: number | null;
}

export function scrapeEachSecond(url: string): { stop(): Promise<MetricsScrapes> } {
  let scrapes = 0;
  let failures = 0;
  let requestsCounted: number | null = null;
  let slowestMs: number | null = null;
  let inFlight: Promise<void> = Promise.resolve();
  const once = async (): Promise<void> => {
    const started = performance.now();
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      const text = await response.text();
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      scrapes += 1;
      slowestMs = Math.max(slowestMs ?? 0, Math.round(performance.now() - started));
      requestsCounted = [...text.matchAll(/^sextant_http_request_duration_seconds_count\{[^}]*\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    } catch {
      failures += 1;
    }
  };
  const timer = setInterval(() => {
    inFlight = inFlight.then(once);
  }, 1000);
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
      await once();
      return { scrapes, failures, requestsCounted, slowestMs };
    },
  };
}
