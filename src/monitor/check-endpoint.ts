/**
 * One check of one catalogued endpoint (DESIGN.md "Status"): a real MCP `initialize`, then
 * `notifications/initialized` and `tools/list`, classified into a state, its answers held to
 * the caps the proxy shares (src/mcp-client/caps.ts).
 */
import { NetError, type NetClient } from '../net/index.js';
import { RemoteMcpError, openSession } from '../mcp-client/mcp-session.js';
import type { UpstreamTool } from '../ingest/upstream.js';
import type { EndpointCheck, RemoteEndpoint } from '../store/index.js';
import { annotations, asArray, isObject, objectSchema, text } from '../ingest/upstream-fields.js';
import { Cuts, REMOTE_CAPS, capErrorText, capTool, capTools } from '../mcp-client/caps.js';

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
  const cuts = new Cuts();
  const base = { serverId: endpoint.serverId, url: endpoint.url, checkedAt };
  const elapsed = (): number => Math.round(performance.now() - started);
  // Every check says what it cut, and keeps at most the cap of its error text.
  const finish = (check: Omit<EndpointCheck, keyof typeof base | 'cuts'>, tools: UpstreamTool[] | null): CheckResult => {
    const error = check.error === null ? null : capErrorText(check.error, cuts);
    return { check: { ...base, ...check, error, cuts: cuts.list() }, tools };
  };
  if (endpoint.transport === 'sse') {
    return { check: { ...base, state: 'unknown', httpStatus: null, latencyMs: null, protocolVersion: null, toolCount: null, error: 'The legacy HTTP+SSE transport is not probed.', cuts: null }, tools: null };
  }
  try {
    const session = await openSession(net, endpoint.url, { timeoutMs: options.timeoutMs, clientVersion: options.clientVersion, maxResponseBytes: REMOTE_CAPS.response_size });
    const latencyMs = elapsed();
    let listed: Readonly<Record<string, unknown>>[] | null = null;
    let error: string | null = null;
    try {
      listed = asArray((await session.request('tools/list', {})).tools).filter(isNamed);
    } catch (err) {
      if (err instanceof NetError && err.code === 'too_large') cuts.add('response_size');
      error = `tools/list: ${err instanceof Error ? err.message : String(err)}`;
    }
    const tools = listed === null ? null : capTools(listed, cuts).flatMap((item) => readTool(capTool(item, cuts)));
    return finish({ state: 'up', httpStatus: session.httpStatus, latencyMs, protocolVersion: session.protocolVersion, toolCount: listed?.length ?? null, error }, tools);
  } catch (err) {
    const latencyMs = elapsed();
    if (err instanceof RemoteMcpError) {
      const state = err.failure === 'auth_required' ? 'auth_required' : err.failure === 'http_error' ? 'down' : 'not_mcp';
      return finish({ state, httpStatus: err.httpStatus, latencyMs, protocolVersion: null, toolCount: null, error: err.message }, null);
    }
    if (err instanceof NetError) {
      const state = err.code === 'blocked_destination' ? 'blocked' : err.code === 'too_large' || err.code === 'redirect_refused' ? 'not_mcp' : 'down';
      if (err.code === 'too_large') cuts.add('response_size');
      return finish({ state, httpStatus: null, latencyMs: state === 'blocked' ? null : latencyMs, protocolVersion: null, toolCount: null, error: `${err.code}: ${err.message}` }, null);
    }
    throw err;
  }
}

function isNamed(item: unknown): item is Readonly<Record<string, unknown>> {
  return isObject(item) && typeof item.name === 'string';
}

function readTool(raw: Readonly<Record<string, unknown>>): UpstreamTool[] {
  const name = text(raw.name);
  if (!name) return [];
  return [{ name, title: text(raw.title), description: text(raw.description) ?? '', inputSchema: objectSchema(raw.inputSchema), annotations: annotations(raw.annotations) }];
}
