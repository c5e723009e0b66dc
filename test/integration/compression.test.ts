/**
 * Response compression: a client that accepts gzip (a browser, Node's fetch, VS Code) gets pages,
 * JSON answers, the registry API and the OpenAPI document gzip-compressed, with
 * `Vary: Accept-Encoding`; decompressed, the bytes are exactly those a client without gzip gets.
 * A large body goes as brotli to a client that accepts it. Small bodies, and clients that refuse
 * gzip, get the bytes as they are. Raw bytes are read with node:http (fetch would decompress
 * them out of sight).
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { startHarness, type Harness } from '../support/harness.js';

/** A large body: from here on it goes as brotli to a client that accepts it (src/http/compression.ts). */
const LARGE = 32 * 1024;

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly bytes: Buffer;
}

function rawGet(baseUrl: string, path: string, acceptEncoding?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const COMPRESSED = [
  '/',
  '/servers?q=github',
  '/servers/com.notion~mcp',
  '/api/v1/servers/search?sort=a-z&limit=50',
  '/api/v1/servers/com.notion~mcp',
  '/v0.1/servers?limit=20',
  // A page of 100 entries, past 32 KB: brotli for a client that accepts it.
  '/v0.1/servers?limit=100',
  '/openapi.json',
];

describe('response compression', function () {
  this.timeout(30_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: true });
  });
  after(async () => h.close());

  for (const path of COMPRESSED) {
    it(`sends ${path} gzip-compressed to a client that accepts it, the same bytes once decompressed`, async () => {
      // Through the contract-checked fetch first: the decompressed answer is what the contract says.
      expect((await h.request(path)).status).to.equal(200);
      const plain = await rawGet(h.baseUrl, path);
      // What Chromium and Node's fetch offer over plain HTTP.
      const gzipped = await rawGet(h.baseUrl, path, 'gzip, deflate');
      expect(plain.status).to.equal(200);
      expect(plain.headers['content-encoding']).to.equal(undefined);
      expect(plain.headers.vary).to.match(/accept-encoding/i);
      expect(gzipped.status).to.equal(200);
      expect(gzipped.headers['content-encoding']).to.equal('gzip');
      expect(gzipped.headers.vary).to.match(/accept-encoding/i);
      expect(gzipped.headers['content-type']).to.equal(plain.headers['content-type']);
      expect(Number(gzipped.headers['content-length'])).to.equal(gzipped.bytes.length);
      expect(gzipped.bytes.length).to.be.below(plain.bytes.length);
      expect(gunzipSync(gzipped.bytes).equals(plain.bytes)).to.equal(true);
      if (path.endsWith('limit=100')) expect(plain.bytes.length).to.be.above(LARGE);
      // What they offer over HTTPS: brotli for a large body, gzip for the rest.
      const offered = await rawGet(h.baseUrl, path, 'gzip, deflate, br, zstd');
      const encoding = offered.headers['content-encoding'];
      if (path.endsWith('limit=100')) expect(encoding).to.equal('br');
      expect(encoding).to.be.oneOf(['gzip', 'br']);
      expect(offered.headers.vary).to.match(/accept-encoding/i);
      expect(Number(offered.headers['content-length'])).to.equal(offered.bytes.length);
      expect((encoding === 'br' ? brotliDecompressSync(offered.bytes) : gunzipSync(offered.bytes)).equals(plain.bytes)).to.equal(true);
    });
  }

  it('sends a kept answer asked again compressed for each client as it asks, the same bytes each time', async () => {
    const path = '/v0.1/servers?limit=100&search=s';
    const plain = await rawGet(h.baseUrl, path);
    const asked = ['gzip', 'gzip, deflate, br, zstd', 'gzip', 'identity', 'gzip, deflate, br, zstd'];
    const answers = [];
    for (const offer of asked) answers.push(await rawGet(h.baseUrl, path, offer));
    expect(answers.map((a) => a.headers['content-encoding'] ?? 'none')).to.deep.equal(['gzip', 'br', 'gzip', 'none', 'br']);
    for (const [i, answer] of answers.entries()) {
      const encoding = answer.headers['content-encoding'];
      const bytes = encoding === 'br' ? brotliDecompressSync(answer.bytes) : encoding === 'gzip' ? gunzipSync(answer.bytes) : answer.bytes;
      expect(bytes.equals(plain.bytes), asked[i]).to.equal(true);
      expect(Number(answer.headers['content-length']), asked[i]).to.equal(answer.bytes.length);
    }
    expect(answers[2]?.bytes.equals(answers[0]?.bytes ?? Buffer.alloc(0))).to.equal(true);
    expect(answers[4]?.bytes.equals(answers[1]?.bytes ?? Buffer.alloc(0))).to.equal(true);
  });

  it('sends the bytes as they are when gzip is refused or not offered', async () => {
    const plain = await rawGet(h.baseUrl, '/servers/com.notion~mcp');
    for (const refusal of ['gzip;q=0', 'identity', 'br']) {
      const answer = await rawGet(h.baseUrl, '/servers/com.notion~mcp', refusal);
      expect(answer.headers['content-encoding'], refusal).to.equal(undefined);
      expect(answer.bytes.equals(plain.bytes), refusal).to.equal(true);
    }
  });

  it('sends small bodies as they are', async () => {
    const health = await rawGet(h.baseUrl, '/healthz', 'gzip');
    expect(health.status).to.equal(200);
    expect(health.bytes.length).to.be.below(1024);
    expect(health.headers['content-encoding']).to.equal(undefined);
    expect(JSON.parse(health.bytes.toString('utf8'))).to.have.property('status');
  });

  it('compresses error pages and problems of a kilobyte or more, and leaves small ones', async () => {
    const page = await rawGet(h.baseUrl, '/servers/no.such~server', 'gzip');
    expect(page.status).to.equal(404);
    expect(page.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(page.bytes).toString('utf8')).to.include('no.such~server');
    const problem = await rawGet(h.baseUrl, '/api/v1/servers/no.such~server', 'gzip');
    expect(problem.status).to.equal(404);
    expect(problem.headers['content-encoding']).to.equal(undefined);
    expect(JSON.parse(problem.bytes.toString('utf8'))).to.include({ code: 'not_found' });
  });
});
