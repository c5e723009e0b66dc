/**
 * Stopping `serve`: on SIGTERM it takes no new connections, answers every request it has begun
 * (here 50 POSTs to /mcp whose bodies are still arriving when the signal comes), closes each
 * connection after its answer, and exits 0.
 */
import { once } from 'node:events';
import { expect } from 'chai';
import { startHarness } from '../support/harness.js';
import { freshFolders, startServe, stopUnderLoad } from '../support/serve-process.js';

const IN_FLIGHT = 50;
describe('serve stopped by SIGTERM', function () {
  this.timeout(120_000);
  const folder = freshFolders();

  it(`answers all ${IN_FLIGHT} requests in flight, refuses new connections, closes each connection after its answer and exits 0`, async () => {
    const stopped = await stopUnderLoad(await startServe(folder()), IN_FLIGHT);
    expect(stopped.refusedAfterSignal, 'a new connection after SIGTERM').to.equal(true);
    expect(stopped.answers.map((a) => a.status)).to.deep.equal(Array(IN_FLIGHT).fill(200));
    for (const answer of stopped.answers) {
      const message = JSON.parse(answer.body) as { id: number; result?: { structuredContent?: { items?: unknown[] } } };
      expect(message.id).to.equal(7);
      expect(message.result?.structuredContent?.items).to.be.an('array').that.is.not.empty;
      expect(answer.headers.connection).to.equal('close');
    }
    expect(stopped.exit).to.deep.equal({ code: 0, signal: null });
  });
});

describe('a service that is stopping', function () {
  this.timeout(30_000);
  it('answers /readyz 503 with the reason, and closes each connection after its answer', async () => {
    const h = await startHarness({ demo: true });
    try {
      expect((await h.request('/readyz')).status).to.equal(200);
      h.service.beginStop();
      const ready = await h.request('/readyz');
      expect(ready.status).to.equal(503);
      expect(ready.body).to.deep.include({ status: 'not_ready', reason: 'The service is stopping: it finishes the requests it has begun and takes no new ones.' });
      expect(ready.headers.get('connection')).to.equal('close');
      const search = await h.request('/api/v1/servers/search?q=github');
      expect(search.status).to.equal(200);
      expect((search.body as { items: unknown[] }).items).to.not.be.empty;
    } finally {
      await h.close();
    }
  });
});

describe('two serve processes on one SQLite file', function () {
  this.timeout(120_000);
  const folder = freshFolders();

  it('the second warns that it is not alone and runs no monitor; the first says nothing of it', async () => {
    const dir = folder();
    const first = await startServe(dir);
    const second = await startServe(dir);
    const warning = 'another sextant serve runs on this SQLite file: this one runs no endpoint monitor; run one serve per SQLite file';
    try {
      expect(second.log()).to.include(warning);
      expect(first.log()).to.not.include(warning);
      // Both answer.
      for (const { port } of [first, second]) expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).to.equal(200);
    } finally {
      for (const { child } of [second, first]) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        expect((await exited)[0]).to.equal(0);
      }
    }
  });
});

