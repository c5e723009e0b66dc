/**
 * Stopping `serve`: on SIGTERM it takes no new connections, answers every request it has begun
 * (here 50 POSTs to /mcp whose bodies are still arriving when the signal comes), closes each
 * connection after its answer, and exits 0.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startHarness } from '../support/harness.js';
import { startServe } from '../support/serve-process.js';

const IN_FLIGHT = 50;
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_servers', arguments: { q: 'github' } } });

interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A POST /mcp whose body is sent in two halves: the second when `rest` is called. */
function slowPost(port: number): { answer: Promise<Answer>; rest: () => void; sent: Promise<void> } {
  const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY), accept: 'application/json, text/event-stream' } });
  const half = Math.floor(BODY.length / 2);
  const sent = new Promise<void>((resolve) => req.write(BODY.slice(0, half), () => resolve()));
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  return { answer, rest: () => req.end(BODY.slice(half)), sent };
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

/** A fresh folder for each test's database files, removed after the suite. */
function freshFolders(): () => string {
  const made: string[] = [];
  after(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    made.push(mkdtempSync(join(tmpdir(), 'sextant-serve-')));
    return made.at(-1) as string;
  };
}

describe('serve stopped by SIGTERM', function () {
  this.timeout(120_000);
  const folder = freshFolders();

  it(`answers all ${IN_FLIGHT} requests in flight, refuses new connections, closes each connection after its answer and exits 0`, async () => {
    const { child, port } = await startServe(folder());
    const exited = once(child, 'exit');
    const posts = Array.from({ length: IN_FLIGHT }, () => slowPost(port));
    await Promise.all(posts.map((p) => p.sent));
    // The halves have reached the server: each request is in flight, its body still arriving.
    await new Promise((resolve) => setTimeout(resolve, 500));
    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await refused(port), 'a new connection after SIGTERM').to.equal(true);
    for (const post of posts) post.rest();
    const answers = await Promise.all(posts.map((p) => p.answer));
    expect(answers.map((a) => a.status)).to.deep.equal(Array(IN_FLIGHT).fill(200));
    for (const answer of answers) {
      const message = JSON.parse(answer.body) as { id: number; result?: { structuredContent?: { items?: unknown[] } } };
      expect(message.id).to.equal(7);
      expect(message.result?.structuredContent?.items).to.be.an('array').that.is.not.empty;
      expect(answer.headers.connection).to.equal('close');
    }
    const [code, signal] = await exited;
    expect({ code, signal }).to.deep.equal({ code: 0, signal: null });
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

