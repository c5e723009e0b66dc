import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNetClient, inspectTls, NetError, type NetClient, type NetErrorCode } from '../../src/net/index.js';

// Fixtures listen on loopback only; every request below is aimed at a loopback address.

interface Fixture {
  readonly server: http.Server;
  readonly port: number;
  connections: number;
}

async function listen(host: string, handler: http.RequestListener = (_req, res) => res.end('reached')): Promise<Fixture> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const fixture: Fixture = { server, port: (server.address() as AddressInfo).port, connections: 0 };
  server.on('connection', () => (fixture.connections += 1));
  return fixture;
}

async function stop(fixture: Fixture | undefined): Promise<void> {
  if (fixture === undefined) return;
  fixture.server.closeAllConnections();
  await new Promise<void>((resolve) => fixture.server.close(() => resolve()));
}

async function failure(promise: Promise<unknown>): Promise<NetError> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(NetError);
    return err as NetError;
  }
  return expect.fail('expected the request to fail');
}

async function expectCode(promise: Promise<unknown>, code: NetErrorCode): Promise<NetError> {
  const err = await failure(promise);
  expect(err.code, err.message).to.equal(code);
  return err;
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50));

function streamForever(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  res.on('error', () => undefined);
  const chunk = Buffer.alloc(16 * 1024, 0x61);
  const pump = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

/** The application fixture on 127.0.0.1; `port` is read lazily for redirects to other hosts. */
function appHandler(port: () => number, loopHits: { count: number }): http.RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const redirect = (status: number, location: string): void => void res.writeHead(status, { location }).end();
      switch (req.url) {
        case '/json':
          res.setHeader('set-cookie', ['a=1', 'b=2']);
          res.writeHead(200, { 'content-type': 'application/json', 'x-fixture': 'yes' }).end('{"ok":true}');
          return;
        case '/echo':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ method: req.method, host: req.headers.host, contentType: req.headers['content-type'] ?? null, body: Buffer.concat(chunks).toString() }));
          return;
        case '/redirect': return redirect(302, '/json');
        case '/redirect-303': return redirect(303, '/echo');
        case '/redirect-307': return redirect(307, '/echo');
        case '/redirect-other-host': return redirect(302, `http://localhost:${port()}/json`);
        case '/redirect-ftp': return redirect(302, 'ftp://127.0.0.1/file');
        case '/upgrade': return redirect(302, `https://fixture.test:${port()}/json`);
        case '/loop':
          loopHits.count += 1;
          return redirect(302, '/loop');
        case '/hang': return;
        case '/stream': return streamForever(res);
        case '/declared':
          res.writeHead(200, { 'content-length': '10000000' });
          res.write('0123456789');
          return;
        case '/medium': return void res.end(Buffer.alloc(5_000, 0x62));
        default: return void res.writeHead(404).end();
      }
    });
  };
}

describe('net client (guarded outbound HTTP)', () => {
  let counting: Fixture;
  let counting6: Fixture | undefined;
  let app: Fixture;
  let closedPort: number;
  const loopHits = { count: 0 };
  const clients: NetClient[] = [];
  const client = (options: Parameters<typeof createNetClient>[0]): NetClient => {
    const created = createNetClient(options);
    clients.push(created);
    return created;
  };

  before(async () => {
    counting = await listen('127.0.0.1');
    counting6 = await listen('::1').catch(() => undefined);
    app = await listen('127.0.0.1', appHandler(() => app.port, loopHits));
    const closed = await listen('127.0.0.1');
    closedPort = closed.port;
    await stop(closed);
  });

  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([stop(counting), stop(counting6), stop(app)]);
  });

  it('refuses to build a client from a bad allowPrivate entry', () => {
    expect(() => createNetClient({ allowPrivate: ['127.0.0.1/32', '127.0.0.1/99'] })).to.throw(Error, '"127.0.0.1/99"');
  });

  describe('with an empty allow list', () => {
    const spellings = ['127.0.0.1', 'localhost', '2130706433', '0x7f000001', '0177.0.0.1', '127.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '0.0.0.0'];
    for (const host of spellings) {
      it(`refuses http://${host}:PORT/ with blocked_destination and never connects`, async () => {
        const net = client({ allowPrivate: [] });
        await expectCode(net.request({ method: 'GET', url: `http://${host}:${counting.port}/` }), 'blocked_destination');
        await settle();
        expect(counting.connections).to.equal(0);
      });
    }

    it('refuses http://[::1]:PORT/ with blocked_destination and never connects', async function () {
      if (counting6 === undefined) return this.skip();
      const net = client({ allowPrivate: [] });
      await expectCode(net.request({ method: 'GET', url: `http://[::1]:${counting6.port}/` }), 'blocked_destination');
      await settle();
      expect(counting6.connections).to.equal(0);
    });

    it('refuses a hostname the resolver maps to 127.0.0.1, without connecting', async () => {
      const asked: string[] = [];
      const resolve = async (hostname: string): Promise<readonly string[]> => (asked.push(hostname), ['127.0.0.1']);
      const request = { method: 'GET', url: `http://evil.test:${counting.port}/`, headers: { authorization: 'Bearer s3cr3t-token' } } as const;
      const err = await expectCode(client({ allowPrivate: [], resolve }).request(request), 'blocked_destination');
      expect(`${err.message} ${String(err.stack)}`).not.to.contain('s3cr3t');
      expect(asked).to.deep.equal(['evil.test']);
      expect(err.message).to.contain('loopback');
      await settle();
      expect(counting.connections).to.equal(0);
    });

    it('reports dns_failure when the lookup fails or finds nothing', async () => {
      const failing = client({ allowPrivate: [], resolve: () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })) });
      await expectCode(failing.request({ method: 'GET', url: 'http://nowhere.test/' }), 'dns_failure');
      const empty = client({ allowPrivate: [], resolve: async () => [] });
      await expectCode(empty.request({ method: 'GET', url: 'http://nowhere.test/' }), 'dns_failure');
    });

    it('rejects non-http URLs and garbage with invalid_url', async () => {
      const net = client({ allowPrivate: [] });
      for (const url of ['ftp://127.0.0.1/file', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', 'http://', '//127.0.0.1/', 'http://user:pw@127.0.0.1/']) {
        await expectCode(net.request({ method: 'GET', url }), 'invalid_url');
      }
      expect(counting.connections).to.equal(0);
    });
  });

  describe('with 127.0.0.1/32 allowed', () => {
    const allowLoopback = { allowPrivate: ['127.0.0.1/32'] };

    const specialUse = ['localhost.', 'LocalHost', 'LOCALHOST.', 'foo.localhost.', 'Foo.LocalHost', 'x.local.', 'X.LOCAL', 'db.internal.', 'router.home.arpa.', 'abc.onion', 'x.alt.', 'nothing.invalid.', 'ｌｏｃａｌｈｏｓｔ'];
    for (const host of specialUse) {
      it(`refuses http://${host}:PORT/ by name, before any lookup, although its address would be allowed`, async () => {
        const asked: string[] = [];
        const net = client({ ...allowLoopback, resolve: async (name) => (asked.push(name), ['127.0.0.1']) });
        const err = await expectCode(net.request({ method: 'GET', url: `http://${host}:${counting.port}/` }), 'blocked_destination');
        expect(err.message).to.match(/special-use name/);
        expect(asked, 'no lookup').to.deep.equal([]);
        await settle();
        expect(counting.connections).to.equal(0);
      });
    }

    it('refuses a special-use name in TLS inspection too, before any lookup', async () => {
      const asked: string[] = [];
      const resolve = async (name: string) => (asked.push(name), ['127.0.0.1']);
      for (const host of ['localhost.', 'Shop.Local.']) {
        const err = await failure(inspectTls({ host, port: counting.port, allowPrivate: ['127.0.0.1/32'], resolve, timeoutMs: 2_000 }));
        expect(err.code, err.message).to.equal('blocked_destination');
      }
      expect(asked).to.deep.equal([]);
      await settle();
      expect(counting.connections).to.equal(0);
    });

    it('still resolves .test names (RFC 6761: not special to applications) and names merely containing a special label', async () => {
      const asked: string[] = [];
      const net = client({ ...allowLoopback, resolve: async (name) => (asked.push(name), ['127.0.0.1']) });
      for (const host of ['fixture.test', 'localhost.test', 'local.example.test', 'internal-api.test']) {
        const res = await net.request({ method: 'GET', url: `http://${host}:${app.port}/json` });
        expect(res.status, host).to.equal(200);
        expect(JSON.parse(res.body.toString()), host).to.deep.equal({ ok: true });
      }
      expect(asked).to.deep.equal(['fixture.test', 'localhost.test', 'local.example.test', 'internal-api.test']);
    });

    it('refuses a hostname when any resolved address is refused, and connects nowhere', async () => {
      for (const answer of [['127.0.0.1', '::1'], ['::1', '127.0.0.1'], ['127.0.0.1', '10.0.0.1']]) {
        const net = client({ ...allowLoopback, resolve: async () => answer });
        await expectCode(net.request({ method: 'GET', url: `http://mixed.test:${counting.port}/` }), 'blocked_destination');
      }
      await settle();
      expect(counting.connections).to.equal(0);
    });

    it('answers a JSON endpoint with status, headers, body and the peer address', async () => {
      const res = await client(allowLoopback).request({ method: 'GET', url: `http://127.0.0.1:${app.port}/json`, headers: { authorization: 'Bearer secret' } });
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/json');
      expect(res.headers['x-fixture']).to.equal('yes');
      expect(res.headers['set-cookie']).to.equal('a=1, b=2');
      expect(JSON.parse(res.body.toString())).to.deep.equal({ ok: true });
      expect(res.remoteAddress).to.equal('127.0.0.1');
      expect(res.url).to.equal(`http://127.0.0.1:${app.port}/json`);
    });

    it('connects to the address the injected resolver returned, keeping the hostname in Host', async () => {
      const net = client({ ...allowLoopback, resolve: async () => ['127.0.0.1'] });
      const res = await net.request({ method: 'GET', url: `http://fixture.test:${app.port}/echo` });
      expect(JSON.parse(res.body.toString())).to.include({ method: 'GET', host: `fixture.test:${app.port}` });
      expect(res.remoteAddress).to.equal('127.0.0.1');
    });

    it('sends a POST body', async () => {
      const res = await client(allowLoopback).request({ method: 'POST', url: `http://127.0.0.1:${app.port}/echo`, headers: { 'content-type': 'application/json' }, body: '{"q":1}' });
      expect(JSON.parse(res.body.toString())).to.deep.equal({ method: 'POST', host: `127.0.0.1:${app.port}`, contentType: 'application/json', body: '{"q":1}' });
    });

    it('follows a same-host redirect and reports the final URL', async () => {
      const res = await client(allowLoopback).request({ method: 'GET', url: `http://127.0.0.1:${app.port}/redirect` });
      expect(res.status).to.equal(200);
      expect(res.url).to.equal(`http://127.0.0.1:${app.port}/json`);
      expect(JSON.parse(res.body.toString())).to.deep.equal({ ok: true });
    });

    it('turns a POST into a GET without body on 303 and repeats it on 307', async () => {
      const net = client(allowLoopback);
      const post = { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' } as const;
      const after303 = await net.request({ ...post, url: `http://127.0.0.1:${app.port}/redirect-303` });
      expect(JSON.parse(after303.body.toString())).to.include({ method: 'GET', body: '', contentType: null });
      const after307 = await net.request({ ...post, url: `http://127.0.0.1:${app.port}/redirect-307` });
      expect(JSON.parse(after307.body.toString())).to.include({ method: 'POST', body: 'hello', contentType: 'text/plain' });
    });

    it('refuses a redirect to another host (localhost is not 127.0.0.1) or scheme', async () => {
      const net = client(allowLoopback);
      await expectCode(net.request({ method: 'GET', url: `http://127.0.0.1:${app.port}/redirect-other-host` }), 'redirect_refused');
      await expectCode(net.request({ method: 'GET', url: `http://127.0.0.1:${app.port}/redirect-ftp` }), 'redirect_refused');
    });

    it('checks every redirect hop again: a hop whose lookup now answers a refused address is blocked', async () => {
      const answers = [['127.0.0.1'], ['127.0.0.2']];
      const net = client({ ...allowLoopback, resolve: async () => answers.shift() ?? [] });
      await expectCode(net.request({ method: 'GET', url: `http://fixture.test:${app.port}/upgrade` }), 'blocked_destination');
      expect(answers).to.deep.equal([]);
    });

    it('stops after maxRedirects with too_many_redirects', async () => {
      loopHits.count = 0;
      await expectCode(client({ ...allowLoopback, maxRedirects: 2 }).request({ method: 'GET', url: `http://127.0.0.1:${app.port}/loop` }), 'too_many_redirects');
      expect(loopHits.count).to.equal(3);
    });

    it('times out a server that never answers within the configured time', async () => {
      const started = Date.now();
      await expectCode(client({ ...allowLoopback, timeoutMs: 300 }).request({ method: 'GET', url: `http://127.0.0.1:${app.port}/hang` }), 'timeout');
      expect(Date.now() - started).to.be.within(250, 2_000);
    });

    it('honours a per-request timeout', async () => {
      const started = Date.now();
      await expectCode(client(allowLoopback).request({ method: 'GET', url: `http://127.0.0.1:${app.port}/hang`, timeoutMs: 200 }), 'timeout');
      expect(Date.now() - started).to.be.below(2_000);
    });

    it('times out a lookup that never answers after connectTimeoutMs', async () => {
      const started = Date.now();
      const net = client({ ...allowLoopback, connectTimeoutMs: 200, resolve: () => new Promise<never>(() => undefined) });
      await expectCode(net.request({ method: 'GET', url: `http://slow.test:${app.port}/json` }), 'timeout');
      expect(Date.now() - started).to.be.below(2_000);
    });

    it('aborts an endless body with too_large', async () => {
      await expectCode(client({ ...allowLoopback, maxResponseBytes: 64 * 1024 }).request({ method: 'GET', url: `http://127.0.0.1:${app.port}/stream` }), 'too_large');
    });

    it('refuses a Content-Length over the cap without waiting for the body', async () => {
      const started = Date.now();
      await expectCode(client({ ...allowLoopback, maxResponseBytes: 1_000 }).request({ method: 'GET', url: `http://127.0.0.1:${app.port}/declared` }), 'too_large');
      expect(Date.now() - started).to.be.below(2_000);
    });

    it("ends a request when the caller's signal aborts, with the caller's NetError", async () => {
      const started = Date.now();
      const deadline = new AbortController();
      setTimeout(() => deadline.abort(new NetError('timeout', 'the caller gave up')), 150);
      const request = client(allowLoopback).request({ method: 'GET', url: `http://127.0.0.1:${app.port}/hang`, timeoutMs: 10_000, signal: deadline.signal });
      const failure = await request.then(() => null, (err: unknown) => err);
      expect(failure).to.be.instanceOf(NetError).and.to.include({ code: 'timeout', message: 'the caller gave up' });
      expect(Date.now() - started).to.be.below(2_000);
      await expectCode(client(allowLoopback).request({ method: 'GET', url: `http://127.0.0.1:${app.port}/json`, signal: deadline.signal }), 'timeout');
    });

    it('honours a per-request size cap', async () => {
      const net = client(allowLoopback);
      expect((await net.request({ method: 'GET', url: `http://127.0.0.1:${app.port}/medium` })).body.length).to.equal(5_000);
      await expectCode(net.request({ method: 'GET', url: `http://127.0.0.1:${app.port}/medium`, maxResponseBytes: 4_999 }), 'too_large');
    });

    it('reports connect_failed when nothing listens', async () => {
      await expectCode(client(allowLoopback).request({ method: 'GET', url: `http://127.0.0.1:${closedPort}/` }), 'connect_failed');
    });

    it('refuses requests after close()', async () => {
      const net = createNetClient(allowLoopback);
      await net.close();
      await expectCode(net.request({ method: 'GET', url: `http://127.0.0.1:${app.port}/json` }), 'connect_failed');
    });
  });

  describe('with ::1/128 allowed', () => {
    it('answers over IPv6 loopback with remoteAddress ::1', async function () {
      if (counting6 === undefined) return this.skip();
      const before = counting6.connections;
      const res = await client({ allowPrivate: ['::1/128'] }).request({ method: 'GET', url: `http://[::1]:${counting6.port}/` });
      expect(res.status).to.equal(200);
      expect(res.body.toString()).to.equal('reached');
      expect(res.remoteAddress).to.equal('::1');
      expect(counting6.connections).to.equal(before + 1);
    });

    it('still refuses 127.0.0.1', async () => {
      await expectCode(client({ allowPrivate: ['::1/128'] }).request({ method: 'GET', url: `http://127.0.0.1:${counting.port}/` }), 'blocked_destination');
      expect(counting.connections).to.equal(0);
    });
  });
});
