/**
 * A minimal MCP client over Streamable HTTP for the monitor and the proxy: `initialize`,
 * `notifications/initialized`, then requests, through the guarded network client only.
 * Accepts JSON and event-stream answers (MCP specification, "Transports").
 */
import type { NetClient, NetResponse } from '../net/index.js';
import { isObject, parseJson } from '../json.js';
import { LATEST_PROTOCOL_VERSION } from '../mcp/protocol.js';

export type RemoteFailure = 'auth_required' | 'not_mcp' | 'http_error' | 'rpc_error';

/** The endpoint answered, but not as an MCP server should. */
export class RemoteMcpError extends Error {
  constructor(
    readonly failure: RemoteFailure,
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = 'RemoteMcpError';
  }
}

/** The shape of an MCP revision: a date. */
const PROTOCOL_VERSION = /^\d{4}-\d{2}-\d{2}$/;

export interface RemoteSession {
  readonly url: string;
  readonly protocolVersion: string;
  readonly serverInfo: Record<string, unknown>;
  readonly instructions: string | null;
  readonly httpStatus: number;
  /** Sends a request and returns its result; a JSON-RPC error becomes RemoteMcpError('rpc_error'). */
  request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export interface SessionOptions {
  /** Extra headers (declared by the server's record), sent on every request, never logged. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly maxResponseBytes?: number;
  /** Bounds the whole session (every request of it), beside each request's own timeout. */
  readonly signal?: AbortSignal;
  readonly clientVersion: string;
}

/** Initializes a session with the endpoint at `url`. */
export async function openSession(net: NetClient, url: string, options: SessionOptions): Promise<RemoteSession> {
  let nextId = 1;
  let sessionId: string | null = null;
  let protocolVersion: string | null = null;

  const post = async (message: Record<string, unknown>): Promise<NetResponse> =>
    net.request({
      method: 'POST',
      url,
      headers: {
        ...options.headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(protocolVersion ? { 'mcp-protocol-version': protocolVersion } : {}),
        ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
      },
      body: JSON.stringify(message),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });

  const call = async (method: string, params: Record<string, unknown>): Promise<{ result: Record<string, unknown>; response: NetResponse }> => {
    const id = nextId++;
    const response = await post({ jsonrpc: '2.0', id, method, params });
    failOnStatus(response);
    const message = findResponse(response, id);
    if (isObject(message.error)) throw new RemoteMcpError('rpc_error', `${method} failed: ${String(message.error.message ?? 'error')} (${String(message.error.code ?? '?')})`, response.status);
    if (!isObject(message.result)) throw new RemoteMcpError('not_mcp', `${method} returned no result`, response.status);
    return { result: message.result, response };
  };

  const init = await call('initialize', {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'sextant', title: 'Sextant registry', version: options.clientVersion },
  });
  if (typeof init.result.protocolVersion !== 'string') throw new RemoteMcpError('not_mcp', 'initialize returned no protocolVersion', init.response.status);
  // MCP revisions are dates (2025-06-18); anything else is not an MCP answer (and is not echoed back or stored).
  if (!PROTOCOL_VERSION.test(init.result.protocolVersion)) throw new RemoteMcpError('not_mcp', 'initialize returned a protocolVersion that is not an MCP revision date', init.response.status);
  protocolVersion = init.result.protocolVersion;
  sessionId = init.response.headers['mcp-session-id'] ?? null;
  const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  if (initialized.status >= 400) failOnStatus(initialized);

  return {
    url,
    protocolVersion,
    serverInfo: isObject(init.result.serverInfo) ? init.result.serverInfo : {},
    instructions: typeof init.result.instructions === 'string' ? init.result.instructions : null,
    httpStatus: init.response.status,
    request: async (method, params) => (await call(method, params)).result,
  };
}

function failOnStatus(response: NetResponse): void {
  if (response.status < 300) return;
  if ((response.status === 401 || response.status === 403) && response.headers['www-authenticate']) {
    throw new RemoteMcpError('auth_required', `the endpoint requires authentication (HTTP ${response.status})`, response.status);
  }
  if (response.status >= 500) throw new RemoteMcpError('http_error', `the endpoint failed with HTTP ${response.status}`, response.status);
  throw new RemoteMcpError('not_mcp', `the endpoint answered HTTP ${response.status} to an MCP request`, response.status);
}

/** The JSON-RPC response with `id` in a JSON or event-stream body. */
function findResponse(response: NetResponse, id: number): Record<string, unknown> {
  const type = (response.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const text = response.body.toString('utf8');
  const candidates: unknown[] = [];
  if (type === 'text/event-stream') {
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trimStart()).join('\n');
      if (data) candidates.push(parseJson(data));
    }
  } else if (type === 'application/json') {
    candidates.push(parseJson(text));
  }
  const match = candidates.flat().find((c) => isObject(c) && c.jsonrpc === '2.0' && c.id === id);
  if (!isObject(match)) throw new RemoteMcpError('not_mcp', `the endpoint did not answer with JSON-RPC (content type ${type || 'none'})`, response.status);
  return match;
}

