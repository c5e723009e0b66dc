/**
 * GET /watchlists/{id} (getWatchlistPage): each domain's latest assessment, a link to it and what
 * changed since the one before, in words; and the webhook's last deliveries. Observations only.
 */
import type { components } from '../../../generated/openapi.js';
import type { AssetCatalog } from '../assets.js';
import { ASSESSMENT_STATUS, ChangeList, formatDate, formatDateTime, plural } from '../components.js';
import { Layout } from '../layout.js';

type Schemas = components['schemas'];
type Watchlist = Schemas['Watchlist'];
type DomainState = Schemas['WatchlistDomainState'];
type Run = Schemas['WatchlistRun'];

const DELIVERY: Readonly<Record<Run['delivery']['state'], string>> = {
  none: 'No webhook', pending: 'Waiting', delivered: 'Delivered', failed: 'Not delivered (six attempts failed)', refused: 'Refused: a private address, nothing sent',
};


/** "every 24 hours" as a person says it. */
export function everyText(hours: number): string {
  return hours % 24 === 0 ? `every ${plural(hours / 24, 'day')}` : `every ${plural(hours, 'hour')}`;
}

export function WatchlistPage({ assets, watchlist }: { readonly assets: AssetCatalog; readonly watchlist: Watchlist }) {
  const title = watchlist.name ?? 'Watchlist';
  return (
    <Layout assets={assets} section="assess" title={title} description={`${plural(watchlist.domains.length, 'business domain')} re-assessed ${everyText(watchlist.intervalHours)}. Observations only.`}>
      <h1>{title}</h1>
      <p class="notice notice-strong" role="note">{watchlist.notice}</p>
      <dl class="facts-list">
        <div><dt>Domains</dt><dd>{watchlist.domains.length}</dd></div>
        <div><dt>Assessed</dt><dd>{everyText(watchlist.intervalHours)}</dd></div>
        <div><dt>Last run</dt><dd>{formatDateTime(watchlist.lastRunAt, 'not yet')}</dd></div>
        <div><dt>Next run</dt><dd>{formatDateTime(watchlist.nextRunAt)}</dd></div>
        <div><dt>Webhook</dt><dd>{watchlist.webhook === null ? 'none' : <code>{watchlist.webhook.url}</code>}</dd></div>
      </dl>
      <section aria-labelledby="domains-title" class="panel">
        <h2 id="domains-title">Domains</h2>
        <ul class="observation-list">
          {watchlist.latest.map((state) => <DomainItem state={state} />)}
        </ul>
      </section>
      <Deliveries runs={watchlist.runs} hooked={watchlist.webhook !== null} />
      <p class="page-actions muted">This page needs no token: whoever has its address can read it, so share it as you would the token.</p>
    </Layout>
  );
}

function DomainItem({ state }: { readonly state: DomainState }) {
  return (
    <li class="observation" data-domain={state.domain}>
      <h3 class="observation-label"><code>{state.domain}</code>{' '}{state.status === null ? <span class="status status-queued">Not assessed yet</span> : <span class={`status status-${state.status}`}>{ASSESSMENT_STATUS[state.status]}</span>}</h3>
      {state.assessmentId === null ? <p class="muted">The first run assesses it within seconds of the watchlist's creation.</p> : (
        <p>
          <a href={`/assessments/${encodeURIComponent(state.assessmentId)}`}>The latest assessment</a>
          {state.completedAt === null ? ', not finished yet.' : `, finished ${formatDateTime(state.completedAt)}.`}
        </p>
      )}
      <ChangesInWords state={state} />
    </li>
  );
}

/** "Since 12 Nov 2026: …", each change with both sides in words; nothing judged. */
function ChangesInWords({ state }: { readonly state: DomainState }) {
  if (state.changes === null) {
    return state.status === 'complete' || state.status === 'partial' ? <p class="muted">Nothing earlier to compare with.</p> : null;
  }
  const since = formatDate(state.changes.since.completedAt);
  if (state.changes.items.length === 0) return <p class="changes">Since {since}: no observation differs.</p>;
  return (
    <div class="changes">
      <p>Since {since}: {plural(state.changes.items.length, 'observation')} {state.changes.items.length === 1 ? 'differs' : 'differ'}.</p>
      <ChangeList items={state.changes.items} />
    </div>
  );
}

/** The latest runs' webhook deliveries, each attempt with what came back; one under another, so no width crushes a column. */
function Deliveries({ runs, hooked }: { readonly runs: readonly Run[]; readonly hooked: boolean }) {
  return (
    <section aria-labelledby="deliveries-title" class="panel">
      <h2 id="deliveries-title">Webhook deliveries</h2>
      {!hooked ? <p>This watchlist has no webhook.</p> : runs.length === 0 ? <p>No run yet.</p> : (
        <ol class="observation-list deliveries">
          {runs.map((run) => (
            <li class="observation" data-run={run.id}>
              <h3 class="observation-label">Run of {formatDateTime(run.startedAt)}: {DELIVERY[run.delivery.state]}</h3>
              {run.delivery.state === 'pending' && run.delivery.nextAttemptAt !== null ? <p class="status-note">Next try {formatDateTime(run.delivery.nextAttemptAt)}.</p> : null}
              {run.delivery.attempts.length === 0 ? null : (
                <ol class="plain">
                  {run.delivery.attempts.map((attempt) => (
                    <li>{formatDateTime(attempt.at)}: {attempt.outcome === 'delivered' ? `delivered (HTTP ${attempt.status ?? ''})` : attempt.error ?? attempt.outcome}</li>
                  ))}
                </ol>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
