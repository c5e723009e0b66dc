/**
 * Response compression: a body of a kilobyte or more goes out gzip-compressed to a client that
 * accepts gzip (every browser, Node's fetch, VS Code), with `Vary: Accept-Encoding`. The bodies
 * the read model keeps (answers' JSON, rendered pages, static files) are the same Buffer on
 * every request, so each is compressed once: the compressed bytes are held beside the Buffer
 * (a WeakMap) and go when it goes. A body made for one request is compressed for that request.
 * A large answer the read model keeps is held brotli-compressed instead (`compress`): a client
 * that accepts brotli (browsers and Node's fetch over HTTPS, VS Code) gets those bytes, another
 * them inflated, and gzip-compressed again if it accepts gzip.
 * Negotiation is Koa's (`accepts`): `gzip;q=0` or `identity` alone get the bytes as they are.
 */
import { brotliCompressSync, brotliDecompressSync, constants, gzipSync } from 'node:zlib';
import type Koa from 'koa';

/** Bodies below this size go as they are: compressing them saves less than it costs. */
const MIN_BYTES = 1024;

/** Level 6 (zlib's default) makes 30 KB pages about a fifth of their size in about 0.3 ms. */
const LEVEL = constants.Z_DEFAULT_COMPRESSION;

const compressed = new WeakMap<Buffer, Buffer>();

function gzipOf(bytes: Buffer): Buffer {
  let made = compressed.get(bytes);
  if (!made) {
    made = gzipSync(bytes, { level: LEVEL });
    compressed.set(bytes, made);
  }
  return made;
}

/** A body that may be held compressed: its size as it is, and each form made when asked. */
export interface Body {
  readonly size: number;
  readonly identity: () => Buffer;
  readonly gzip: () => Buffer;
  /** Its brotli form, for a body held so (sent as it is to a client that accepts brotli). */
  readonly brotli?: () => Buffer;
}

/** `bytes` as a body, its gzip form made once (and kept while `bytes` is). */
export function bodyOf(bytes: Buffer): Body {
  return { size: bytes.length, identity: () => bytes, gzip: () => gzipOf(bytes) };
}

/** A body held brotli-compressed (`size` bytes as it is): inflated for a client that does not accept brotli, and gzipped again for one that accepts gzip. */
export function compressedBody(held: Buffer, size: number): Body {
  const identity = (): Buffer => brotliDecompressSync(held);
  return { size, identity, gzip: () => gzipSync(identity(), { level: LEVEL }), brotli: () => held };
}

/**
 * Brotli at quality 1, what a kept answer is held in (`compressedBody`). Measured on registry
 * pages of 50 entries at 100k servers (200-250 KB of JSON): 0.75 ms and 52 KB a page, where
 * gzip took 3.2 ms for 49 KB (level 6) and 1.6 ms for 57 KB (level 1).
 */
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };

/** Compresses a body to hold it so (`compressedBody`). */
export function compress(bytes: Buffer): Buffer {
  return brotliCompressSync(bytes, BROTLI);
}

/**
 * The bytes to send for `body`, compressed when the request accepts it (brotli for a body held
 * so, gzip otherwise): sets `Content-Encoding` and `Vary` on the response as it goes.
 */
export function encodedBody(ctx: Koa.Context, body: Buffer | Body): Buffer {
  const { size, identity, gzip, brotli } = Buffer.isBuffer(body) ? bodyOf(body) : body;
  if (size < MIN_BYTES) return identity();
  ctx.vary('Accept-Encoding');
  if (brotli && ctx.acceptsEncodings('br') === 'br') {
    ctx.set('Content-Encoding', 'br');
    return brotli();
  }
  if (ctx.acceptsEncodings('gzip', 'identity') !== 'gzip') return identity();
  ctx.set('Content-Encoding', 'gzip');
  return gzip();
}
