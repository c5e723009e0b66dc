/**
 * The connect/invoke proxy (DESIGN.md "Proxy"): lets a web page try a catalogued remote
 * server. Only the server's own catalogued endpoints are reachable, through the guarded
 * network client; only safe headers its record declares pass through (forwarded-headers.ts), and
 * they are never stored. One deadline bounds a whole call; answers are held to the caps the
 * monitor shares (src/mcp-client/caps.ts).
 */
import type { components } from '../../generated/openapi.js';
import { AppError } from '../errors.js';
import { NetError, type NetClient } from '../net/index.js';
import { RemoteMcpError, openSession, type RemoteSession } from '../mcp-client/mcp-session.js';
import { Cuts, REMOTE_CAPS, capDepth, capErrorText, capTool, capTools, tooDeep } from '../mcp-client/caps.js';
import { asObject } from '../json.js';
import { forwardedHeaders } from './forwarded-headers.js';
import type { CatalogReader } from '../store/index.js';
import type { CatalogServer } from '../catalog/catalog-entry.js';
import type { Remote } from '../types.js';

type Schemas = components['schemas'];
export type ProxyConnectRequest = Schemas['ProxyConnectRequest'];
export type ProxyInvokeRequest = Schemas['ProxyInvokeRequest'];
export type ProxyConnectResult = Schemas['ProxyConnectResult'];
export type ProxyInvokeResult = Schemas['ProxyInvokeResult'];

export interface ProxyService {
  connect(request: ProxyConnectRequest): Promise<ProxyConnectResult>;
  invoke(request: ProxyInvokeRequest): Promise<ProxyInvokeResult>;
}

export interface ProxyDeps {
  readonly catalog: Pick<CatalogReader, 'findServer'>;
  readonly net: NetClient;
  readonly clientVersion: string;
  readonly timeoutMs?: number;
  /** One bound on a whole call (initialize, then the request), in milliseconds (PROXY_DEADLINE). */
  readonly deadlineMs: number;
}

export function createProxyService(deps: ProxyDeps): ProxyService {
  const { deadlineMs } = deps;
  /** Runs one proxied call under the deadline: every upstream request of it is cancelled once the deadline passes. */
  const withDeadline = async <T>(serverId: string, endpoint: string | undefined, headers: Readonly<Record<string, string>> | undefined, use: (open: RemoteSession) => Promise<T>): Promise<T> => {
    const server = await deps.catalog.findServer(serverId);
    if (!server) throw new AppError('not_found', `No server has the id or name "${serverId}".`);
    const remote = endpointOf(server, endpoint);
    const passed = forwardedHeaders(remote, headers ?? {});
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new NetError('timeout', 'deadline')), deadlineMs);
    try {
      const open = await openSession(deps.net, remote.url, {
        headers: passed, clientVersion: deps.clientVersion, maxResponseBytes: REMOTE_CAPS.response_size, signal: deadline.signal,
        ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
      });
      return await use(open);
    } catch (err) {
      throw upstreamError(err, deadline.signal.aborted ? deadlineMs : null);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    async connect(request) {
      return withDeadline(request.serverId, request.endpoint, request.headers, async (open) => {
        const cuts = new Cuts();
        const listed = await open.request('tools/list', {});
        const tools = capTools((Array.isArray(listed.tools) ? listed.tools : []).filter(isToolEntry), cuts).map((tool) => ({ ...capTool(tool, cuts), name: tool.name }));
        const info = asObject(capDepth(open.serverInfo, cuts));
        const serverInfo = { ...info, name: typeof info.name === 'string' ? info.name : 'unknown' };
        return { serverId: request.serverId, endpoint: open.url, protocolVersion: open.protocolVersion, serverInfo, instructions: open.instructions, tools, cuts: cuts.list() };
      });
    },

    async invoke(request) {
      // Checked before anything is sent: a value nested this deep is refused, never half-sent.
      if (tooDeep(request.arguments)) {
        throw new AppError('arguments_too_deep', `The arguments nest deeper than ${REMOTE_CAPS.depth} levels; the proxy sends nothing that deep.`, [{ location: 'arguments', message: `nests deeper than ${REMOTE_CAPS.depth} levels` }]);
      }
      return withDeadline(request.serverId, request.endpoint, request.headers, async (open) => {
        const cuts = new Cuts();
        const result = asObject(capDepth(await open.request('tools/call', { name: request.tool, arguments: request.arguments }), cuts));
        const content = Array.isArray(result.content) ? result.content.filter(isContent) : [];
        return { serverId: request.serverId, endpoint: open.url, tool: request.tool, result: { ...result, content }, cuts: cuts.list() };
      });
    },
  };
}

/** The catalogued endpoint asked for, or the first Streamable HTTP one. */
function endpointOf(server: CatalogServer, endpoint: string | undefined): Remote {
  if (server.remotes.length === 0) throw new AppError('endpoint_not_found', `Server "${server.id}" has no remote endpoints; it runs locally.`);
  const wanted = endpoint === undefined ? undefined : normalize(endpoint);
  const remote = wanted === undefined
    ? (server.remotes.find((r) => r.transport === 'streamable-http') ?? server.remotes[0])
    : server.remotes.find((r) => normalize(r.url) === wanted);
  if (!remote) throw new AppError('endpoint_not_found', `"${endpoint}" is not a catalogued endpoint of "${server.id}"; use one of: ${server.remotes.map((r) => r.url).join(', ')}.`);
  if (remote.transport !== 'streamable-http') {
    throw new AppError('validation_failed', `${remote.url} uses the legacy HTTP+SSE transport; the proxy speaks Streamable HTTP.`, [{ location: 'endpoint', message: 'is not a Streamable HTTP endpoint' }]);
  }
  return remote;
}

function normalize(url: string): string {
  try {
    return new URL(url).toString();
  } catch {
    return url;
  }
}

/** Failures of the remote end, as problems with stable codes; a refused destination is a 4xx. */
function upstreamError(err: unknown, deadlineMs: number | null): unknown {
  if (err instanceof NetError) {
    switch (err.code) {
      case 'blocked_destination':
        return new AppError('blocked_destination', 'The endpoint resolves to a private, loopback, link-local or reserved address; the proxy does not connect there.');
      case 'timeout':
        return new AppError('upstream_timeout', deadlineMs === null
          ? 'The endpoint did not answer in time.'
          : `The endpoint did not finish the call within the proxy's ${deadlineMs / 1000}-second deadline (initialize, then the request).`);
      case 'too_large':
        return new AppError('upstream_too_large', 'The endpoint sent more than the proxy accepts.');
      default:
        return new AppError('upstream_failed', `The endpoint could not be reached (${err.code}).`);
    }
  }
  if (err instanceof RemoteMcpError) {
    if (err.failure === 'auth_required') return new AppError('upstream_auth_required', 'The endpoint requires authentication: pass the headers its record declares.');
    if (err.failure === 'not_mcp') return new AppError('upstream_not_mcp', `The endpoint did not answer as an MCP server: ${capErrorText(err.message)}.`);
    return new AppError('upstream_failed', `The endpoint failed: ${capErrorText(err.message)}.`);
  }
  return err;
}

function isToolEntry(value: unknown): value is Schemas['ProxiedTool'] {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'name') === 'string';
}

function isContent(value: unknown): value is { type: string } {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'type') === 'string';
}
