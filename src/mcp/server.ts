/**
 * The JSON-RPC side of /mcp: `initialize`, `ping`, `tools/list` and `tools/call` on a
 * json-rpc-2.0 server, calling the same registry service as the REST handlers.
 */
import type { components } from '../../generated/openapi.js';
import { JSONRPCErrorException, JSONRPCServer, createJSONRPCErrorResponse, type JSONRPCRequest, type JSONRPCResponse } from 'json-rpc-2.0';
import { AppError } from '../errors.js';
import { asObject } from '../json.js';
import type { KeptResponses, KeptSpace } from '../registry/read-cache.js';
import { scrubbedWithJson } from '../catalog/secrets.js';
import { createAjv, type OpenApiDocument } from '../contract.js';
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
  /** The budget calls of catalog reads are kept in, per catalog generation, in a space named `mcp` (none kept without it). */
  readonly kept?: KeptResponses;
}

/** Per-request context: the protocol version the client speaks (from its header). */
export interface McpCallContext {
  readonly protocolVersion: ProtocolVersion;
}

export interface McpServer {
  receive(request: JSONRPCRequest, context: McpCallContext): Promise<JSONRPCResponse | null>;
  /** The JSON text of a tools/call result this server made and still keeps (undefined for any other value). */
  resultJson(result: unknown): string | undefined;
  /**
   * The result of a tools/call with these params made earlier at the catalog's current
   * generation, if kept: the calls of the catalog reads (the tools whose REST responses are kept
   * too), so a repeated call skips JSON-RPC dispatch, validation, the service and serialization.
   */
  keptCall(params: unknown, context: McpCallContext): Promise<Buffer | undefined>;
}

/** Tools that read the catalog alone (status, trust and compare read monitor checks and the clock). */
const KEPT_TOOLS: ReadonlySet<string> = new Set(['search_servers', 'search_tools', 'get_server', 'get_tool', 'get_install', 'list_categories']);

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
  const calls = createCallMemo(deps.kept?.space('mcp', (call: Buffer) => call.length));
  server.addMethod('tools/call', async (params: unknown, context): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = asObject(params);
    if (typeof name !== 'string') throw invalidParams('tools/call needs params.name (a string)');
    const tool = byName.get(name);
    if (!tool) throw invalidParams(`Unknown tool: ${name}. Call tools/list for the tools this server offers.`);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw invalidParams('params.arguments must be an object');
    const key = calls.keyOf(params, context);
    const generation = key === null ? null : await calls.generation();
    const result = await callTool(tool, args, context, deps.registry, results);
    const json = result.isError ? undefined : results.json(result);
    if (key !== null && generation !== null && json !== undefined) await calls.keep(key, generation, Buffer.from(json));
    return result;
  });

  return { receive: async (request, context) => server.receive(request, context), resultJson: results.json, keptCall: calls.find };
}

/** Without a space to keep calls in: no generation, so nothing is looked up or kept. */
const KEEPS_NOTHING: KeptSpace<Buffer> = { generation: async () => null, get: () => undefined, set: () => undefined };

/**
 * Kept tools/call results of catalog reads, as their JSON bytes (already scrubbed), per catalog
 * generation, bounded by size.
 */
function createCallMemo(kept: KeptSpace<Buffer> = KEEPS_NOTHING) {
  const { generation } = kept;
  /** The protocol version matters: it decides how invalid arguments are answered. */
  const keyOf = (params: unknown, context: McpCallContext): string | null => {
    const { name, arguments: args = {} } = asObject(params);
    if (typeof name !== 'string' || !KEPT_TOOLS.has(name) || typeof args !== 'object' || args === null) return null;
    return `${context.protocolVersion}\n${name}\n${JSON.stringify(args)}`;
  };
  return {
    keyOf,
    generation,
    async keep(key: string, before: string, call: Buffer): Promise<void> {
      // Only if nothing changed while it was computed.
      if ((await generation()) === before) kept.set(key, call);
    },
    async find(params: unknown, context: McpCallContext): Promise<Buffer | undefined> {
      const key = keyOf(params, context);
      if (key === null || (await generation()) === null) return undefined;
      return kept.get(key);
    },
  };
}

/**
 * Tool results of service values, with their JSON made once: a call keeps it as bytes (the call
 * memo answers a repeat) and its reply sends it. Nothing is kept past the result's own life:
 * the call memo's bytes are all a repeat needs, and holding the page again here as objects and
 * text would cost several times its bytes for each distinct call.
 */
interface ResultMemo {
  result(value: unknown): CallToolResult;
  json(result: unknown): string | undefined;
}

function createResultMemo(): ResultMemo {
  /** Results whose text is exactly the JSON of their structuredContent, and their own JSON. */
  const composed = new WeakMap<object, string>();
  return {
    result(value) {
      // Credentials were removed at ingest; removed again here, at the edge (the text is the
      // scrubbed value's JSON), so the edge's scrub of the JSON-RPC response skips the result
      // (scrubValue marks what it made). scrubValue copies, or returns a value it made itself.
      let structured: unknown;
      const { json: text, wrapped: result } = scrubbedWithJson(asObject(value), (json, scrubbed): CallToolResult => {
        const page = asObject(scrubbed);
        structured = page;
        return { content: [{ type: 'text', text: json }], structuredContent: page, isError: false };
      });
      if (result.content.length === 1 && result.content[0]?.text === text && result.structuredContent === structured) {
        // Exactly JSON.stringify(result): its members in the order it was made, the page's JSON twice.
        composed.set(result, `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text},"isError":false}`);
      }
      return result;
    },
    json(result) {
      return typeof result === 'object' && result !== null ? composed.get(result) : undefined;
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
