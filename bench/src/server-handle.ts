/**
 * The server under test across a size's scenarios: started, checked for a drained queue
 * between scenarios (restarted when a backlog of slow requests would otherwise leak into the
 * next scenario), its memory sampled while under load.
 */
import type { MeasureHooks } from './load.js';
import { descendantsCpuSeconds, memoryOf, threadCpuOf } from './processes.js';
import type { ServerSetup } from './scenarios.js';
import { startSextant, type Running, type Runtime } from './servers.js';

export interface HandleOptions {
  readonly root: string;
  readonly runtime: Runtime;
  readonly databaseFile: string;
  /** The database's URL when it is not that SQLite file (a PostgreSQL database). */
  readonly databaseUrl?: string;
  readonly cores: string | null;
  /** The cores a scenario on every core runs on (ServerSetup.allCores). */
  readonly allCores?: string | null;
  readonly drainTimeoutSeconds: number;
  readonly cpuProfDir?: string;
  readonly log: (line: string) => void;
}

export class ServerHandle {
  private running: Running | null = null;
  private setup: ServerSetup = {};
  private sampler: NodeJS.Timeout | null = null;
  starts = 0;
  /** Seconds from spawn to /readyz answering 200, for the current instance. */
  readySeconds: number | null = null;
  /** Seconds from spawn to its whole search index (tools too), for the current instance. */
  wholeIndexSeconds: number | null = null;
  /** The same, for every start so far (the first builds the search index; later ones load its snapshot). */
  readonly readyTimes: number[] = [];
  /** performance.now() when the current instance was spawned. */
  spawnedAt = 0;
  /** Highest VmRSS seen while sampling (under load), MB. */
  peakUnderLoadMb: number | null = null;
  /** Highest VmHWM of any instance, MB. */
  hwmMb: number | null = null;

  constructor(private readonly options: HandleOptions) {}

  get url(): string {
    if (!this.running) throw new Error('server not running');
    return this.running.url;
  }

  /** Another handle on the same database and cores: a second server beside this one. */
  twin(): ServerHandle {
    return new ServerHandle(this.options);
  }

  get metricsUrl(): string | null {
    return this.running?.metricsUrl ?? null;
  }

  get pid(): number | null {
    return this.running?.proc.pid ?? null;
  }

  /** Starts the server as `setup` says (kept for a restart), or as before when none is given. */
  async start(setup?: ServerSetup): Promise<void> {
    if (setup) this.setup = setup;
    const { root, runtime, databaseFile, databaseUrl, cpuProfDir } = this.options;
    const cores = this.setup.allCores ? (this.options.allCores ?? null) : this.options.cores;
    this.spawnedAt = performance.now();
    this.running = await startSextant({
      root, runtime, databaseFile, cores, ...(databaseUrl ? { databaseUrl } : {}), ...(cpuProfDir ? { cpuProfDir } : {}),
      workers: this.setup.workers ?? 1, metrics: this.setup.metrics ?? false,
    });
    const seconds = (at: number): number => Math.round((at - this.spawnedAt) / 100) / 10;
    this.readySeconds = seconds(this.running.servingAt ?? performance.now());
    this.wholeIndexSeconds = seconds(performance.now());
    this.readyTimes.push(this.readySeconds);
    this.starts += 1;
  }

  async stop(): Promise<void> {
    this.stopSampling();
    this.noteHwm();
    const running = this.running;
    this.running = null;
    if (running) await running.stop();
  }

  /** Whether /readyz answers within the drain timeout; when it does not, the server is restarted and false returned. */
  async ensureDrained(): Promise<boolean> {
    const started = Date.now();
    try {
      const res = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(this.options.drainTimeoutSeconds * 1000) });
      await res.arrayBuffer();
      if (res.ok) return true;
    } catch {
      // still busy with queued requests
    }
    this.options.log(`server did not answer /readyz within ${this.options.drainTimeoutSeconds} s (${Math.round((Date.now() - started) / 1000)} s): restarting it`);
    await this.stop();
    await this.start();
    return false;
  }

  startSampling(): void {
    this.stopSampling();
    this.sampler = setInterval(() => {
      const pid = this.pid;
      const memory = pid === null ? null : memoryOf(pid);
      if (memory) this.peakUnderLoadMb = Math.max(this.peakUnderLoadMb ?? 0, memory.rssMb);
    }, 250);
  }

  stopSampling(): void {
    if (this.sampler) clearInterval(this.sampler);
    this.sampler = null;
  }

  /** VmRSS and VmHWM now. */
  memory(): { rssMb: number | null; hwmMb: number | null } {
    const pid = this.pid;
    const memory = pid === null ? null : memoryOf(pid);
    this.noteHwm();
    return { rssMb: memory?.rssMb ?? null, hwmMb: this.hwmMb };
  }

  private noteHwm(): void {
    const pid = this.pid;
    const memory = pid === null ? null : memoryOf(pid);
    if (memory) this.hwmMb = Math.max(this.hwmMb ?? 0, memory.hwmMb);
  }
}

export interface CpuShare {
  /** CPU time of the server process over wall time, %, during the measured pass (100 = one core). */
  readonly serverPercent: number | null;
  /** Of which its main (JavaScript) thread. */
  readonly serverMainThreadPercent: number | null;
  /** Of which its other threads (the libuv pool running sqlite3 queries, V8 helpers for GC) and its child processes (the workers of WORKERS=N). */
  readonly serverOtherThreadsPercent: number | null;
  /** The same for this process (the load generator). */
  readonly loadGeneratorPercent: number;
}

/** Hooks that time the CPU used by `pid` (per thread group) and by this process during the measured pass. */
export function cpuProbe(pid: () => number | null, extra: MeasureHooks = {}): { hooks: MeasureHooks; result(): CpuShare } {
  let wall = 0;
  let before: { main: number; others: number } | null = null;
  let own = process.cpuUsage();
  let share: CpuShare = { serverPercent: null, serverMainThreadPercent: null, serverOtherThreadsPercent: null, loadGeneratorPercent: 0 };
  // Its other threads and its child processes (the workers of WORKERS=N) count as "others".
  const threads = (): { main: number; others: number } | null => {
    const id = pid();
    const own = id === null ? null : threadCpuOf(id);
    return own === null || id === null ? null : { main: own.main, others: own.others + descendantsCpuSeconds(id) };
  };
  return {
    hooks: {
      start: () => {
        extra.start?.();
        wall = performance.now();
        before = threads();
        own = process.cpuUsage();
      },
      stop: () => {
        const seconds = (performance.now() - wall) / 1000;
        const used = process.cpuUsage(own);
        const after = threads();
        const percent = (delta: number): number => Math.round((100 * delta) / seconds);
        const main = before && after ? percent(after.main - before.main) : null;
        const others = before && after ? percent(after.others - before.others) : null;
        share = {
          serverPercent: main !== null && others !== null ? main + others : null,
          serverMainThreadPercent: main,
          serverOtherThreadsPercent: others,
          loadGeneratorPercent: Math.round((100 * (used.user + used.system)) / 1e6 / seconds),
        };
        extra.stop?.();
      },
    },
    result: () => share,
  };
}
