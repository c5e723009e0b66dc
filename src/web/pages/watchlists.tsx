/**
 * GET and POST /watchlists: a form for the watchlist token, then every watchlist with its
 * domains, schedule and last run, each linking to its page. The token is never put in a link.
 */
import type { components } from '../../../generated/openapi.js';
import type { AssetCatalog } from '../assets.js';
import { formatDateTime, plural } from '../components.js';
import { Layout } from '../layout.js';
import { everyText } from './watchlist.js';

type Summary = components['schemas']['WatchlistSummary'];

export interface WatchlistsData {
  /** The watchlists, once the token was given; null shows the form. */
  readonly watchlists: readonly Summary[] | null;
  /** Why the last token was refused. */
  readonly error?: string;
}

export function WatchlistsPage({ assets, data }: { readonly assets: AssetCatalog; readonly data: WatchlistsData }) {
  return (
    <Layout assets={assets} section="assess" title="Watchlists" description="Business domains re-assessed on a schedule. Observations only.">
      <h1>Watchlists</h1>
      {data.watchlists === null ? <TokenForm error={data.error} /> : <WatchlistList watchlists={data.watchlists} />}
    </Layout>
  );
}

function TokenForm({ error }: { readonly error: string | undefined }) {
  return (
    <form class="assess-form" action="/watchlists" method="post" novalidate>
      {error === undefined ? null : <p class="error-text" role="alert" id="watchlist-token-error">{error}</p>}
      <div class="field">
        <label for="watchlist-token">Watchlist token</label>
        <input id="watchlist-token" name="token" type="password" autocomplete="current-password" required aria-describedby={error === undefined ? 'watchlist-token-hint' : 'watchlist-token-error watchlist-token-hint'} aria-invalid={error === undefined ? undefined : 'true'} />
        <p class="hint" id="watchlist-token-hint">The token the operator set in WATCHLIST_TOKEN. It is sent with this form only, never kept.</p>
      </div>
      <button type="submit">Show the watchlists</button>
    </form>
  );
}

function WatchlistList({ watchlists }: { readonly watchlists: readonly Summary[] }) {
  if (watchlists.length === 0) return <p>There are no watchlists yet. Create one with <code>POST /api/v1/watchlists</code>.</p>;
  return (
    <section aria-labelledby="watchlists-title" class="panel">
      <h2 id="watchlists-title">{plural(watchlists.length, 'watchlist')}</h2>
      <ol class="batch-list">
        {watchlists.map((w) => (
          <li>
            <a class="batch-domain" href={`/watchlists/${encodeURIComponent(w.id)}`}>{w.name ?? 'Unnamed watchlist'}</a>{' '}
            {plural(w.domains.length, 'domain')}, assessed {everyText(w.intervalHours)}
            <span class="status-note">Last run {formatDateTime(w.lastRunAt, 'not yet')}; next {formatDateTime(w.nextRunAt)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
