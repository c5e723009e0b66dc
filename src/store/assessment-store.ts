/** Assessments and the job queue behind them. */
import type { components } from '../../generated/openapi.js';
import { storable, type Db } from './db.js';

type Schemas = components['schemas'];
export type Assessment = Schemas['Assessment'];
export type AssessmentStatus = Schemas['AssessmentStatus'];
/** An observation as stored: without the words the service makes from it (`label`, `summary`). */
export type Observation = Omit<Schemas['Observation'], 'label' | 'summary'>;

/** An assessment as stored: without what the service derives (the notice, how the domain is shown, the observations' words). */
export type StoredAssessment = Omit<Assessment, 'notice' | 'displayDomain' | 'domainWarning' | 'observations' | 'changes'> & { readonly observations: Observation[] };

export interface NewAssessment {
  readonly id: string;
  readonly domain: string;
  readonly domainUnicode: string;
  readonly exposure: number | null;
  /** The earlier assessment of the same domain it is compared with, or null. */
  readonly previous: string | null;
  readonly createdAt: string;
}

/** A domain of a batch: the assessment queued for it, or why it was refused. */
export type BatchItem =
  | { readonly domain: string; readonly assessmentId: string }
  | { readonly domain: string; readonly reason: string; readonly message: string };

export interface StoredBatch {
  readonly id: string;
  readonly createdAt: string;
  readonly items: readonly BatchItem[];
}

/** One line of a domain's history. */
export type HistoryEntry = Pick<StoredAssessment, 'id' | 'status' | 'createdAt' | 'completedAt'>;

export interface AssessmentStore {
  /** Stores queued assessments and their jobs (and the batch that holds them, if any), in one transaction. */
  create(assessments: NewAssessment | readonly NewAssessment[], batch?: StoredBatch): Promise<void>;
  /** A domain's assessments, newest first, and how many there are. */
  history(domain: string, limit: number, offset: number): Promise<{ total: number; entries: HistoryEntry[] }>;
  /** The domain's newest assessment with answers created before `createdAt`, or null. */
  latestAnsweredBefore(domain: string, createdAt: string, answered: readonly AssessmentStatus[]): Promise<StoredAssessment | null>;
  findBatch(id: string): Promise<StoredBatch | null>;
  /** The status of each of these assessments, by id. */
  statuses(ids: readonly string[]): Promise<Map<string, AssessmentStatus>>;
  /** The record as stored (the service adds the notice and how the domain is shown). */
  find(id: string): Promise<StoredAssessment | null>;
  /**
   * Claims the oldest job that is queued, or running with an expired lease (its instance died),
   * for `worker` until `leaseUntil`. Returns the assessment to work on, or null when there is none.
   */
  claim(worker: string, now: string, leaseUntil: string): Promise<NewAssessment | null>;
  markRunning(id: string): Promise<void>;
  finish(id: string, worker: string, status: AssessmentStatus, observations: readonly Observation[], completedAt: string): Promise<boolean>;
}

interface AssessmentRow {
  id: string; domain: string; domain_unicode: string; exposure: number | null; status: AssessmentStatus;
  created_at: string; completed_at: string | null; observations: string; previous_id: string | null;
}

function storedOf(row: AssessmentRow): StoredAssessment {
  return {
    id: row.id, domain: row.domain, domainUnicode: row.domain_unicode, exposure: row.exposure === null ? null : Number(row.exposure),
    status: row.status, createdAt: row.created_at, completedAt: row.completed_at, observations: JSON.parse(row.observations), previous: row.previous_id,
  };
}

export function createAssessmentStore(db: Db): AssessmentStore {
  return {
    async create(assessments, batch) {
      const list = Array.isArray(assessments) ? assessments : [assessments as NewAssessment];
      await db.transaction(async (trx) => {
        for (const a of list) {
          await trx('assessments').insert({
            id: a.id, domain: a.domain, domain_unicode: a.domainUnicode, exposure: a.exposure, status: 'queued', created_at: a.createdAt, completed_at: null, observations: '[]',
            previous_id: a.previous,
          });
          await trx('assessment_jobs').insert({ assessment_id: a.id, status: 'queued', attempts: 0, queued_at: a.createdAt });
        }
        if (batch) await trx('assessment_batches').insert({ id: batch.id, created_at: batch.createdAt, items: JSON.stringify(batch.items) });
      });
    },

    async history(domain, limit, offset) {
      const [counted, rows] = await Promise.all([
        db('assessments').where({ domain }).count<Array<{ n: number | string }>>({ n: '*' }),
        db('assessments').where({ domain }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit).offset(offset)
          .select<Array<Pick<AssessmentRow, 'id' | 'status' | 'created_at' | 'completed_at'>>>('id', 'status', 'created_at', 'completed_at'),
      ]);
      const entries = rows.map((row) => ({ id: row.id, status: row.status, createdAt: row.created_at, completedAt: row.completed_at }));
      return { total: Number(counted[0]?.n ?? 0), entries };
    },

    async latestAnsweredBefore(domain, createdAt, answered) {
      const row: AssessmentRow | undefined = await db('assessments')
        .where({ domain }).whereIn('status', answered).andWhere('created_at', '<', createdAt)
        .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).first();
      return row ? storedOf(row) : null;
    },

    async findBatch(id) {
      if (!storable(id)) return null;
      const row: { id: string; created_at: string; items: string } | undefined = await db('assessment_batches').where({ id }).first();
      return row ? { id: row.id, createdAt: row.created_at, items: JSON.parse(row.items) } : null;
    },

    async statuses(ids) {
      const rows: Array<{ id: string; status: AssessmentStatus }> = ids.length === 0 ? [] : await db('assessments').whereIn('id', [...ids]).select('id', 'status');
      return new Map(rows.map((row) => [row.id, row.status]));
    },

    async find(id) {
      if (!storable(id)) return null;
      const row: AssessmentRow | undefined = await db('assessments').where({ id }).first();
      return row ? storedOf(row) : null;
    },

    async claim(worker, now, leaseUntil) {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const candidate = await db('assessment_jobs')
          .where({ status: 'queued' })
          .orWhere((q) => q.where({ status: 'running' }).andWhere('lease_until', '<', now))
          .orderBy('queued_at')
          .first('assessment_id', 'status', 'lease_until');
        if (!candidate) return null;
        // Claim only if nobody else did in between: the same condition, re-checked by the update.
        const claimed = await db('assessment_jobs')
          .where({ assessment_id: candidate.assessment_id, status: candidate.status })
          .andWhere((q) => (candidate.lease_until === null ? q.whereNull('lease_until') : q.where('lease_until', candidate.lease_until)))
          .update({ status: 'running', claimed_by: worker, lease_until: leaseUntil, attempts: db.raw('attempts + 1') });
        if (claimed === 1) {
          const row: AssessmentRow | undefined = await db('assessments').where({ id: candidate.assessment_id }).first();
          if (row) return { id: row.id, domain: row.domain, domainUnicode: row.domain_unicode, exposure: row.exposure, previous: row.previous_id, createdAt: row.created_at };
        }
      }
      return null;
    },

    async markRunning(id) {
      await db('assessments').where({ id, status: 'queued' }).update({ status: 'running' });
    },

    async finish(id, worker, status, observations, completedAt) {
      return db.transaction(async (trx) => {
        const held = await trx('assessment_jobs').where({ assessment_id: id, status: 'running', claimed_by: worker }).update({ status: 'done', lease_until: null });
        if (held !== 1) return false;
        await trx('assessments').where({ id }).update({ status, observations: JSON.stringify(observations), completed_at: completedAt });
        return true;
      });
    },
  };
}
