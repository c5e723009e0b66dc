/**
 * Streamable HTTP for /mcp (MCP specification, "Transports"): one JSON-RPC message per POST,
 * JSON responses, stateless. Decides the HTTP status; the JSON-RPC server decides the rest.
 */
import type { components } from '../../generated/openapi.js';
import type { JSONRPCResponse } from 'json-rpc-2.0';
import { AppError } from '../errors.js';
import { JsonText } from '../json.js';
import { Answer } from '../read/answer.js';
import { DEFAULT_PROTOCOL_VERSION, PROTOCOL_VERSIONS, RpcError, asProtocolVersion, type ProtocolVersion } from './protocol.js';
import type { McpServer } from './server.js';
import { exactIdText, needsExactId } from './exact-id.js';
import { isOwnOrigin } from '../origin.js';

type RpcErrorResponse = components['schemas']['JsonRpcErrorResponse'];
type RpcResponse = components['schemas']['JsonRpcResponse'];

/** The HTTP answer to a POST: a JSON-RPC message (a value, or composed around an answer's bytes), or 202 with nothing. */
export type McpHttpReply =
  | { readonly status: 200; readonly body: RpcResponse | Answer<RpcResponse> }
  | { readonly status: 202 }
  | { readonly status: 400; readonly body: RpcErrorResponse | Answer<RpcErrorResponse> };

export interface McpTransportOptions {
  /** Origins allowed to call /mcp from a browser beside its own; `*` allows any. Requests without Origin are always allowed. */
  readonly allowedOrigins: readonly string[];
  /** The origin the deployment answers as (`PUBLIC_URL`), or null; always allowed. */
  readonly publicOrigin: string | null;
}

/**
 * Whether a browser `Origin` may call /mcp: the service's own origin (`PUBLIC_URL`, or the
 * request's Host, which the app has already checked), or one `MCP_ALLOWED_ORIGINS` lists.
 */
function originAllowed(options: McpTransportOptions, origin: string, host: string | undefined): boolean {
  if (options.allowedOrigins.includes('*') || options.allowedOrigins.includes(origin)) return true;
  return isOwnOrigin(origin, host, options.publicOrigin);
}

/** A POST /mcp read as far as the transport's rules go: an answer already, or the message to dispatch. */
type Read =
  | { readonly kind: 'reply'; readonly reply: McpHttpReply }
  | {
    readonly kind: 'message'; readonly protocolVersion: ProtocolVersion; readonly method: string; readonly fields: Record<string, unknown>; readonly id: string | number | null;
    /** The id as the client wrote it, when JSON.parse could not hold it exactly (an integer beyond 2^53); echoed as it is. */
    readonly idText: string | null;
  };

function readMcpPost(options: McpTransportOptions, text: string, headers: Readonly<Record<string, string | undefined>>): Read {
  const origin = headers.origin;
  if (origin !== undefined && !originAllowed(options, origin, headers.host)) {
    throw new AppError('origin_not_allowed', `Origin ${origin} may not call /mcp; only this service's own origin and those an operator lists in MCP_ALLOWED_ORIGINS may.`);
  }
  const reply = (r: McpHttpReply): Read => ({ kind: 'reply', reply: r });
  const header = headers['mcp-protocol-version'];
  const protocolVersion = header === undefined ? DEFAULT_PROTOCOL_VERSION : asProtocolVersion(header);
  if (protocolVersion === null) {
    return reply(badRequest(RpcError.invalidRequest, `Unsupported MCP-Protocol-Version "${header}"`, { supported: [...PROTOCOL_VERSIONS] }));
  }

  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return reply(badRequest(RpcError.parse, 'Parse error: the body is not JSON'));
  }
  if (Array.isArray(message)) return reply(badRequest(RpcError.invalidRequest, 'Batches are not supported: send one JSON-RPC message per request'));
  if (typeof message !== 'object' || message === null) return reply(badRequest(RpcError.invalidRequest, 'Invalid Request: expected a JSON-RPC 2.0 object'));
  const fields: Record<string, unknown> = { ...message };
  const idText = needsExactId(fields.id) ? exactIdText(text) : null;
  // Beyond 2^53 only an integer as written can be echoed exactly; a fraction or an exponent is not an id.
  const id = needsExactId(fields.id) && idText === null ? null : idOf(fields.id);
  const exact = (r: McpHttpReply): Read => reply(withExactId(r, idText));
  if (fields.jsonrpc !== '2.0') return exact(badRequest(RpcError.invalidRequest, 'Invalid Request: jsonrpc must be "2.0"', undefined, id));

  if (fields.method === undefined && ('result' in fields || 'error' in fields)) return reply({ status: 202 });
  if (typeof fields.method !== 'string' || (fields.id !== undefined && id === null)) {
    return exact(badRequest(RpcError.invalidRequest, 'Invalid Request: method must be a string and id a string or an integer', undefined, id));
  }
  return { kind: 'message', protocolVersion, method: fields.method, fields, id, idText };
}

/** A refusal whose id is echoed as the client wrote it (`idText`), when JSON.parse could not hold it. */
function withExactId(reply: McpHttpReply, idText: string | null): McpHttpReply {
  if (idText === null || reply.status !== 400 || reply.body instanceof Answer || reply.body.id === null) return reply;
  return { status: 400, body: Answer.compose<RpcErrorResponse>`{"jsonrpc":"2.0","id":${new JsonText(idText)},"error":${reply.body.error}}` };
}

/** Handles one POST /mcp: `text` is the raw body, `headers` have lower-case names, `client` who the limits count it against. */
export async function handleMcpPost(server: McpServer, options: McpTransportOptions, text: string, headers: Readonly<Record<string, string | undefined>>, client: string): Promise<McpHttpReply> {
  const read = readMcpPost(options, text, headers);
  if (read.kind === 'reply') return read.reply;
  const { method, fields, id, idText, protocolVersion } = read;
  const request = { jsonrpc: '2.0' as const, method, params: fields.params, ...(id === null ? {} : { id }) };
  const response = await server.receive(request, { protocolVersion, client });
  if (fields.id === undefined || response === null) return { status: 202 };
  const reply = toContract(response);
  // A result made of an answer, or an id JSON.parse could not hold, is composed around their exact JSON.
  if (idText === null && !('result' in reply && reply.result instanceof Answer)) return { status: 200, body: reply };
  const echoed = idText === null ? reply.id : new JsonText(idText);
  if ('error' in reply) return { status: 200, body: Answer.compose<RpcResponse>`{"jsonrpc":"2.0","id":${echoed},"error":${reply.error}}` };
  return { status: 200, body: Answer.compose<RpcResponse>`{"jsonrpc":"2.0","id":${echoed},"result":${reply.result}}` };
}

function badRequest(code: number, message: string, data?: unknown, id: string | number | null = null): McpHttpReply {
  return { status: 400, body: { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } } };
}

function idOf(value: unknown): string | number | null {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)) ? value : null;
}

/** json-rpc-2.0's response type, as the contract spells it (ids of requests are never null here). */
function toContract(response: JSONRPCResponse): RpcResponse {
  const id = idOf(response.id);
  if (response.error) return { jsonrpc: '2.0', id, error: response.error };
  return { jsonrpc: '2.0', id: id ?? '', result: response.result };
}
