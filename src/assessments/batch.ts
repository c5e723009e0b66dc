/**
 * Batches: many domains given at once. Each is checked as a single one is; the valid ones are
 * queued (a domain given twice once), the others are named with their reasons. The record reads
 * each domain's assessment status as it stands, and counts them.
 */
import type { components } from '../../generated/openapi.js';
import type { AssessmentStatus, BatchItem, StoredBatch } from '../store/index.js';
import { checkBusinessDomain, type DomainCheck } from './domain.js';

type Schemas = components['schemas'];
export type AssessmentBatch = Schemas['AssessmentBatch'];
export type AssessmentBatchRequest = Schemas['AssessmentBatchRequest'];

/** A valid domain of a batch, to be queued once. */
export interface BatchDomain {
  readonly domain: string;
  readonly unicode: string;
  readonly exposure: number | null;
}

/** What a batch request holds: the domains to queue, and each given domain's place in the batch. */
export interface BatchPlan {
  readonly queue: readonly BatchDomain[];
  /** In the order given: the index into `queue` of its assessment, or why it was refused. */
  readonly entries: readonly PlannedEntry[];
}

type PlannedEntry =
  | { readonly given: string; readonly queued: number }
  | { readonly given: string; readonly refused: Extract<DomainCheck, { ok: false }> };

export function planBatch(request: AssessmentBatchRequest): BatchPlan {
  const queue: BatchDomain[] = [];
  const places = new Map<string, number>();
  const entries = request.domains.map((entry): PlannedEntry => {
    const given = typeof entry === 'string' ? entry : entry.domain;
    const exposure = (typeof entry === 'string' ? undefined : entry.exposure) ?? request.exposure ?? null;
    const check = checkBusinessDomain(given);
    if (!check.ok) return { given, refused: check };
    let place = places.get(check.domain);
    if (place === undefined) {
      place = queue.push({ domain: check.domain, unicode: check.unicode, exposure }) - 1;
      places.set(check.domain, place);
    }
    return { given, queued: place };
  });
  return { queue, entries };
}

/** The stored items of a planned batch, once its domains have assessment ids (in `queue` order). */
export function batchItems(plan: BatchPlan, ids: readonly string[]): BatchItem[] {
  return plan.entries.map((entry) => {
    if ('refused' in entry) return { domain: entry.given, reason: entry.refused.reason, message: entry.refused.message };
    const id = ids[entry.queued];
    if (id === undefined) throw new Error(`no assessment id for the batch's domain ${entry.given}`);
    return { domain: entry.given, assessmentId: id };
  });
}

const STATUSES: readonly AssessmentStatus[] = ['queued', 'running', 'complete', 'partial', 'failed'];
const FINISHED: ReadonlySet<AssessmentStatus> = new Set(['complete', 'partial', 'failed']);

/** The batch as it stands, from its stored items and the current status of each assessment. */
export function batchRecord(batch: StoredBatch, statuses: ReadonlyMap<string, AssessmentStatus>, notice: string): AssessmentBatch {
  const items = batch.items.map((item) => {
    if ('reason' in item) return { domain: item.domain, assessmentId: null, status: null, url: null, reason: item.reason as Schemas['DomainRejection'], message: item.message };
    const status = statuses.get(item.assessmentId) ?? null;
    return { domain: item.domain, assessmentId: item.assessmentId, status, url: `/api/v1/assessments/${item.assessmentId}`, reason: null, message: null };
  });
  const counts = Object.fromEntries(STATUSES.map((status) => [status, 0])) as Record<AssessmentStatus, number>;
  const assessed = new Set(items.flatMap((item) => (item.assessmentId === null ? [] : [item.assessmentId])));
  for (const id of assessed) {
    const status = statuses.get(id);
    if (status !== undefined) counts[status] += 1;
  }
  const refused = items.filter((item) => item.reason !== null).length;
  const progress = { total: assessed.size + refused, ...counts, refused };
  const finished = [...assessed].every((id) => FINISHED.has(statuses.get(id) ?? 'queued'));
  return { id: batch.id, createdAt: batch.createdAt, items, progress, finished, notice };
}
