/**
 * A flood on loopback, measured from outside the service's process: `sockets` connections each
 * send `perSocket` pipelined requests of one path at once and never read, while another client
 * (from another loopback address) searches at a steady pace; the service's resident memory
 * is sampled from /proc. When the window ends the flood's sockets are read for a moment (to count
 * what they were answered), then closed.
 */
import { readFileSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface FloodOptions {
  readonly port: number;
  /** The service's process, whose memory is sampled. */
  readonly pid: number;
  /** The flood's request targets (`/compare?ids=…`): the `request`th of socket `socket`. */
  readonly path: (socket: number, request: number) => string;
  readonly sockets: number;
  readonly perSocket: number;
  readonly durationMs: number;
  /** The other client's searches, asked in turn. */
  readonly searches: readonly string[];
  /** The other client's address (a loopback address of its own, so per-client limits tell them apart). */
  readonly searchFrom: string;
  /** How long the flood's sockets are read after the window (their answers counted). */
  readonly drainMs?: number;
}

export interface FloodReport {
  readonly searches: number;
  readonly searchP50Ms: number;
  readonly searchP99Ms: number;
  readonly searchMaxMs: number;
  /** The other client's answers by status. */
  readonly searchStatuses: Readonly<Record<string, number>>;
  readonly rssBeforeMb: number;
  readonly rssPeakMb: number;
  /** Answers the flood's sockets had received by the end of the drain, by status (a 503 without `Retry-After` apart). */
  readonly floodStatuses: Readonly<Record<string, number>>;
}

export async function flood(options: FloodOptions): Promise<FloodReport> {
  const rssBefore = rssMb(options.pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssMb(options.pid));
  }, 100);
  const floodStatuses: Record<string, number> = {};
  const sockets = await Promise.all(Array.from({ length: options.sockets }, (_, i) => floodSocket(options, i, floodStatuses)));
  const searched = await searchUntil(options, Date.now() + options.durationMs);
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, rssMb(options.pid));
  for (const socket of sockets) socket.resume();
  await new Promise((resolve) => setTimeout(resolve, options.drainMs ?? 1500));
  for (const socket of sockets) socket.destroy();
  const sorted = [...searched.times].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return {
    searches: sorted.length,
    searchP50Ms: round(at(0.5)),
    searchP99Ms: round(at(0.99)),
    searchMaxMs: round(sorted.at(-1) ?? Number.NaN),
    searchStatuses: searched.statuses,
    rssBeforeMb: round(rssBefore),
    rssPeakMb: round(rssPeak),
    floodStatuses,
  };
}

/** One flooding connection: every request written at once, nothing read until it is resumed; the statuses of the answers it then reads are counted. */
async function floodSocket(options: FloodOptions, index: number, statuses: Record<string, number>): Promise<Socket> {
  const socket = connect({ host: '127.0.0.1', port: options.port });
  socket.pause();
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const one = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${options.port}\r\nAccept: text/html\r\n\r\n`;
  socket.write(Array.from({ length: options.perSocket }, (_, request) => one(options.path(index, request))).join(''));
  let buffered = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffered.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? Number.NaN);
      if (!Number.isFinite(length) || buffered.length < end + 4 + length) return;
      const code = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 'unparsed';
      // A 503 is counted apart when it does not say when to come back.
      const status = code === '503' && !/\r\nretry-after: *\d+/i.test(head) ? '503 without Retry-After' : code;
      statuses[status] = (statuses[status] ?? 0) + 1;
      buffered = buffered.subarray(end + 4 + length);
    }
  });
  return socket;
}

/**
 * The other client: a search every `SEARCH_EVERY_MS` until `deadline`, each timed from when it
 * was due, whether or not the ones before have been answered (a stall shows in every search it
 * holds up, not as one slow sample).
 */
async function searchUntil(options: FloodOptions, deadline: number): Promise<{ times: number[]; statuses: Record<string, number> }> {
  const agent = new Agent({ keepAlive: true });
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const pending: Array<Promise<void>> = [];
  try {
    for (let i = 0; Date.now() < deadline; i += 1) {
      const path = options.searches[i % options.searches.length] ?? '/';
      const started = performance.now();
      pending.push(get(options.port, path, options.searchFrom, agent).then((status) => {
        times.push(performance.now() - started);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }));
      await new Promise((resolve) => setTimeout(resolve, SEARCH_EVERY_MS));
    }
    await Promise.all(pending);
  } finally {
    agent.destroy();
  }
  return { times, statuses };
}

const SEARCH_EVERY_MS = 50;

function get(port: number, path: string, localAddress: string, agent: Agent): Promise<string> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress, agent, timeout: 60_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve('error'));
    req.end();
  });
}

function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

const round = (n: number): number => Math.round(n * 10) / 10;
