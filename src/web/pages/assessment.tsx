/** GET /assessments/{id} (getAssessmentPage): status, observations and, in plain view, the observations-only notice. */
import type { components } from '../../../generated/openapi.js';
import type { AssetCatalog } from '../assets.js';
import { ASSESSMENT_STATUS, ChangeList, formatDateTime } from '../components.js';
import { Layout } from '../layout.js';

type Assessment = components['schemas']['Assessment'];

/** What each status means, beside its name. */
const STATUS_NOTE: Readonly<Record<Assessment['status'], string>> = {
  queued: 'Waiting for a worker.',
  running: 'The probes are under way.',
  complete: 'Every observation got an answer.',
  partial: 'Some observations could not be made.',
  failed: 'No probe got an answer, for reasons outside the domain.',
};

/** What kind of answer each observation got, in words; shown in one neutral style, never as a judgement. */
const OUTCOME: Readonly<Record<string, string>> = { observed: 'Observed', not_found: 'None found', error: 'No answer', timeout: 'No answer in time' };

/** An observation's value as text: strings as they are, anything else as JSON. */
function valueText(value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) return value.map(String).join('\n');
  return JSON.stringify(value, null, 1);
}

export function AssessmentPage({ assets, assessment }: { readonly assets: AssetCatalog; readonly assessment: Assessment }) {
  const finished = assessment.status !== 'queued' && assessment.status !== 'running';
  // A domain that may imitate another is named in ASCII only (displayDomain), the warning beside it.
  const name = assessment.displayDomain;
  return (
    <Layout assets={assets} section="assess" title={`Web estate of ${name}`} description={`Observations of the web estate of ${name}. Observations only: not a score, rating or credit decision.`}>
      <h1>Web estate of {name}</h1>
      {assessment.domainWarning === null ? null : (
        <p class="notice notice-strong domain-warning" role="alert">Warning: {assessment.domainWarning.message}</p>
      )}
      <p class="notice notice-strong" role="note">{assessment.notice}</p>
      <dl class="facts-list">
        <div><dt>Domain</dt><dd><code>{assessment.domain}</code></dd></div>
        {assessment.domainWarning === null && assessment.domainUnicode !== assessment.domain ? <div><dt>In Unicode</dt><dd>{assessment.domainUnicode}</dd></div> : null}
        <div>
          <dt>Status</dt>
          <dd>
            <span class={`status status-${assessment.status}`} data-assessment={assessment.id} data-finished={finished ? 'yes' : 'no'}>
              {ASSESSMENT_STATUS[assessment.status]}
            </span>
            <span class="status-note">{STATUS_NOTE[assessment.status]}</span>
          </dd>
        </div>
        <div><dt>Requested</dt><dd>{formatDateTime(assessment.createdAt)}</dd></div>
        <div><dt>Finished</dt><dd>{formatDateTime(assessment.completedAt, 'not yet')}</dd></div>
        {assessment.exposure !== null ? <div><dt>Exposure (your figure)</dt><dd>{assessment.exposure.toLocaleString('en-US')}</dd></div> : null}
      </dl>
      {finished ? null : (
        <p class="muted" role="status">
          This page updates by itself when the assessment finishes. Without JavaScript, <a href={`/assessments/${encodeURIComponent(assessment.id)}`}>reload it</a>.
        </p>
      )}
      {assessment.changes === null ? null : <Changes changes={assessment.changes} />}
      <section aria-labelledby="observations-title" class="panel">
        <h2 id="observations-title">Observations</h2>
        {assessment.observations.length === 0 ? (
          <p>No observations yet.</p>
        ) : (
          <ObservationList observations={assessment.observations} />
        )}
      </section>
      {finished ? (
        <form class="page-actions assess-again" action="/assess" method="post">
          <input type="hidden" name="domain" value={assessment.domain} />
          <input type="hidden" name="previous" value={assessment.id} />
          {assessment.exposure === null ? null : <input type="hidden" name="exposure" value={String(assessment.exposure)} />}
          <button type="submit">Assess {name} again and compare</button>
          <span class="hint">The new assessment lists what changed since this one.</span>
        </form>
      ) : null}
      <p class="page-actions"><a href="/assess">Assess another business</a> · <a href={`/assessments?domain=${encodeURIComponent(assessment.domain)}`}>Every assessment of {name}</a> · <a href={`/api/v1/assessments/${encodeURIComponent(assessment.id)}`}>This assessment as JSON</a> · Print or save as PDF from the browser: the printed report keeps the notice and every observation.</p>
    </Layout>
  );
}


/** What differs from the domain's previous assessment: both sides in words, nothing judged. */
function Changes({ changes }: { readonly changes: NonNullable<Assessment['changes']> }) {
  const since = formatDateTime(changes.since.completedAt);
  const earlier = <a href={`/assessments/${encodeURIComponent(changes.since.id)}`}>the assessment of {since}</a>;
  return (
    <section aria-labelledby="changes-title" class="panel changes">
      <h2 id="changes-title">Since {since}</h2>
      {changes.items.length === 0 ? (
        <p>No observation differs from {earlier}. Only observations answered both times are compared.</p>
      ) : (
        <>
          <p>{changes.items.length === 1 ? '1 observation differs' : `${changes.items.length} observations differ`} from {earlier}. Only observations answered both times are compared.</p>
          <ChangeList items={changes.items} />
        </>
      )}
    </section>
  );
}

/**
 * Each observation as a person reads it: what was looked at, what kind of answer came back and
 * one sentence of what it was; then, smaller, the technical evidence, the value and the source.
 * One entry under another, so no width crushes a column, and all of it prints.
 */
function ObservationList({ observations }: { readonly observations: Assessment['observations'] }) {
  return (
    <ol class="observation-list">
      {observations.map((observation) => (
        <li class="observation" data-observation={observation.name}>
          <h3 class="observation-label">
            {observation.label} <span class="answer">{OUTCOME[observation.outcome] ?? observation.outcome}</span>
          </h3>
          <p class="observation-summary">{observation.summary}</p>
          <dl class="observation-evidence">
            <div><dt>How it was observed</dt><dd>{observation.evidence}</dd></div>
            <div><dt>Value</dt><dd><pre class="value">{valueText(observation.value)}</pre></dd></div>
            <div><dt>Source</dt><dd>{observation.source.toUpperCase()}, <code>{observation.name}</code>, {formatDateTime(observation.observedAt)}</dd></div>
          </dl>
        </li>
      ))}
    </ol>
  );
}
