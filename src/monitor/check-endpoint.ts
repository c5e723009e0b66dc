/**
 * One check of one catalogued endpoint (DESIGN.md "Status"): a real MCP `initialize`, then
 * `notifications/initialized` and `tools/list`, classified into a state.
 */
import { NetError, type NetClient } from '../net/index.js';
import { RemoteMcpError, openSession } from '../remote/mcp-session.js';
import type { UpstreamTool } from '../ingest/upstream.js';
import type { EndpointCheck, RemoteEndpoint } from '../store/index.js';
import { annotations, asArray, asObject, objectSchema, text } from '../ingest/json.js';

export interface CheckResult {
  readonly check: EndpointCheck;
  /** Tools the endpoint listed, when it answered tools/list. */
  readonly tools: readonly UpstreamTool[] | null;
}

export interface CheckOptions {
  readonly timeoutMs: number;
  readonly clientVersion: string;
  readonly now: () => Date;
}

export async function checkEndpoint(net: NetClient, endpoint: RemoteEndpoint, options: CheckOptions): Promise<CheckResult> {
  const checkedAt = options.now().toISOString();
  const started = performance.now();
  const base = { serverId: endpoint.serverId, url: endpoint.url, checkedAt };
  const elapsed = (): number => Math.round(performance.now() - started);
  if (endpoint.transport === 'sse') {
    return { check: { ...base, state: 'unknown', httpStatus: null, latencyMs: null, protocolVersion: null, toolCount: null, error: 'The legacy HTTP+SSE transport is not probed.' }, tools: null };
  }
  try {
    const session = await openSession(net, endpoint.url, { timeoutMs: options.timeoutMs, clientVersion: options.clientVersion, maxResponseBytes: 1024 * 1024 });
    const latencyMs = elapsed();
    let tools: UpstreamTool[] | null = null;
    let error: string | null = null;
    try {
      tools = asArray((await session.request('tools/list', {})).tools).flatMap(readTool);
    } catch (err) {
      error = `tools/list: ${err instanceof Error ? err.message : String(err)}`;
    }
    return {
      check: { ...base, state: 'up', httpStatus: session.httpStatus, latencyMs, protocolVersion: session.protocolVersion, toolCount: tools?.length ?? null, error },
      tools,
    };
  } catch (err) {
    const latencyMs = elapsed();
    if (err instanceof RemoteMcpError) {
      const state = err.failure === 'auth_required' ? 'auth_required' : err.failure === 'http_error' ? 'down' : 'not_mcp';
      return { check: { ...base, state, httpStatus: err.httpStatus, latencyMs, protocolVersion: null, toolCount: null, error: err.message }, tools: null };
    }
    if (err instanceof NetError) {
      const state = err.code === 'blocked_destination' ? 'blocked' : err.code === 'too_large' || err.code === 'redirect_refused' ? 'not_mcp' : 'down';
      return { check: { ...base, state, httpStatus: null, latencyMs: state === 'blocked' ? null : latencyMs, protocolVersion: null, toolCount: null, error: `${err.code}: ${err.message}` }, tools: null };
    }
    throw err;
  }
}

function readTool(item: unknown): UpstreamTool[] {
  const raw = asObject(item);
  const name = text(raw.name);
  if (!name) return [];
  return [{ name, title: text(raw.title), description: text(raw.description) ?? '', inputSchema: objectSchema(raw.inputSchema), annotations: annotations(raw.annotations) }];
}
