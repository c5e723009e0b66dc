/** GET /tools (getToolsPage): tool search results; each tool links to its server's page. */
import type { ToolPage, ToolSort } from '../../types.js';
import type { AssetCatalog } from '../assets.js';
import { MatchNote, Pager, PartialMatch, authLabel, plural, queryString, serverPath } from '../components.js';
import { Layout } from '../layout.js';

const TOOL_SORTS: ReadonlyArray<readonly [ToolSort, string]> = [
  ['relevance', 'Best match'],
  ['a-z', 'Name, A to Z'],
  ['z-a', 'Name, Z to A'],
];

const AUTHENTICATIONS = [
  ['', 'Any'],
  ['none', 'No sign-in'],
  ['api_key', 'API key'],
  ['oauth', 'OAuth'],
  ['unknown', 'Unknown'],
] as const;

export function ToolsPage({ assets, page }: { readonly assets: AssetCatalog; readonly page: ToolPage }) {
  const heading = page.query ? `Tools matching “${page.query}”` : 'All tools';
  const hrefFor = (offset: number) => `/tools${queryString([['q', page.query], ['authentication', page.authentication], ['sort', page.sort], ['offset', offset || null]])}`;
  return (
    <Layout assets={assets} section="tools" title={heading} description={`${plural(page.total, 'tool')} offered by MCP servers in the Sextant registry.`}>
      <h1>{heading}</h1>
      <form class="filters" action="/tools" method="get" role="search">
        <div class="field grow">
          <label for="tools-q">Search</label>
          <input id="tools-q" type="search" name="q" value={page.query ?? ''} autocomplete="off" />
        </div>
        <div class="field">
          <label for="tools-auth">Server sign-in</label>
          <select id="tools-auth" name="authentication">
            {AUTHENTICATIONS.map(([value, label]) => (
              <option value={value} selected={value === (page.authentication ?? '')}>{label}</option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="tools-sort">Sort by</label>
          <select id="tools-sort" name="sort">
            {TOOL_SORTS.map(([value, label]) => (
              <option value={value} selected={value === page.sort}>{label}</option>
            ))}
          </select>
        </div>
        <button type="submit">Search</button>
      </form>
      <p class="result-count" role="status">{plural(page.total, 'tool')}</p>
      <MatchNote terms={page.terms} items={page.items} noun="tool" />
      {page.items.length === 0 ? (
        <p class="empty">No tool holds any of these words. Try other words.</p>
      ) : (
        <>
        <h2 class="visually-hidden">Results</h2>
        <ul class="cards">
          {page.items.map((tool) => (
            <li class="card">
              <h3 class="card-title">
                <a href={`${serverPath(tool.serverId)}#tool-${encodeURIComponent(tool.name)}`}>{tool.title ?? tool.name}</a>
              </h3>
              <p class="card-name"><code>{tool.name}</code> on <a href={serverPath(tool.serverId)}>{tool.serverName}</a></p>
              <p class="card-description">{tool.description || 'No description.'}</p>
              <PartialMatch terms={page.terms} matched={tool.matchedTerms} />
              <ul class="facts" aria-label="Facts">
                <li>{authLabel(tool.authentication)}</li>
                {tool.annotations.readOnlyHint === true ? <li class="tag">Read-only</li> : null}
                {tool.annotations.destructiveHint === true ? <li class="tag warn">Destructive</li> : null}
              </ul>
            </li>
          ))}
        </ul>
        </>
      )}
      <Pager total={page.total} offset={page.offset} limit={page.limit} hrefFor={hrefFor} />
    </Layout>
  );
}
