/**
 * What metrics cost, counted in instructions rather than timed: this machine's speed moves by
 * more than the few percent asked of metrics, even between passes seconds apart, while
 * valgrind's instruction count for the same requests hardly moves. The built `serve` (`dist/`)
 * runs under callgrind on the demo catalog, with metrics off and then on; after a warm-up, the
 * instructions of the same sequence of kept a-z pages are counted, and with metrics on those of
 * a run of scrapes too. Needs valgrind (Debian's package) and a build (`npm run build`).
 * Run: npm --prefix bench run metrics-instructions
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './processes.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const WARM_UP = 300;
const REQUESTS = 400;
const SCRAPES = 20;
/** The load the scrape's cost is spread over: a-z pages as the bench serves them here, a scrape a second. */
const REQUESTS_PER_SCRAPE = 5000;

interface Counted {
  readonly perRequest: number;
  readonly perScrape: number | null;
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let waited = 0; waited < 600_000; waited += 1000) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${url} not ready`);
}

async function send(url: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const response = await fetch(url.replace('OFFSET', String((i % 4) * 20)));
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url}: HTTP ${response.status}`);
  }
}

function control(pid: number, ...args: string[]): void {
  const run = spawnSync('callgrind_control', [...args, String(pid)], { encoding: 'utf8' });
  if (run.status !== 0 || !run.stdout.includes('OK.')) throw new Error(`callgrind_control ${args.join(' ')}: ${run.stdout} ${run.stderr}`);
}

/** The instructions of each dump callgrind wrote for `prefix`, in order. */
function dumps(dir: string, prefix: string): number[] {
  return readdirSync(dir)
    .filter((file) => file.startsWith(`${prefix}.`) && /\.\d+$/.test(file))
    .sort((a, b) => Number(a.split('.').at(-1)) - Number(b.split('.').at(-1)))
    .map((file) => Number(/^summary: (\d+)$/m.exec(readFileSync(join(dir, file), 'utf8'))?.[1] ?? NaN));
}

/**
 * Asks for a dump and waits until it is written: callgrind takes the command when the process
 * next wakes, so an idle server is woken by a connection opened and closed (a few instructions
 * beside the hundreds of requests counted).
 */
async function dumped(dir: string, prefix: string, pid: number, port: number, n: number): Promise<void> {
  control(pid, '--dump');
  for (let waited = 0; dumps(dir, prefix).filter(Number.isFinite).length < n; waited += 200) {
    if (waited > 60_000) throw new Error(`callgrind wrote no dump ${n}`);
    await new Promise<void>((done) => {
      const socket = connect(port, '127.0.0.1', () => socket.end());
      socket.on('close', () => done());
      socket.on('error', () => done());
    });
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function count(dir: string, metrics: boolean): Promise<Counted> {
  const port = await freePort();
  const metricsPort = metrics ? await freePort() : 0;
  const prefix = metrics ? 'on' : 'off';
  const child = spawn('valgrind', ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(dir, prefix)}`, process.execPath, '--max-semi-space-size=8', '--expose-gc', join(ROOT, 'dist', 'main.js'), 'serve'], {
    cwd: dir,
    // The whole environment and no HOST (serve's default, 127.0.0.1, is meant): valgrind and
    // callgrind_control find each other by the USER and HOST variables.
    env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'catalog.sqlite')}`, PORT: String(port), LOG_LEVEL: 'warn', DISCOVERY_RATE_LIMIT: '0', METRICS_PORT: String(metricsPort), WORKERS: '1' },
    stdio: 'ignore',
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/readyz`, child);
    const page = `${base}/api/v1/servers/search?sort=a-z&limit=20&offset=OFFSET`;
    await send(page, WARM_UP);
    const pid = child.pid as number;
    control(pid, '--instr=on');
    await send(page, REQUESTS);
    await dumped(dir, prefix, pid, port, 1);
    if (metrics) {
      await send(`http://127.0.0.1:${metricsPort}/metrics?OFFSET`, SCRAPES);
      await dumped(dir, prefix, pid, port, 2);
    }
    control(pid, '--instr=off');
    const [requests, scrapes] = dumps(dir, prefix);
    return { perRequest: (requests as number) / REQUESTS, perScrape: scrapes === undefined ? null : scrapes / SCRAPES };
  } finally {
    child.kill('SIGKILL');
  }
}

const dir = mkdtempSync(join(tmpdir(), 'sextant-metrics-cost-'));
try {
  // The demo catalog and its index snapshot, made once by a plain start, so both counted starts load the same.
  const prepared = await (async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js'), 'serve'], { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: `sqlite:${join(dir, 'catalog.sqlite')}`, PORT: String(port), METRICS_PORT: '0', LOG_LEVEL: 'warn' }, stdio: 'ignore' });
    await waitReady(`http://127.0.0.1:${port}/readyz`, child);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    return true;
  })();
  if (!prepared) throw new Error('could not prepare the catalog');
  const off = await count(dir, false);
  const on = await count(dir, true);
  const perScrape = on.perScrape ?? 0;
  const requestCost = on.perRequest / off.perRequest - 1;
  const scrapeShare = perScrape / REQUESTS_PER_SCRAPE / off.perRequest;
  console.log(`instructions per kept a-z page: ${Math.round(off.perRequest)} with metrics off, ${Math.round(on.perRequest)} on (${(100 * requestCost).toFixed(1)}%)`);
  console.log(`instructions per scrape: ${Math.round(perScrape)} = ${(100 * scrapeShare).toFixed(1)}% of a page's at one scrape a second and ${REQUESTS_PER_SCRAPE} pages a second`);
  console.log(`metrics cost: ${(100 * (requestCost + scrapeShare)).toFixed(1)}% (target ≤ 5%)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
