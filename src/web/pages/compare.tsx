/** GET /compare (getComparePage): servers side by side, as GET /api/v1/servers/compare returns them. */
import type { Comparison } from '../../types.js';
import type { AssetCatalog } from '../assets.js';
import { authLabel, serverPath, transportLabel } from '../components.js';
import { Layout } from '../layout.js';

export type CompareData =
  | { readonly kind: 'comparison'; readonly comparison: Comparison; readonly categoryNames: ReadonlyMap<string, string> }
  | { readonly kind: 'choose'; readonly chosen: ReadonlyArray<{ readonly id: string; readonly title: string }> };

const STATE: Readonly<Record<string, string>> = { up: 'Up', auth_required: 'Needs credentials', not_mcp: 'Not MCP', down: 'Down', blocked: 'Refused', unknown: 'Not checked' };

export function ComparePage({ assets, data }: { readonly assets: AssetCatalog; readonly data: CompareData }) {
  if (data.kind === 'choose') return <ChoosePage assets={assets} chosen={data.chosen} />;
  const { comparison, categoryNames } = data;
  const servers = comparison.servers;
  const rows: ReadonlyArray<readonly [string, (s: Comparison['servers'][number]) => string]> = [
    ['Name', (s) => s.name],
    ['Transports', (s) => s.transports.map(transportLabel).join(', ') || 'none'],
    ['Remote endpoints', (s) => String(s.endpointCount)],
    ['Tools', (s) => (s.toolCount === null ? 'not listed' : String(s.toolCount))],
    ['Sign-in', (s) => authLabel(s.authentication)],
    ['Licence', (s) => s.license ?? 'Not stated'],
    ['Status', (s) => STATE[s.status] ?? s.status],
    ['Categories', (s) => s.categories.map((slug) => categoryNames.get(slug) ?? slug).join(', ') || 'none'],
    ['Trust checks', (s) => `${s.trust.summary.pass} pass, ${s.trust.summary.fail} fail, ${s.trust.summary.unknown} unknown`],
  ];
  const title = `Compare ${servers.map((s) => s.title ?? s.name).join(', ')}`;
  // A server whose tools no source lists can share none: the page says so rather than "none".
  const unlisted = servers.filter((s) => s.toolCount === null).map((s) => s.title ?? s.name);
  return (
    <Layout assets={assets} section="compare" title={title} description={`${servers.length} MCP servers side by side: transports, tools, sign-in, licence, status and trust checks.`}>
      <h1>Compare servers</h1>
      <div class="table-scroll panel" tabIndex={0} role="region" aria-label="Comparison table">
        <table class="compare">
          <caption class="visually-hidden">The servers side by side</caption>
          <thead>
            <tr>
              <td />
              {servers.map((s) => (
                <th scope="col"><a href={serverPath(s.id)}>{s.title ?? s.name}</a></th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map(([label, value]) => (
              <tr>
                <th scope="row">{label}</th>
                {servers.map((s) => <td>{value(s)}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section aria-labelledby="shared-title" class="panel">
        <h2 id="shared-title">Tools they share</h2>
        {comparison.tools.shared.length === 0 ? (
          <p>{unlisted.length > 0 ? `None known: the tools of ${unlisted.join(', ')} are not listed.` : 'None: no tool name is offered by all of them.'}</p>
        ) : (
          <ul class="chips">{comparison.tools.shared.map((name) => <li><code>{name}</code></li>)}</ul>
        )}
        <h2>Tools only one of them has</h2>
        {comparison.tools.unique.map((entry) => {
          const server = servers.find((s) => s.id === entry.serverId);
          return (
            <div class="unique">
              <h3><a href={serverPath(entry.serverId)}>{server?.title ?? server?.name ?? entry.serverId}</a></h3>
              {entry.tools.length > 0 ? <ul class="chips">{entry.tools.map((name) => <li><code>{name}</code></li>)}</ul> : (
                <p class="muted">{server?.toolCount === null ? 'Not listed: no source lists its tools.' : 'None.'}</p>
              )}
            </div>
          );
        })}
      </section>
    </Layout>
  );
}

function ChoosePage({ assets, chosen }: { readonly assets: AssetCatalog; readonly chosen: ReadonlyArray<{ readonly id: string; readonly title: string }> }) {
  return (
    <Layout assets={assets} section="compare" title="Compare servers" description="Pick two to ten MCP servers and see them side by side.">
      <h1>Compare servers</h1>
      {chosen.length === 0 ? (
        <p>Pick two to ten servers to see them side by side: search, tick the servers, then press “Compare ticked servers”.</p>
      ) : (
        <p>
          You picked <a href={serverPath(chosen[0]?.id ?? '')}>{chosen[0]?.title}</a>. Find at least one more server to compare it with.
        </p>
      )}
      <form class="search" action="/servers" method="get" role="search">
        <label for="compare-q" class="visually-hidden">Search servers</label>
        <input id="compare-q" type="search" name="q" placeholder="Search servers to compare" autocomplete="off" />
        {chosen.map((c) => <input type="hidden" name="compare" value={c.id} />)}
        <button type="submit">Search</button>
      </form>
    </Layout>
  );
}
