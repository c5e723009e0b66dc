/**
 * `serve` with WORKERS=2: two server processes on one port, both answering; one runs the
 * background work; the rate limits and the metrics are the service's, not each worker's; a
 * worker that dies is started again; SIGTERM stops both after their requests in flight.
 */
import { expect } from 'chai';
import { freePort, freshFolders, startServe, stopUnderLoad, type ServeProcess } from '../support/serve-process.js';

interface LogLine {
  readonly msg: string;
  readonly worker?: number;
  readonly [key: string]: unknown;
}

const lines = (serve: ServeProcess): LogLine[] => serve.log().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as LogLine);

/** GETs `path` on a new connection each time (the primary hands connections out in turn). */
async function get(serve: ServeProcess, path: string): Promise<Response> {
  const response = await fetch(`http://127.0.0.1:${serve.port}${path}`, { headers: { connection: 'close' } });
  await response.clone().arrayBuffer();
  return response;
}

describe('serve with WORKERS=2', function () {
  this.timeout(180_000);
  const folder = freshFolders();

  it('answers from both workers, with one running the background work, and shares the rate limit between them', async () => {
    const serve = await startServe(folder(), { WORKERS: '2', DISCOVERY_RATE_LIMIT: '12' });
    try {
      await serve.waitFor(/"worker":1,[^\n]*"msg":"worker is serving"/);
      await serve.waitFor(/"worker":0,[^\n]*"msg":"worker is serving"/);
      const started = lines(serve).filter((line) => line.msg === 'worker is serving');
      expect(started.map((line) => [line.worker, line.background]).sort()).to.deep.equal([[0, true], [1, false]]);
      const statuses: number[] = [];
      for (let i = 0; i < 16; i += 1) statuses.push((await get(serve, '/api/v1/categories')).status);
      expect(statuses, 'twelve a minute for the service, not for each worker').to.deep.equal([...Array(12).fill(200), ...Array(4).fill(429)]);
      // Each worker writes its request lines itself: wait until all sixteen have arrived.
      const logged = () => lines(serve).filter((line) => line.msg === 'request' && line.target === '/api/v1/categories');
      for (let waited = 0; logged().length < 16 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      const answeredBy = logged().filter((line) => line.status === 200).map((line) => line.worker);
      expect(answeredBy).to.have.length(12);
      expect([...new Set(answeredBy)].sort(), 'both workers answered').to.deep.equal([0, 1]);
    } finally {
      expect(await serve.stop()).to.deep.equal({ code: 0, signal: null });
    }
  });

  it('serves metrics gathered from both workers on METRICS_PORT', async () => {
    const metricsPort = await freePort();
    const serve = await startServe(folder(), { WORKERS: '2', METRICS_PORT: String(metricsPort) });
    try {
      await serve.waitFor(/"msg":"metrics are served"/);
      for (let i = 0; i < 10; i += 1) expect((await get(serve, '/api/v1/servers/search?q=github')).status).to.equal(200);
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(/^sextant_http_request_duration_seconds_count\{operation="searchServers",method="GET",status="200"\} (\d+)$/m.exec(text)?.[1]).to.equal('10');
      expect(/^sextant_db_pool_connections\{state="max"\} (\d+)$/m.exec(text)?.[1], 'one SQLite connection in each worker').to.equal('2');
      const public_ = await get(serve, '/metrics');
      expect(public_.status).to.equal(404);
    } finally {
      expect(await serve.stop()).to.deep.equal({ code: 0, signal: null });
    }
  });

  it('starts a worker again when it dies', async () => {
    const serve = await startServe(folder(), { WORKERS: '2' });
    try {
      const [line] = await serve.waitFor(/\{[^\n]*"worker":1,[^\n]*"msg":"worker is serving"[^\n]*\}/);
      const pid = (JSON.parse(line) as { pid: number }).pid;
      process.kill(pid, 'SIGKILL');
      await serve.waitFor(/"worker":1,[^\n]*"msg":"a worker died: starting it again"/);
      const again = await serve.waitFor(new RegExp(`\\{[^\\n]*"worker":1,[^\\n]*"pid":(?!${pid}\\b)\\d+[^\\n]*"msg":"worker is serving"`));
      expect(again[0]).to.include('"background":false');
      const statuses = await Promise.all(Array.from({ length: 6 }, () => get(serve, '/healthz').then((r) => r.status)));
      expect(statuses).to.deep.equal(Array(6).fill(200));
    } finally {
      expect(await serve.stop()).to.deep.equal({ code: 0, signal: null });
    }
  });

  it('on SIGTERM, answers the 40 requests in flight across both workers, refuses new connections and exits 0', async () => {
    const serve = await startServe(folder(), { WORKERS: '2' });
    await serve.waitFor(/"worker":1,[^\n]*"msg":"worker is serving"/);
    await serve.waitFor(/"worker":0,[^\n]*"msg":"worker is serving"/);
    const stopped = await stopUnderLoad(serve, 40);
    expect(stopped.answers.map((answer) => answer.status)).to.deep.equal(Array(40).fill(200));
    for (const answer of stopped.answers) expect(JSON.parse(answer.body).result.structuredContent.items).to.be.an('array').that.is.not.empty;
    expect(stopped.refusedAfterSignal).to.equal(true);
    expect(stopped.exit).to.deep.equal({ code: 0, signal: null });
    const stops = lines(serve).filter((line) => line.msg === 'shutting down: finishing the requests in flight');
    expect(stops.map((line) => line.worker).sort()).to.deep.equal([0, 1]);
  });
});
