/** The response cache on its own: a small Koa app on loopback whose "dispatcher" counts what it computes. */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import Koa from 'koa';
import { createResponseCache, writeResponse, type SentResponse } from '../../src/http/response-cache.js';
import { createKeptResponses } from '../../src/registry/read-cache.js';
import type { OperationId } from '../../src/types.js';

describe('response cache', () => {
  let server: Server;
  let base: string;
  let generation = 'g1';
  let computed = 0;
  /** Runs while a response is computed (to change the generation meanwhile). */
  let during: () => void = () => undefined;
  const cache = createResponseCache({ kept: createKeptResponses(async () => generation), operations: ['searchServers'] });

  before(async () => {
    const app = new Koa();
    app.use(async (ctx) => {
      if (await cache.serve(ctx)) return;
      computed += 1;
      during();
      const status = ctx.query.status === 'missing' ? 404 : 200;
      const operationId: OperationId = ctx.path === '/other' ? 'getTrust' : 'searchServers';
      const sent: SentResponse = { status, headers: { Deprecation: '@1' }, body: Buffer.from(JSON.stringify({ computed, url: ctx.url })) };
      writeResponse(ctx, sent);
      await cache.offer(ctx, operationId, sent);
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());
  beforeEach(() => {
    generation = `${generation}+`;
    computed = 0;
    during = () => undefined;
  });

  const get = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${base}${path}`, init);
    return { status: res.status, type: res.headers.get('content-type'), length: res.headers.get('content-length'), deprecation: res.headers.get('deprecation'), text: await res.text() };
  };

  it('answers the same target again with the same status, headers and bytes, without computing it', async () => {
    const first = await get('/search?q=a');
    const second = await get('/search?q=a');
    expect(second).to.deep.equal(first);
    expect(first).to.include({ status: 200, type: 'application/json; charset=utf-8', deprecation: '@1' });
    expect(computed).to.equal(1);
  });

  it('keys on the whole target: another query string is computed', async () => {
    await get('/search?q=a');
    await get('/search?q=b');
    await get('/search?q=a&limit=5');
    expect(computed).to.equal(3);
  });

  it('drops everything when the generation changes', async () => {
    await get('/search?q=a');
    generation = `${generation}!`;
    const again = await get('/search?q=a');
    expect(JSON.parse(again.text).computed).to.equal(2);
  });

  it('does not keep what was computed while the generation changed', async () => {
    during = () => {
      generation = `${generation}!`;
    };
    await get('/search?q=a');
    during = () => undefined;
    await get('/search?q=a');
    expect(computed).to.equal(2);
  });

  it('steps aside while the generation cannot be read', async () => {
    const failing = createResponseCache({ kept: createKeptResponses(async () => Promise.reject(new Error('database is gone'))), operations: ['searchServers'] });
    const app = new Koa();
    let answered = 0;
    app.use(async (ctx) => {
      if (await failing.serve(ctx)) return;
      answered += 1;
      const sent: SentResponse = { status: 200, headers: {}, body: Buffer.from('{"status":"ok"}') };
      writeResponse(ctx, sent);
      await failing.offer(ctx, 'searchServers', sent);
    });
    const other = app.listen(0, '127.0.0.1');
    await once(other, 'listening');
    try {
      for (let i = 0; i < 2; i += 1) expect((await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/healthz`)).status).to.equal(200);
      expect(answered).to.equal(2);
    } finally {
      other.close();
    }
  });

  it('keeps only 200 answers, only of the listed operations, only to GET', async () => {
    for (let i = 0; i < 2; i += 1) {
      await get('/search?status=missing');
      await get('/other');
      await get('/search?q=post', { method: 'POST' });
    }
    expect(computed).to.equal(6);
  });
});
