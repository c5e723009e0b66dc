/**
 * The request log: one JSON line per request at `info` (request id, operation, target, status,
 * time, client), with credentials taken out of the target; none at `warn`.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { startHarness, type Harness } from '../support/harness.js';

interface Line {
  readonly msg?: string;
  readonly requestId?: string;
  readonly operation?: string | null;
  readonly method?: string;
  readonly target?: string;
  readonly status?: number;
  readonly ms?: number;
  readonly client?: string;
}

function capture(level: string): { logger: pino.Logger; lines: Line[] } {
  const lines: Line[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  return { logger, lines };
}

describe('the request log', function () {
  this.timeout(30_000);
  let h: Harness;
  const info = capture('info');
  before(async () => {
    h = await startHarness({ demo: true, logger: info.logger });
  });
  after(async () => h?.close());

  it('logs each request once at info: its id, operation, target, status, time and client', async () => {
    const res = await fetch(`${h.baseUrl}/api/v1/servers/search?q=github&limit=5`, { headers: { 'x-request-id': 'log-test-1' } });
    expect(res.status).to.equal(200);
    const lines = info.lines.filter((line) => line.msg === 'request' && line.requestId === 'log-test-1');
    expect(lines).to.have.length(1);
    const [line] = lines;
    expect(line).to.deep.include({ operation: 'searchServers', method: 'GET', target: '/api/v1/servers/search?q=github&limit=5', status: 200, client: '127.0.0.1' });
    expect(line?.ms).to.be.a('number').and.at.least(0);
  });

  it('takes credentials out of the logged target, and logs a refusal with its status and no operation', async () => {
    const secret = 'ghp_' + 'a'.repeat(36);
    const res = await fetch(`${h.baseUrl}/api/v1/servers/search?q=${secret}&api_key=hunter2hunter2`, { headers: { 'x-request-id': 'log-test-2' } });
    expect(res.status).to.equal(400);
    const line = info.lines.find((l) => l.msg === 'request' && l.requestId === 'log-test-2');
    expect(line?.status).to.equal(400);
    expect(line?.target).to.be.a('string');
    expect(line?.target).to.not.include(secret);
    expect(line?.target).to.not.include('hunter2');
    expect(line?.target).to.match(/^\/api\/v1\/servers\/search\?/);
    const missing = await fetch(`${h.baseUrl}/nothing/here`, { headers: { 'x-request-id': 'log-test-3' } });
    expect(missing.status).to.equal(404);
    expect(info.lines.find((l) => l.requestId === 'log-test-3')).to.deep.include({ operation: null, status: 404, target: '/nothing/here' });
  });

  it('logs no request at warn', async () => {
    const warn = capture('warn');
    const quiet = await startHarness({ demo: true, logger: warn.logger });
    try {
      expect((await fetch(`${quiet.baseUrl}/healthz`)).status).to.equal(200);
      expect(warn.lines.filter((line) => line.msg === 'request')).to.deep.equal([]);
    } finally {
      await quiet.close();
    }
  });
});
