/**
 * The load generator: autocannon in this process, rotating through a list of requests (one
 * per `setupRequest` call, shared by all connections), a short warm-up first, then the measured
 * run. Latencies are recorded here with sub-millisecond precision (autocannon's own histogram
 * has 1 ms resolution); its counters give errors, timeouts and status classes.
 */
import autocannon from 'autocannon';

export interface LoadRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface LoadOptions {
  readonly connections: number;
  readonly seconds: number;
  readonly warmupSeconds: number;
  /** Seconds before a request counts as timed out (an error). */
  readonly timeoutSeconds: number;
  /** Where the measured pass also records each latency: percentiles over several passes. */
  readonly record?: Latencies;
}

export interface LoadResult {
  /** Responses received in the measured pass. */
  readonly requests: number;
  /** Requests sent that got neither a response nor an error before the pass ended. */
  readonly unanswered: number;
  readonly seconds: number;
  readonly rps: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  /** Connection errors, timeouts included. */
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly statusCodes: Readonly<Record<string, number>>;
  readonly bytesPerSecond: number;
  /** autocannon's own (1 ms resolution) percentiles, for comparison. */
  readonly autocannon: { readonly p50: number; readonly p99: number; readonly rpsMean: number };
}

/** Called just before and just after the measured pass (CPU and memory probes). */
export interface MeasureHooks {
  readonly start?: () => void;
  readonly stop?: () => void;
}

/** Runs one warm-up and one measured pass against `url` with the rotating `requests`. */
export async function runLoad(url: string, requests: readonly LoadRequest[], options: LoadOptions, hooks: MeasureHooks = {}): Promise<LoadResult> {
  if (requests.length === 0) throw new Error('no requests to send');
  // One rotation across both passes: the measured pass goes on where the warm-up stopped, so it does not replay what the warm-up just cached.
  const rotation = { next: 0 };
  if (options.warmupSeconds > 0) await pass(url, requests, rotation, options.connections, options.warmupSeconds, options.timeoutSeconds);
  hooks.start?.();
  try {
    return await pass(url, requests, rotation, options.connections, options.seconds, options.timeoutSeconds, options.record);
  } finally {
    hooks.stop?.();
  }
}

/**
 * Makes each autocannon client drop the bodies it receives instead of decoding them into a string:
 * decoding non-ASCII or compressed bodies would bound a scenario by the load generator, not the server.
 */
function skipBodies(client: unknown): void {
  const queue: unknown = typeof client === 'object' && client !== null ? Reflect.get(client, 'pipelinedRequests') : undefined;
  if (typeof queue === 'object' && queue !== null) Reflect.set(queue, 'addBody', () => undefined);
}

async function pass(url: string, requests: readonly LoadRequest[], rotation: { next: number }, connections: number, seconds: number, timeoutSeconds: number, record?: Latencies): Promise<LoadResult> {
  const latencies = new Latencies();
  const only = requests.length === 1 ? requests[0] : undefined;
  // One request: a static one, so the load generator spends nothing on rebuilding it.
  const options: autocannon.Options = only
    ? { url: `${url}${only.path}`, connections, duration: seconds, timeout: timeoutSeconds, method: only.method, body: only.body, headers: { ...only.headers }, setupClient: skipBodies }
    : {
        url,
        connections,
        setupClient: skipBodies,
        duration: seconds,
        timeout: timeoutSeconds,
        requests: [
          {
            setupRequest: (request) => {
              const chosen = requests[rotation.next % requests.length] ?? requests[0];
              rotation.next += 1;
              if (chosen === undefined) return request;
              return { ...request, method: chosen.method, path: chosen.path, body: chosen.body, headers: { ...request.headers, ...chosen.headers } };
            },
          },
        ],
      };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (err: unknown, done: autocannon.Result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(done)));
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.add(responseTime);
      record?.add(responseTime);
    });
  });
  const codes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) codes[code] = stat.count ?? 0;
  const duration = result.duration > 0 ? result.duration : seconds;
  return {
    requests: latencies.count,
    unanswered: Math.max(0, result.requests.sent - latencies.count - result.errors),
    seconds: round(duration, 2),
    rps: round(latencies.count / duration, 1),
    p50: round(latencies.percentile(50), 2),
    p90: round(latencies.percentile(90), 2),
    p99: round(latencies.percentile(99), 2),
    max: round(latencies.percentile(100), 2),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: codes,
    bytesPerSecond: Math.round(result.throughput.average),
    autocannon: { p50: result.latency.p50, p99: result.latency.p99, rpsMean: result.requests.average },
  };
}

/** A growable list of latencies in ms. */
export class Latencies {
  private values = new Float64Array(1 << 16);
  private sorted: Float64Array | null = null;
  count = 0;

  add(ms: number): void {
    if (this.count === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.count] = ms;
    this.count += 1;
    this.sorted = null;
  }

  /** Nearest-rank percentile; NaN when nothing was recorded. */
  percentile(p: number): number {
    if (this.count === 0) return Number.NaN;
    this.sorted ??= this.values.slice(0, this.count).sort();
    const sorted = this.sorted;
    const rank = Math.min(this.count - 1, Math.max(0, Math.ceil((p / 100) * this.count) - 1));
    return sorted[rank] ?? Number.NaN;
  }
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
