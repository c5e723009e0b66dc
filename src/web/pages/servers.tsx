/** GET /servers (getServersPage): server search results with the API's parameters, sorts and pages; tick results to compare them. */
import type { CategoryList, ServerPage, ServerSort } from '../../types.js';
import type { AssetCatalog } from '../assets.js';
import { MatchNote, Pager, ServerCard, plural, queryString, serverPath } from '../components.js';
import { Layout } from '../layout.js';

export const SERVER_SORTS: ReadonlyArray<readonly [ServerSort, string]> = [
  ['relevance', 'Best match'],
  ['a-z', 'Name, A to Z'],
  ['z-a', 'Name, Z to A'],
  ['newest', 'Newest'],
  ['oldest', 'Oldest'],
  ['tools', 'Most tools'],
  ['endpoints', 'Most endpoints'],
];

export interface ServersData {
  readonly page: ServerPage;
  readonly categories: CategoryList;
  /** Servers already chosen for comparison (`compare`), with their titles. */
  readonly chosen: ReadonlyArray<{ readonly id: string; readonly title: string }>;
}

export function ServersPage({ assets, data }: { readonly assets: AssetCatalog; readonly data: ServersData }) {
  const { page, categories, chosen } = data;
  const names = new Map(categories.items.map((c) => [c.slug, c.name]));
  const categoryName = page.category ? (names.get(page.category) ?? page.category) : null;
  const heading = page.query ? `Servers matching “${page.query}”` : categoryName ? `${categoryName} servers` : 'All servers';
  const compare = chosen.map((c) => c.id);
  const hrefFor = (offset: number) =>
    `/servers${queryString([['q', page.query], ['category', page.category], ['trust', page.trust], ['quality', page.quality], ['sort', page.sort], ['offset', offset || null], ...compare.map((id) => ['compare', id] as const)])}`;
  return (
    <Layout assets={assets} section="servers" title={heading} description={`${plural(page.total, 'MCP server')}${page.query ? ` matching “${page.query}”` : ''} in the Sextant registry.`}>
      <h1>{heading}</h1>
      <ServerFilters page={page} categories={categories} compare={compare} />
      <p class="result-count" role="status">
        {plural(page.total, 'server')} · sorted by {SERVER_SORTS.find(([value]) => value === page.sort)?.[1].toLowerCase() ?? page.sort}
      </p>
      <MatchNote terms={page.terms} items={page.items} noun="server" />
      {page.items.length === 0 ? (
        <p class="empty">No server holds any of these words. Try other words, or <a href="/servers">browse them all</a>.</p>
      ) : (
        <form action="/compare" method="get" class="compare-form">
          {chosen.length > 0 ? (
            <p class="compare-note">
              Comparing {chosen.map((c, i) => (
                <>
                  {i > 0 ? ', ' : ''}
                  <a href={serverPath(c.id)}>{c.title}</a>
                </>
              ))}
              : tick the servers to compare with, then press Compare.
            </p>
          ) : null}
          {compare.map((id) => <input type="hidden" name="ids" value={id} />)}
          <h2 class="visually-hidden">Results</h2>
          <ul class="cards">
            {page.items.map((server) => (
              <ServerCard server={server} categoryNames={names} compare terms={page.terms} />
            ))}
          </ul>
          <div class="compare-bar">
            <button type="submit">Compare ticked servers</button>
            <span class="muted">Tick 2 to 10 servers.</span>
          </div>
        </form>
      )}
      <Pager total={page.total} offset={page.offset} limit={page.limit} hrefFor={hrefFor} />
    </Layout>
  );
}

/** The search, category and sort form; the servers chosen for comparison ride along. */
function ServerFilters({ page, categories, compare }: { readonly page: ServerPage; readonly categories: CategoryList; readonly compare: readonly string[] }) {
  return (
  <form class="filters" action="/servers" method="get" role="search">
    <div class="field grow">
      <label for="servers-q">Search</label>
      <input id="servers-q" type="search" name="q" value={page.query ?? ''} autocomplete="off" />
    </div>
    <div class="field">
      <label for="servers-category">Category</label>
      <select id="servers-category" name="category">
        <option value="">Any category</option>
        {categories.items.map((c) => (
          <option value={c.slug} selected={c.slug === page.category}>{`${c.name} (${c.count})`}</option>
        ))}
      </select>
    </div>
    <div class="field">
      <label for="servers-trust">Tool checks</label>
      <select id="servers-trust" name="trust">
        <option value="">Any</option>
        <option value="clean" selected={page.trust === 'clean'}>No findings, unchanged</option>
      </select>
    </div>
    <div class="field">
      <label for="servers-quality">Test and template records</label>
      <select id="servers-quality" name="quality">
        <option value="">Listed last</option>
        <option value="unflagged" selected={page.quality === 'unflagged'}>Hidden</option>
        <option value="flagged" selected={page.quality === 'flagged'}>Only these</option>
      </select>
    </div>
    <div class="field">
      <label for="servers-sort">Sort by</label>
      <select id="servers-sort" name="sort">
        {SERVER_SORTS.map(([value, label]) => (
          <option value={value} selected={value === page.sort}>{label}</option>
        ))}
      </select>
    </div>
    {compare.map((id) => <input type="hidden" name="compare" value={id} />)}
    <button type="submit">Search</button>
  </form>
  );
}
