/**
 * The connect/invoke proxy (DESIGN.md "Proxy"): lets a web page try a catalogued remote
 * server. Only the server's own catalogued endpoints are reachable, through the guarded
 * network client; only headers its record declares pass through, and they are never stored.
 */
import type { components } from '../../generated/openapi.js';
import { AppError } from '../errors.js';
import { NetError, type NetClient } from '../net/index.js';
import { RemoteMcpError, openSession, type RemoteSession } from '../remote/mcp-session.js';
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
  readonly maxResponseBytes?: number;
}

const MAX_TOOLS = 500;

export function createProxyService(deps: ProxyDeps): ProxyService {
  const session = async (serverId: string, endpoint: string | undefined, headers: Readonly<Record<string, string>> | undefined): Promise<RemoteSession> => {
    const server = await deps.catalog.findServer(serverId);
    if (!server) throw new AppError('not_found', `No server has the id or name "${serverId}".`);
    const remote = endpointOf(server, endpoint);
    const passed = allowedHeaders(remote, headers ?? {});
    try {
      return await openSession(deps.net, remote.url, {
        headers: passed, clientVersion: deps.clientVersion, maxResponseBytes: deps.maxResponseBytes ?? 1024 * 1024,
        ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
      });
    } catch (err) {
      throw upstreamError(err);
    }
  };
  const call = async (open: RemoteSession, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    try {
      return await open.request(method, params);
    } catch (err) {
      throw upstreamError(err);
    }
  };

  return {
    async connect(request) {
      const open = await session(request.serverId, request.endpoint, request.headers);
      const listed = await call(open, 'tools/list', {});
      const tools = (Array.isArray(listed.tools) ? listed.tools : []).filter(isToolEntry).slice(0, MAX_TOOLS);
      const serverInfo = { ...open.serverInfo, name: typeof open.serverInfo.name === 'string' ? open.serverInfo.name : 'unknown' };
      return { serverId: request.serverId, endpoint: open.url, protocolVersion: open.protocolVersion, serverInfo, instructions: open.instructions, tools };
    },

    async invoke(request) {
      const open = await session(request.serverId, request.endpoint, request.headers);
      const result = await call(open, 'tools/call', { name: request.tool, arguments: request.arguments });
      return { serverId: request.serverId, endpoint: open.url, tool: request.tool, result: { ...result, content: Array.isArray(result.content) ? result.content.filter(isContent) : [] } };
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

/** Only headers the record declares for this endpoint, with safe values. */
function allowedHeaders(remote: Remote, headers: Readonly<Record<string, string>>): Record<string, string> {
  const declared = new Map(remote.headers.map((h) => [h.name.toLowerCase(), h.name]));
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const canonical = declared.get(name.toLowerCase());
    if (!canonical) {
      const allowed = remote.headers.map((h) => h.name).join(', ') || 'none';
      throw new AppError('header_not_allowed', `Header "${name}" is not declared by this endpoint's record; allowed: ${allowed}.`, [{ location: `headers.${name}`, message: 'is not declared for this endpoint' }]);
    }
    if (/[\r\n\0]/.test(value)) throw new AppError('validation_failed', `Header "${name}" has a control character.`, [{ location: `headers.${name}`, message: 'must not contain CR, LF or NUL' }]);
    passed[canonical] = value;
  }
  return passed;
}

/** Failures of the remote end, as problems with stable codes; a refused destination is a 4xx. */
function upstreamError(err: unknown): unknown {
  if (err instanceof NetError) {
    switch (err.code) {
      case 'blocked_destination':
        return new AppError('blocked_destination', 'The endpoint resolves to a private, loopback, link-local or reserved address; the proxy does not connect there.');
      case 'timeout':
        return new AppError('upstream_timeout', 'The endpoint did not answer in time.');
      case 'too_large':
        return new AppError('upstream_too_large', 'The endpoint sent more than the proxy accepts.');
      default:
        return new AppError('upstream_failed', `The endpoint could not be reached (${err.code}).`);
    }
  }
  if (err instanceof RemoteMcpError) {
    if (err.failure === 'auth_required') return new AppError('upstream_auth_required', 'The endpoint requires authentication: pass the headers its record declares.');
    if (err.failure === 'not_mcp') return new AppError('upstream_not_mcp', `The endpoint did not answer as an MCP server: ${err.message}.`);
    return new AppError('upstream_failed', `The endpoint failed: ${err.message}.`);
  }
  return err;
}

function isToolEntry(value: unknown): value is Schemas['ProxiedTool'] {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'name') === 'string';
}

function isContent(value: unknown): value is { type: string } {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'type') === 'string';
}
