/** GET / (getHomePage): the search box, catalog totals, categories with counts, the newest servers. */
import type { CategoryList, ServerSummary } from '../../types.js';
import type { AssetCatalog } from '../assets.js';
import { ServerCard, plural } from '../components.js';
import { Layout } from '../layout.js';

export interface HomeData {
  /** The newest servers without a quality flag. */
  readonly recent: readonly ServerSummary[];
  readonly serverTotal: number;
  readonly toolTotal: number;
  readonly categories: CategoryList;
}

export function HomePage({ assets, data }: { readonly assets: AssetCatalog; readonly data: HomeData }) {
  const names = new Map(data.categories.items.map((c) => [c.slug, c.name]));
  const categories = data.categories.items.filter((c) => c.count > 0);
  return (
    <Layout assets={assets} section="home" title="Sextant: find and try MCP servers" description={`Search ${plural(data.serverTotal, 'MCP server')} and ${plural(data.toolTotal, 'tool')}: install instructions for every client, trust evidence, live status, and a place to try them.`}>
      <section class="hero" aria-labelledby="hero-title">
        <h1 id="hero-title">Find the MCP server for the job</h1>
        <p class="lead">
          {plural(data.serverTotal, 'server')} and {plural(data.toolTotal, 'tool')} from the official MCP registry, Docker's catalog and toolsdk,
          with install instructions for every client, trust evidence and live endpoint status.
        </p>
        <form class="search" action="/servers" method="get" role="search">
          <label for="home-q" class="visually-hidden">Search servers</label>
          <input id="home-q" type="search" name="q" placeholder="Search servers, e.g. github, postgres, weather" autocomplete="off" />
          <button type="submit">Search</button>
        </form>
        <p class="hero-links">
          Or browse <a href="/servers">all servers</a>, search <a href="/tools">tools</a>, read the <a href="/docs">API reference</a>,
          or <a href="/assess">assess a business's web estate</a>.
        </p>
      </section>

      <section aria-labelledby="categories-title">
        <h2 id="categories-title">Categories</h2>
        {categories.length === 0 ? (
          <p>No servers are catalogued yet.</p>
        ) : (
          <ul class="categories">
            {categories.map((category) => (
              <li>
                <a href={`/servers?category=${encodeURIComponent(category.slug)}`}>
                  <span class="category-name">{category.name}</span>
                  <span class="count">{category.count.toLocaleString('en-US')}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="recent-title">
        <h2 id="recent-title">Recently published</h2>
        <ul class="cards">
          {data.recent.map((server) => (
            <ServerCard server={server} categoryNames={names} />
          ))}
        </ul>
        <p><a href="/servers?sort=newest">All servers, newest first →</a></p>
      </section>
    </Layout>
  );
}
