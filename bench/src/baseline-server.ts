/**
 * The physical-limit baseline: a bare node:http server that answers every request with the
 * same JSON body of a given size (the size of a typical search page), nothing else.
 *
 * Usage: node --import tsx src/baseline-server.ts <port> <body bytes> (from bench/)
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
const bytes = Number(process.argv[3]);
if (!Number.isInteger(port) || !Number.isInteger(bytes) || bytes < 64) {
  console.error('usage: baseline-server <port> <body bytes ≥ 64>');
  process.exit(2);
}

/** `{"items":[{"id":"…","description":"xxxx…"}],"total":1}`, padded to exactly `bytes` bytes. */
function bodyOf(size: number): Buffer {
  const shell = (pad: string): string => JSON.stringify({ items: [{ id: 'baseline', description: pad }], total: 1 });
  return Buffer.from(shell('x'.repeat(size - shell('').length)));
}

const body = bodyOf(bytes);
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
