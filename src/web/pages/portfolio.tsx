/**
 * A credit professional's portfolio pages: a batch of domains (GET /assessments/batches/{id})
 * and a domain's history (GET /assessments?domain=). Statuses of the assessments, never of the
 * businesses; the observations-only notice stays in plain view.
 */
import type { components } from '../../../generated/openapi.js';
import type { AssetCatalog } from '../assets.js';
import { ASSESSMENT_STATUS, formatDateTime } from '../components.js';
import { Layout } from '../layout.js';
import { plural } from '../../plural.js';

type Schemas = components['schemas'];
type Status = Schemas['AssessmentStatus'];


function StatusBadge({ status }: { readonly status: Status }) {
  return <span class={`status status-${status}`}>{ASSESSMENT_STATUS[status]}</span>;
}

function progressWords(progress: Schemas['AssessmentBatch']['progress']): string {
  const parts = (['complete', 'partial', 'failed', 'running', 'queued'] as const)
    .filter((status) => progress[status] > 0)
    .map((status) => `${progress[status]} ${ASSESSMENT_STATUS[status].toLowerCase()}`);
  if (progress.refused > 0) parts.push(`${progress.refused} refused`);
  return `${plural(progress.total, 'domain')}: ${parts.join(', ')}.`;
}

export function BatchPage({ assets, batch }: { readonly assets: AssetCatalog; readonly batch: Schemas['AssessmentBatch'] }) {
  return (
    <Layout assets={assets} section="assess" title="A list of domains" description="Assessments of a list of business domains. Observations only: not a score, rating or credit decision.">
      <h1>A list of {plural(batch.items.length, 'domain')}</h1>
      <p class="notice notice-strong" role="note">{batch.notice}</p>
      <p role="status" data-batch={batch.id} data-finished={batch.finished ? 'yes' : 'no'}>
        {progressWords(batch.progress)}{' '}
        {batch.finished ? 'Every assessment has finished.' : <>This page updates by itself when every assessment has finished. Without JavaScript, <a href={`/assessments/batches/${encodeURIComponent(batch.id)}`}>reload it</a>.</>}
      </p>
      <section aria-labelledby="batch-title" class="panel">
        <h2 id="batch-title">Domains, in the order given</h2>
        <ol class="batch-list">
          {batch.items.map((item) => (
            <li>
              <span class="batch-domain">{item.domain === '' ? '(empty line)' : item.domain}</span>{' '}
              {item.assessmentId === null || item.status === null ? (
                <span class="batch-refused">Not assessed: {item.message}</span>
              ) : (
                <>
                  <StatusBadge status={item.status} /> <a href={`/assessments/${encodeURIComponent(item.assessmentId)}`}>Read the assessment</a>
                </>
              )}
            </li>
          ))}
        </ol>
      </section>
      <p class="page-actions"><a href="/assess">Assess more businesses</a> · <a href={`/api/v1/assessments/batches/${encodeURIComponent(batch.id)}`}>This list as JSON</a></p>
    </Layout>
  );
}

export function HistoryPage({ assets, history }: { readonly assets: AssetCatalog; readonly history: Schemas['AssessmentHistory'] }) {
  const name = history.displayDomain;
  const next = history.offset + history.items.length;
  return (
    <Layout assets={assets} section="assess" title={`Assessments of ${name}`} description={`Every assessment of ${name}, newest first. Observations only: not a score, rating or credit decision.`}>
      <h1>Assessments of {name}</h1>
      <p class="notice notice-strong" role="note">{history.notice}</p>
      {history.total === 0 ? (
        <p>{name} has not been assessed yet. <a href="/assess">Assess it</a>.</p>
      ) : (
        <section aria-labelledby="history-title" class="panel">
          <h2 id="history-title">{plural(history.total, 'assessment')}, newest first</h2>
          <p class="hint">Each lists what changed since the one before it.</p>
          <ol class="batch-list">
            {history.items.map((item) => (
              <li>
                <a href={`/assessments/${encodeURIComponent(item.id)}`}>{formatDateTime(item.createdAt)}</a> <StatusBadge status={item.status} />
                {item.completedAt === null ? null : <span class="status-note">Finished {formatDateTime(item.completedAt)}</span>}
              </li>
            ))}
          </ol>
          {next < history.total ? <p><a href={`/assessments?domain=${encodeURIComponent(history.domain)}&offset=${next}`}>Older assessments</a></p> : null}
        </section>
      )}
    </Layout>
  );
}
