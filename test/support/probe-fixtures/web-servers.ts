/**
 * Loopback web fixtures for the probes: an HTTPS server choosing its certificate by SNI, an HTTP
 * server, and a TCP server that accepts connections and never answers. All on 127.0.0.1; each
 * counts the TCP connections it accepted.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { KeyAndCert } from './certificates.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface WebFixture {
  readonly port: number;
  /** TCP connections accepted so far. */
  connections(): number;
  /** 'METHOD host path' of every request seen. */
  readonly requests: string[];
  close(): Promise<void>;
}

async function serve(server: Server, requests: string[], sockets: Set<Socket>): Promise<WebFixture> {
  let connections = 0;
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function recording(requests: string[], handler: Handler): Handler {
  return (req, res) => {
    requests.push(`${req.method ?? ''} ${req.headers.host ?? ''} ${req.url ?? ''}`);
    handler(req, res);
  };
}

/** The request's host name without the port. */
export function hostOf(req: IncomingMessage): string {
  return (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
}

export function startHttp(handler: Handler): Promise<WebFixture> {
  const requests: string[] = [];
  return serve(createHttpServer(recording(requests, handler)), requests, new Set());
}

/** HTTPS with one certificate per server name (SNI); unknown names get `fallback`. */
export function startHttps(certificates: ReadonlyMap<string, KeyAndCert>, fallback: KeyAndCert, handler: Handler): Promise<WebFixture> {
  const contexts = new Map<string, SecureContext>([...certificates].map(([name, pair]) => [name, createSecureContext(pair)]));
  const requests: string[] = [];
  const server = createHttpsServer(
    { ...fallback, SNICallback: (servername, callback) => callback(null, contexts.get(servername.toLowerCase()) ?? createSecureContext(fallback)) },
    recording(requests, handler),
  );
  return serve(server, requests, new Set());
}

/** Accepts TCP connections and never sends a byte (neither a TLS handshake nor an HTTP answer). */
export function startHanging(): Promise<WebFixture> {
  return serve(createTcpServer(() => undefined), [], new Set());
}
