/** Small pieces the pages share. Every value is passed to preact as text or an attribute, never as markup. */
import type { ComponentChildren } from 'preact';
import type { ServerQualityFlag, ServerSummary } from '../types.js';
import { safeHref } from './security.js';
import { plural } from '../plural.js';

/** A link only when `href` is http(s); otherwise the text alone (a `javascript:` URL stays visible, inert). */
export function ExternalLink({ href, children }: { readonly href: string | null | undefined; readonly children?: ComponentChildren }) {
  const safe = safeHref(href);
  if (safe === null) return <span class="unlinked">{children ?? href ?? ''}</span>;
  return (
    <a href={safe} rel="noopener noreferrer nofollow" class="external">
      {children ?? safe}
    </a>
  );
}

/** The page of a server. */
export const serverPath = (id: string): string => `/servers/${encodeURIComponent(id)}`;

// Made once: `toLocaleString` with options builds a formatter on every call.
const DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const DATE_TIME = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

/** A date as `25 Nov 2026`, or the fallback. */
export function formatDate(iso: string | null | undefined, fallback = 'unknown'): string {
  if (!iso) return fallback;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return fallback;
  return DATE.format(date);
}

/** A date and time in UTC, `25 Nov 2026, 14:03 UTC`. */
export function formatDateTime(iso: string | null | undefined, fallback = 'never'): string {
  if (!iso) return fallback;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return fallback;
  return `${DATE_TIME.format(date)} UTC`;
}

const AUTHENTICATION: Readonly<Record<string, string>> = { none: 'No sign-in', api_key: 'API key', oauth: 'OAuth', unknown: 'Sign-in unknown' };

export function authLabel(authentication: string): string {
  return AUTHENTICATION[authentication] ?? authentication;
}

const TRANSPORT: Readonly<Record<string, string>> = { stdio: 'Local (stdio)', 'streamable-http': 'Streamable HTTP', sse: 'HTTP+SSE' };

export function transportLabel(transport: string): string {
  return TRANSPORT[transport] ?? transport;
}

export { plural };

/** A server's tool count as a page says it: a count no source or check stated is not zero. */
export function toolCountLabel(count: number | null): string {
  return count === null ? 'tools not listed' : plural(count, 'tool');
}

/** What each quality flag says to a person (src/catalog/quality.ts). */
const QUALITY_LABELS: Readonly<Record<ServerQualityFlag, string>> = {
  test: 'Test or staging record',
  template: 'Template or demo',
  placeholder: 'Placeholder text',
  duplicate: 'Copy of another server',
};

/** A server's quality flags as facts, for a list of facts. */
export function QualityFacts({ flags }: { readonly flags: readonly ServerQualityFlag[] }) {
  return (
    <>
      {flags.map((flag) => (
        <li class="warn">{QUALITY_LABELS[flag]}</li>
      ))}
    </>
  );
}

/** A server in a list: its name linking to its page, what it does, and its facts. */
export function ServerCard({ server, categoryNames, compare, terms }: { readonly server: ServerSummary & { readonly matchedTerms?: readonly string[] }; readonly categoryNames: ReadonlyMap<string, string>; readonly compare?: boolean; readonly terms?: readonly string[] | null }) {
  const title = server.title ?? server.name;
  return (
    <li class="card server-card">
      <div class="card-head">
        <h3 class="card-title">
          <a href={serverPath(server.id)}>{title}</a>
        </h3>
        {compare ? (
          <label class="compare-pick">
            <input type="checkbox" name="ids" value={server.id} /> Compare <span class="visually-hidden">{title}</span>
          </label>
        ) : null}
      </div>
      <p class="card-name"><code>{server.name}</code></p>
      <p class="card-description">{server.description || 'No description.'}</p>
      <PartialMatch terms={terms} matched={server.matchedTerms} />
      <ul class="facts" aria-label="Facts">
        <li>{toolCountLabel(server.toolCount)}</li>
        <li>{server.transports.map(transportLabel).join(', ') || 'No transport listed'}</li>
        <li>{authLabel(server.authentication)}</li>
        <QualityFacts flags={server.quality.flags} />
        {server.categories.slice(0, 3).map((slug) => (
          <li class="tag">{categoryNames.get(slug) ?? slug}</li>
        ))}
      </ul>
    </li>
  );
}

/** Whether a result holds only some of the words searched. */
function isPartial(terms: readonly string[] | null | undefined, matched: readonly string[] | undefined): boolean {
  return !!terms && !!matched && matched.length < terms.length;
}

/** On a result holding only some of the words searched: which it holds and which not. */
export function PartialMatch({ terms, matched }: { readonly terms?: readonly string[] | null; readonly matched?: readonly string[] }) {
  if (!terms || !matched || !isPartial(terms, matched)) return null;
  const missing = terms.filter((term) => !matched.includes(term));
  return (
    <p class="card-match">
      Matches {matched.join(', ')}; not {missing.join(', ')}
    </p>
  );
}

/**
 * Above results of a search with several words, when some hold only some of them: says so, and
 * which words were searched (stop words and words no record holds are left out).
 */
export function MatchNote({ terms, items, noun }: { readonly terms: readonly string[] | null; readonly items: ReadonlyArray<{ readonly matchedTerms?: readonly string[] }>; readonly noun: string }) {
  if (!terms || terms.length < 2) return null;
  const partial = items.filter((item) => isPartial(terms, item.matchedTerms)).length;
  if (partial === 0) return null;
  const words = terms.join(', ');
  return (
    <p class="match-note">
      {partial === items.length
        ? `No ${noun} on this page matches every word searched (${words}): these match some of them.`
        : `${noun[0]?.toUpperCase() ?? ''}${noun.slice(1)}s matching every word searched (${words}) come first; the others match only some of them.`}
    </p>
  );
}

/** Previous and next links for a result page (20 to a page). */
export function Pager({ total, offset, limit, hrefFor }: { readonly total: number; readonly offset: number; readonly limit: number; readonly hrefFor: (offset: number) => string }) {
  if (total <= limit && offset === 0) return null;
  const last = Math.min(offset + limit, total);
  const previous = offset > 0 ? Math.max(0, offset - limit) : null;
  const next = offset + limit < total && offset + limit <= 10000 ? offset + limit : null;
  return (
    <nav class="pager" aria-label="Pages">
      {previous === null ? <span class="pager-off" aria-hidden="true">← Previous</span> : <a href={hrefFor(previous)} rel="prev">← Previous</a>}
      <span class="pager-where">{total === 0 ? 'No results' : `${(offset + 1).toLocaleString('en-US')}–${last.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}`}</span>
      {next === null ? <span class="pager-off" aria-hidden="true">Next →</span> : <a href={hrefFor(next)} rel="next">Next →</a>}
    </nav>
  );
}

/** A query string from the parameters that have a value (`?q=…&sort=…`), or nothing. */
export function queryString(params: ReadonlyArray<readonly [string, string | number | null | undefined]>): string {
  const search = new URLSearchParams();
  for (const [name, value] of params) if (value !== null && value !== undefined && value !== '') search.append(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A JSON value as indented text (shown in a <pre>, so escaped like any text). */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** A copy button: the enhancing script copies the text of the element `target` names; without it the button stays hidden. */
export function CopyButton({ target, label }: { readonly target: string; readonly label: string }) {
  return (
    <button type="button" class="copy" data-copy={target} hidden>
      Copy <span class="visually-hidden">{label}</span>
    </button>
  );
}

/** An assessment's status as a person reads it (the status of the work, never of the business). */
export const ASSESSMENT_STATUS: Readonly<Record<'queued' | 'running' | 'complete' | 'partial' | 'failed', string>> = {
  queued: 'Queued', running: 'Running', complete: 'Complete', partial: 'Partly complete', failed: 'Failed',
};

/** A change between two assessments, in words: appeared, disappeared or changed. */
const CHANGE_KIND: Readonly<Record<string, string>> = { appeared: 'now found', disappeared: 'no longer found', changed: 'changed' };

/** What changed since an earlier assessment: each observation's label, then and now, never judged. */
export function ChangeList({ items }: { readonly items: ReadonlyArray<{ readonly name: string; readonly label: string; readonly kind: string; readonly beforeSummary: string; readonly afterSummary: string }> }) {
  return (
    <ul class="change-list">
      {items.map((change) => (
        <li data-change={change.name}>
          <strong>{change.label}</strong>: {CHANGE_KIND[change.kind] ?? change.kind}.
          <span class="change-side">Then: {change.beforeSummary}</span>
          <span class="change-side">Now: {change.afterSummary}</span>
        </li>
      ))}
    </ul>
  );
}
