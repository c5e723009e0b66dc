/** Reading a response body without letting a server make us buffer more than a cap. */
import type { Readable } from 'node:stream';
import { NetError } from './errors.js';

/**
 * Collects `body` into one Buffer; destroys the stream (aborting the response) and rejects with
 * `too_large` as soon as more than `maxBytes` arrive.
 */
export function readCappedBody(body: Readable, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        body.destroy();
        reject(new NetError('too_large', `response body exceeds ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    body.once('end', () => resolve(Buffer.concat(chunks, size)));
    body.once('error', reject);
  });
}

/** Rejects with `too_large` when a Content-Length header announces more than `maxBytes`. */
export function checkDeclaredLength(contentLength: string | string[] | undefined, maxBytes: number): void {
  if (typeof contentLength !== 'string') return;
  const declared = Number(contentLength);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw new NetError('too_large', `response announces ${declared} bytes, over the ${maxBytes}-byte cap`);
  }
}
