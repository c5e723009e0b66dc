/** Trust evidence and endpoint status on a server page: what was checked, what was seen, when; never a verdict. */
import type { StatusReport, TrustReport } from '../../types.js';
import { formatDateTime } from '../components.js';

const CHECKS: Readonly<Record<string, string>> = {
  namespace_matches_owner: 'Name matches the repository owner or endpoint host',
  repository_present: 'Source repository listed',
  license_present: 'Licence stated',
  packages_pinned: 'Packages pinned to exact versions',
  remotes_use_https: 'Remote endpoints use HTTPS',
  secrets_declared: 'Secrets declared as secrets',
  tool_annotations: 'Tools say whether they are read-only or destructive',
  multiple_sources: 'Listed by several sources',
  endpoint_health: 'Endpoint answers as an MCP server',
  tool_definitions: 'Tool descriptions hold no hidden instructions',
  tools_changed: 'Tools unchanged since first seen',
};

const OUTCOME: Readonly<Record<string, string>> = { pass: 'Pass', fail: 'Fail', unknown: 'Unknown' };

export function TrustSection({ trust }: { readonly trust: TrustReport }) {
  return (
    <section id="trust" aria-labelledby="trust-title" class="panel">
      <h2 id="trust-title">Trust evidence</h2>
      <p class="muted">
        {trust.summary.pass} passed, {trust.summary.fail} failed, {trust.summary.unknown} unknown. These are checks with their evidence, not a rating.
      </p>
      <div class="table-scroll" tabIndex={0} role="region" aria-label="Trust checks table">
        <table class="evidence">
          <caption class="visually-hidden">Trust checks</caption>
          <thead>
            <tr><th scope="col">Check</th><th scope="col">Outcome</th><th scope="col">Evidence</th><th scope="col">Source</th></tr>
          </thead>
          <tbody>
            {trust.checks.map((check) => (
              <tr>
                <th scope="row">{CHECKS[check.check] ?? check.check}</th>
                <td><span class={`outcome outcome-${check.outcome}`}>{OUTCOME[check.outcome] ?? check.outcome}</span></td>
                <td>{check.evidence}</td>
                <td>{check.source}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {trust.upstream.length > 0 ? (
        <p class="muted">
          What each source published ({trust.upstream.map((record) => record.source).join(', ')}), as ingested, is in{' '}
          <a href={`/api/v1/servers/${encodeURIComponent(trust.serverId)}/trust`}>this server’s trust report as JSON</a>.
        </p>
      ) : null}
    </section>
  );
}

const STATE: Readonly<Record<string, string>> = {
  up: 'Up',
  auth_required: 'Needs credentials',
  not_mcp: 'Not MCP',
  down: 'Down',
  blocked: 'Refused (private address)',
  unknown: 'Not checked yet',
};

export function StatusSection({ status }: { readonly status: StatusReport }) {
  return (
    <section id="status" aria-labelledby="status-title" class="panel">
      <h2 id="status-title">Endpoint status</h2>
      {status.note ? <p class="muted">{status.note}</p> : null}
      {status.endpoints.length === 0 ? <p>This server runs locally; it has no remote endpoint to check.</p> : null}
      {status.endpoints.map((endpoint) => (
        <article class="endpoint">
          <h3 class="endpoint-url"><code>{endpoint.url}</code></h3>
          <dl class="facts-list">
            <div><dt>State</dt><dd><span class={`state state-${endpoint.state}`}>{STATE[endpoint.state] ?? endpoint.state}</span></dd></div>
            <div><dt>Checked</dt><dd>{formatDateTime(endpoint.checkedAt)}</dd></div>
            <div><dt>HTTP status</dt><dd>{endpoint.httpStatus ?? '–'}</dd></div>
            <div><dt>Latency</dt><dd>{endpoint.latencyMs === null ? '–' : `${endpoint.latencyMs} ms`}</dd></div>
            <div><dt>Protocol</dt><dd>{endpoint.protocolVersion ?? '–'}</dd></div>
            <div><dt>Uptime</dt><dd>{endpoint.uptime.ratio === null ? 'No checks yet' : `${Math.round(endpoint.uptime.ratio * 100)}% of ${endpoint.uptime.checks} checks`}</dd></div>
          </dl>
          {endpoint.lastError ? <p class="muted">Last error: {endpoint.lastError}</p> : null}
          {endpoint.history.length > 0 ? (
            <table class="history">
              <caption>Recent checks</caption>
              <thead>
                <tr><th scope="col">When</th><th scope="col">State</th><th scope="col">HTTP</th><th scope="col">Latency</th></tr>
              </thead>
              <tbody>
                {endpoint.history.slice(0, 10).map((check) => (
                  <tr>
                    <td>{formatDateTime(check.checkedAt)}</td>
                    <td>{STATE[check.state] ?? check.state}</td>
                    <td>{check.httpStatus ?? '–'}</td>
                    <td>{check.latencyMs === null ? '–' : `${check.latencyMs} ms`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </article>
      ))}
    </section>
  );
}
