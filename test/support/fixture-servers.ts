/** HTTP fixtures on loopback for the monitor, the proxy and sync. Traffic never leaves 127.0.0.1 / ::1. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

export interface Fixture {
  readonly url: string;
  readonly port: number;
  /** TCP connections accepted so far. */
  connections(): number;
  /** Requests seen, with the headers they carried. */
  readonly requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export async function startFixture(handler: Handler, host = '127.0.0.1'): Promise<Fixture> {
  let connections = 0;
  const requests: Fixture['requests'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', () => (connections += 1));
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    connections: () => connections,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface McpFixtureOptions {
  requireAuth?: string;
  protocolVersion?: string;
  /** The tools/list answer's tools, instead of the two default ones. */
  tools?: unknown[];
  /** Answers initialize with a JSON-RPC error carrying this message. */
  initializeError?: string;
  /** The tools/call result, instead of the echo. */
  callResult?: unknown;
  /** Holds every answer this long. */
  delayMs?: number;
}

/** A working MCP server (Streamable HTTP, JSON answers) with two tools, or as the options make it. */
export function mcpHandler(options: McpFixtureOptions = {}): Handler {
  const answer = mcpAnswer(options);
  if (!options.delayMs) return answer;
  return (req, res, body) => void setTimeout(() => answer(req, res, body), options.delayMs).unref();
}

function mcpAnswer(options: McpFixtureOptions): Handler {
  return (req, res, body) => {
    if (options.requireAuth && req.headers.authorization !== options.requireAuth) {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="fixture"', 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string; arguments?: Record<string, unknown> } };
    if (message.id === undefined) return void res.writeHead(202).end();
    const reply = (result: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'fixture-session' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    };
    switch (message.method) {
      case 'initialize':
        if (options.initializeError !== undefined) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: options.initializeError } }));
        }
        return reply({ protocolVersion: options.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'fixture', version: '0.0.1' }, instructions: 'A loopback fixture.' });
      case 'tools/list':
        return reply({
          tools: options.tools ?? [
            { name: 'echo', description: 'Echoes its text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, annotations: { readOnlyHint: true } },
            { name: 'live_only', description: 'Only the live endpoint lists this tool.', inputSchema: { type: 'object', properties: {} } },
          ],
        });
      case 'tools/call':
        if (options.callResult !== undefined) return reply(options.callResult);
        return reply({ content: [{ type: 'text', text: `echo: ${String(message.params?.arguments?.text ?? '')}` }], isError: false });
      default:
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }));
    }
  };
}

export const htmlHandler: Handler = (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Not MCP</title>');
export const hangHandler: Handler = () => undefined;
export const hugeHandler: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 32);
  const pump = (): void => {
    while (res.write(chunk)) if (res.destroyed) return;
    if (!res.destroyed) res.once('drain', pump);
  };
  res.on('close', () => undefined);
  pump();
};
export function redirectHandler(location: string): Handler {
  return (_req, res) => void res.writeHead(307, { location }).end();
}

const S = 'https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json';
const META = { 'io.modelcontextprotocol.registry/official': { status: 'active', publishedAt: '2025-05-01T00:00:00Z', updatedAt: '2025-05-01T00:00:00Z', isLatest: true } };

/** An official-registry document of fixture servers (remote at `url`, else an npm package). */
export function catalog(entries: Array<{ name: string; url?: string; transport?: string; headers?: unknown[]; tools?: string[] }>): { file: string; text: string } {
  const servers = entries.map(({ name, url, transport, headers, tools }) => ({
    server: {
      $schema: S, name, description: `Fixture ${name}`, version: '1.0.0',
      ...(url ? { remotes: [{ type: transport ?? 'streamable-http', url, ...(headers ? { headers } : {}) }] } : { packages: [{ registryType: 'npm', identifier: `@fixture/${name.split('/')[1]}`, version: '1.0.0', transport: { type: 'stdio' } }] }),
      ...(tools ? { _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tools: tools.map((t) => ({ name: t, description: t })) } } } : {}),
    },
    _meta: META,
  }));
  return { file: 'fixtures.json', text: JSON.stringify({ servers }) };
}
