/**
 * The JSON-RPC side of /mcp: `initialize`, `ping`, `tools/list` and `tools/call` on a
 * json-rpc-2.0 server, calling the same registry service as the REST handlers.
 */
import type { components } from '../../generated/openapi.js';
import { JSONRPCErrorException, JSONRPCServer, createJSONRPCErrorResponse, type JSONRPCRequest, type JSONRPCResponse } from 'json-rpc-2.0';
import { AppError } from '../errors.js';
import { asObject } from '../json.js';
import { isScrubbed, scrubValue } from '../registry/secrets.js';
import { createAjv, type OpenApiDocument } from '../http/openapi.js';
import type { Logger } from '../logger.js';
import type { RegistryService } from '../registry/registry-service.js';
import { LATEST_PROTOCOL_VERSION, RpcError, asProtocolVersion, type ProtocolVersion } from './protocol.js';
import { createTools, type McpTool } from './tools.js';

type Schemas = components['schemas'];
type InitializeResult = Schemas['McpInitializeResult'];
type ListToolsResult = Schemas['McpListToolsResult'];
type CallToolResult = Schemas['McpCallToolResult'];

export interface McpServerDeps {
  readonly registry: RegistryService;
  readonly document: OpenApiDocument;
  readonly logger: Logger;
  readonly version: string;
  /** Tools per tools/list page. */
  readonly pageSize?: number;
}

/** Per-request context: the protocol version the client speaks (from its header). */
export interface McpCallContext {
  readonly protocolVersion: ProtocolVersion;
}

export interface McpServer {
  receive(request: JSONRPCRequest, context: McpCallContext): Promise<JSONRPCResponse | null>;
  /** The JSON text of a tools/call result this server made and still keeps (undefined for any other value). */
  resultJson(result: unknown): string | undefined;
}

const INSTRUCTIONS =
  'Sextant is a registry of MCP servers and their tools. Use search_servers or search_tools to find candidates, then get_server or get_tool for details. All tools are read-only.';

export function createMcpServer(deps: McpServerDeps): McpServer {
  const tools = createTools(deps.document, createAjv());
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  const pageSize = deps.pageSize ?? 50;
  const server = new JSONRPCServer<McpCallContext>({ errorListener: () => undefined });
  server.mapErrorToJSONRPCErrorResponse = (id, error: unknown) => {
    if (error instanceof JSONRPCErrorException) return createJSONRPCErrorResponse(id, error.code, error.message, error.data);
    deps.logger.error({ err: error }, 'mcp request failed');
    return createJSONRPCErrorResponse(id, RpcError.internal, 'Internal error');
  };

  server.addMethod('initialize', (params: unknown): InitializeResult => {
    const requested = asObject(params).protocolVersion;
    if (typeof requested !== 'string') throw invalidParams('initialize needs params.protocolVersion (a string)');
    return {
      protocolVersion: asProtocolVersion(requested) ?? LATEST_PROTOCOL_VERSION,
      capabilities: { tools: { listChanged: false } },
      serverInfo: { name: 'sextant', title: 'Sextant MCP registry', version: deps.version },
      instructions: INSTRUCTIONS,
    };
  });

  server.addMethod('ping', () => ({}));

  server.addMethod('tools/list', (params: unknown): ListToolsResult => {
    const cursor = asObject(params).cursor;
    const start = cursor === undefined ? 0 : decodeCursor(cursor, tools.length);
    const page = tools.slice(start, start + pageSize).map((tool) => tool.definition);
    const next = start + pageSize;
    return { tools: page, ...(next < tools.length ? { nextCursor: encodeCursor(next) } : {}) };
  });

  const results = createResultMemo();
  server.addMethod('tools/call', async (params: unknown, context): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = asObject(params);
    if (typeof name !== 'string') throw invalidParams('tools/call needs params.name (a string)');
    const tool = byName.get(name);
    if (!tool) throw invalidParams(`Unknown tool: ${name}. Call tools/list for the tools this server offers.`);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw invalidParams('params.arguments must be an object');
    return callTool(tool, args, context, deps.registry, results);
  });

  return { receive: async (request, context) => server.receive(request, context), resultJson: results.json };
}

/**
 * Tool results of service values, made once per value: the registry hands out the same object
 * for a read it keeps, so a repeated call skips the copy, the scrub and the serializations.
 * Weakly held: a result lives as long as the registry keeps its value (a bounded LRU here
 * would thrash on a rotation longer than itself), and costs its text, the page's JSON.
 */
interface ResultMemo {
  result(value: unknown): CallToolResult;
  json(result: unknown): string | undefined;
}

function createResultMemo(): ResultMemo {
  const made = new WeakMap<object, CallToolResult>();
  /** Results whose text is exactly the JSON of their structuredContent: their own JSON is made from it. */
  const textual = new WeakMap<object, string>();
  return {
    result(value) {
      const kept = typeof value === 'object' && value !== null ? made.get(value) : undefined;
      if (kept) return kept;
      // Credentials were removed at ingest; removed again here, at the edge, unless the value is
      // one scrubValue made (a read the registry keeps); the text too, so the edge's scrub of the
      // JSON-RPC response skips the result (scrubValue marks what it made).
      const structured = asObject(isScrubbed(value) ? value : scrubValue(JSON.parse(JSON.stringify(value))));
      const text = JSON.stringify(structured);
      const result = scrubValue<CallToolResult>({ content: [{ type: 'text', text }], structuredContent: structured, isError: false });
      if (result.content.length === 1 && result.content[0]?.text === text && result.structuredContent === structured) textual.set(result, text);
      if (typeof value === 'object' && value !== null) made.set(value, result);
      return result;
    },
    json(result) {
      const text = typeof result === 'object' && result !== null ? textual.get(result) : undefined;
      // Exactly JSON.stringify(result): its members in the order it was made, the page's JSON twice.
      return text === undefined ? undefined : `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text},"isError":false}`;
    },
  };
}

async function callTool(tool: McpTool, args: object, context: McpCallContext, registry: RegistryService, results: ResultMemo): Promise<CallToolResult> {
  let outcome;
  try {
    outcome = await tool.call(registry, args);
  } catch (err) {
    if (!(err instanceof AppError) || err.code === 'internal_error') throw err;
    const hint = err.code === 'not_found' ? ` ${tool.notFoundHint}` : '';
    const details = err.errors.map((e) => ` ${e.location.replace(/^query\./, '')}: ${e.message}.`).join('');
    return toolError(`${err.detail}${details}${hint}`);
  }
  if (outcome.kind === 'invalid') {
    const message = `Invalid arguments for ${tool.definition.name}: ${outcome.errors.join('; ')}.`;
    // 2025-11-25 (SEP-1303) reports argument errors as tool errors the model can correct; earlier revisions as -32602.
    if (context.protocolVersion === '2025-11-25') return toolError(`${message} Fix the arguments and call it again.`);
    throw invalidParams(message);
  }
  return results.result(outcome.value);
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function invalidParams(message: string): JSONRPCErrorException {
  return new JSONRPCErrorException(message, RpcError.invalidParams);
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

function decodeCursor(cursor: unknown, size: number): number {
  if (typeof cursor === 'string') {
    try {
      const offset: unknown = asObject(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))).offset;
      if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0 && offset < size) return offset;
    } catch {
      /* fall through */
    }
  }
  throw invalidParams('Invalid cursor: pass the nextCursor of a previous tools/list, or none for the first page.');
}
