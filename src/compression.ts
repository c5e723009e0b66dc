/**
 * Response compression: a body of a kilobyte or more goes out gzip-compressed to a client that
 * accepts gzip (every browser, Node's fetch, VS Code), with `Vary: Accept-Encoding`. The bodies
 * the read model keeps (answers' JSON, rendered pages, static files) are the same Buffer on
 * every request, so each is compressed once: the compressed bytes are held beside the Buffer
 * (a WeakMap) and go when it goes. A body made for one request is compressed for that request.
 * Negotiation is Koa's (`accepts`): `gzip;q=0` or `identity` alone get the bytes as they are.
 */
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import type Koa from 'koa';

/** Bodies below this size go as they are: compressing them saves less than it costs. */
const MIN_BYTES = 1024;

/** Level 6 (zlib's default) makes 30 KB pages about a fifth of their size in about 0.3 ms. */
const LEVEL = constants.Z_DEFAULT_COMPRESSION;

const compressed = new WeakMap<Buffer, Buffer>();

function gzipOf(bytes: Buffer): Buffer {
  let made = compressed.get(bytes);
  if (!made) {
    made = compress(bytes);
    compressed.set(bytes, made);
  }
  return made;
}

/** A body that may be held compressed: its size as it is, and each form made when asked. */
export interface Body {
  readonly size: number;
  readonly identity: () => Buffer;
  readonly gzip: () => Buffer;
}

/** `bytes` as a body, its gzip form made once (and kept while `bytes` is). */
export function bodyOf(bytes: Buffer): Body {
  return { size: bytes.length, identity: () => bytes, gzip: () => gzipOf(bytes) };
}

/** A body held gzip-compressed (`size` bytes as it is): inflated for a client that does not accept gzip. */
export function compressedBody(gzipped: Buffer, size: number): Body {
  return { size, identity: () => gunzipSync(gzipped), gzip: () => gzipped };
}

/** Compresses a body to hold it so (`compressedBody`). */
export function compress(bytes: Buffer): Buffer {
  return gzipSync(bytes, { level: LEVEL });
}

/**
 * The bytes to send for `body`, compressed when the request accepts gzip: sets
 * `Content-Encoding` and `Vary` on the response as it goes.
 */
export function encodedBody(ctx: Koa.Context, body: Buffer | Body): Buffer {
  const { size, identity, gzip } = Buffer.isBuffer(body) ? bodyOf(body) : body;
  if (size < MIN_BYTES) return identity();
  ctx.vary('Accept-Encoding');
  if (ctx.acceptsEncodings('gzip', 'identity') !== 'gzip') return identity();
  ctx.set('Content-Encoding', 'gzip');
  return gzip();
}
