/** Endpoint status from the monitor's stored checks (DESIGN.md "Status"); this probes nothing. */
import type { CatalogServer } from '../catalog/catalog-entry.js';
import type { components } from '../../generated/openapi.js';
import type { EndpointCheck, EndpointState } from '../store/index.js';
import type { Server } from '../types.js';

type StatusReport = components['schemas']['StatusReport'];
type EndpointStatus = components['schemas']['EndpointStatus'];

/** Checks kept in a status report's history, per endpoint. */
export const STATUS_HISTORY = 20;

/** The checks of one endpoint, newest first. */
export function checksOf(checks: readonly EndpointCheck[], url: string): EndpointCheck[] {
  return checks.filter((c) => c.url === url).sort((a, b) => b.checkedAt.localeCompare(a.checkedAt));
}

export function statusReport(server: CatalogServer, checks: readonly EndpointCheck[]): StatusReport {
  const endpoints = server.remotes.map((remote): EndpointStatus => {
    const history = checksOf(checks, remote.url);
    const latest = history[0];
    const counted = history.filter((c) => c.state !== 'unknown');
    const up = counted.filter((c) => c.state === 'up' || c.state === 'auth_required').length;
    return {
      url: remote.url,
      transport: remote.transport,
      state: latest?.state ?? 'unknown',
      httpStatus: latest?.httpStatus ?? null,
      latencyMs: latest?.latencyMs ?? null,
      protocolVersion: latest?.protocolVersion ?? null,
      toolCount: latest?.toolCount ?? null,
      checkedAt: latest?.checkedAt ?? null,
      lastError: latest?.error ?? null,
      cuts: latest?.cuts ? [...latest.cuts] : null,
      uptime: { checks: counted.length, up, ratio: counted.length > 0 ? Math.round((up / counted.length) * 1000) / 1000 : null },
      history: history.slice(0, STATUS_HISTORY).map((c) => ({ checkedAt: c.checkedAt, state: c.state, httpStatus: c.httpStatus, latencyMs: c.latencyMs })),
    };
  });
  const legacy = server.remotes.some((r) => r.transport === 'sse');
  const note = server.remotes.length === 0
    ? 'This server has no remote endpoints: it runs locally from its package, so there is nothing to check.'
    : endpoints.every((e) => e.checkedAt === null)
      ? `The monitor has not checked these endpoints yet${legacy ? '; it does not probe the legacy HTTP+SSE transport' : ''}.`
      : null;
  return { serverId: server.id, serverName: server.name, endpoints, note };
}

/** The state of a server's primary endpoint as last checked. */
export function primaryState(server: Pick<CatalogServer, 'remotes'>, checks: readonly EndpointCheck[]): EndpointState {
  const primary = server.remotes[0];
  if (!primary) return 'unknown';
  return checksOf(checks, primary.url)[0]?.state ?? 'unknown';
}
