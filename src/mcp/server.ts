/**
 * The JSON-RPC side of /mcp: `initialize`, `ping`, `tools/list` and `tools/call` on a
 * json-rpc-2.0 server; each tool calls the service its REST operation calls.
 */
import type { components } from '../../generated/openapi.js';
import { JSONRPCErrorException, JSONRPCServer, createJSONRPCErrorResponse, type JSONRPCRequest, type JSONRPCResponse } from 'json-rpc-2.0';
import { createAjv, type OpenApiDocument } from '../contract.js';
import { AppError } from '../errors.js';
import { asObject } from '../json.js';
import type { Logger } from '../logger.js';
import { Answer } from '../read/answer.js';
import type { ReadModel } from '../read/read-model.js';
import type { AssessmentService } from '../assessments/assessment-service.js';
import { LATEST_PROTOCOL_VERSION, RpcError, asProtocolVersion, type ProtocolVersion } from './protocol.js';
import { createTools, type McpTool, type ToolServices } from './tools.js';

type Schemas = components['schemas'];
type InitializeResult = Schemas['McpInitializeResult'];
type ListToolsResult = Schemas['McpListToolsResult'];
type CallToolResult = Schemas['McpCallToolResult'];

export interface McpServerDeps {
  readonly read: ReadModel;
  readonly assessments: AssessmentService;
  readonly document: OpenApiDocument;
  readonly logger: Logger;
  readonly version: string;
  /** Tools per tools/list page. */
  readonly pageSize?: number;
  /** Told of each call of a tool this server offers, and how it ended (metrics). */
  readonly onToolCall?: (tool: string, outcome: ToolCallOutcome) => void;
}

export type ToolCallOutcome = 'ok' | 'tool_error' | 'invalid_arguments' | 'error';

/** Per-request context: the protocol version the client speaks (from its header), and who calls (for the public limits). */
export interface McpCallContext {
  readonly protocolVersion: ProtocolVersion;
  readonly client: string;
}

export interface McpServer {
  receive(request: JSONRPCRequest, context: McpCallContext): Promise<JSONRPCResponse | null>;
}

const INSTRUCTIONS =
  'Sextant is a registry of MCP servers and their tools. Use search_servers or search_tools to find candidates, then get_server or get_tool for details; these tools only read. Sextant also observes the web estate of a business at its domain for credit professionals: create_assessment starts one (it contacts the domain), get_assessment reads it, list_assessments gives a domain\'s history. Assessments are observations only, never a score or a credit decision.';

export function createMcpServer(deps: McpServerDeps): McpServer {
  const tools = createTools(deps.document, createAjv());
  const services: ToolServices = { read: deps.read, assessments: deps.assessments };
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

  server.addMethod('tools/call', async (params: unknown, context): Promise<CallToolResult | Answer<CallToolResult>> => {
    const { name, arguments: args = {} } = asObject(params);
    if (typeof name !== 'string') throw invalidParams('tools/call needs params.name (a string)');
    const tool = byName.get(name);
    if (!tool) throw invalidParams(`Unknown tool: ${name}. Call tools/list for the tools this server offers.`);
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw invalidParams('params.arguments must be an object');
    const counted = deps.onToolCall ?? (() => undefined);
    try {
      const { result, outcome } = await callTool(tool, args, context, services);
      counted(name, outcome);
      return result;
    } catch (err) {
      counted(name, err instanceof JSONRPCErrorException && err.code === RpcError.invalidParams ? 'invalid_arguments' : 'error');
      throw err;
    }
  });

  return { receive: async (request, context) => server.receive(request, context) };
}

/**
 * The CallToolResult of each answer, made once while the answer is kept: every call of a kept
 * answer sends the same result, and composing it copies the answer's bytes three times.
 */
const results = new WeakMap<Answer<object>, Answer<CallToolResult>>();

/**
 * The CallToolResult of an answer: its JSON as structured content, and the same JSON as a
 * string for the text block, composed from the answer's bytes rather than parsed and written again.
 */
function resultOf(answer: Answer<object>): Answer<CallToolResult> {
  let result = results.get(answer);
  if (!result) {
    result = Answer.compose<CallToolResult>`{"content":[{"type":"text","text":${answer.asText()}}],"structuredContent":${answer},"isError":false}`;
    results.set(answer, result);
  }
  return result;
}

async function callTool(tool: McpTool, args: object, context: McpCallContext, services: ToolServices): Promise<{ result: CallToolResult | Answer<CallToolResult>; outcome: ToolCallOutcome }> {
  let outcome;
  try {
    outcome = await tool.call(services, args, { client: context.client });
  } catch (err) {
    if (!(err instanceof AppError) || err.code === 'internal_error') throw err;
    const hint = err.code === 'not_found' ? ` ${tool.notFoundHint}` : '';
    const details = err.errors.map((e) => ` ${e.location}: ${e.message}.`).join('');
    return { result: toolError(`${err.detail}${details}${hint}`), outcome: 'tool_error' };
  }
  if (outcome.kind === 'invalid') {
    const message = `Invalid arguments for ${tool.definition.name}: ${outcome.errors.join('; ')}.`;
    // 2025-11-25 (SEP-1303) reports argument errors as tool errors the model can correct; earlier revisions as -32602.
    if (context.protocolVersion === '2025-11-25') return { result: toolError(`${message} Fix the arguments and call it again.`), outcome: 'invalid_arguments' };
    throw invalidParams(message);
  }
  return { result: resultOf(outcome.answer), outcome: 'ok' };
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
