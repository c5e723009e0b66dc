/**
 * Area A: business web-estate assessments (DESIGN.md "Area A decisions"). Validates the
 * domain, applies the public limit, queues the assessment and lets workers probe it in the
 * background. Observations only: nothing here scores, rates or decides about a business.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';
import { plural } from '../plural.js';
import type { components } from '../../generated/openapi.js';
import type { Assessment, AssessmentStatus, AssessmentStore, Limiter, Observation, RateLimiterSpec, StoredAssessment } from '../store/index.js';
import { displayOf } from './display-domain.js';
import { checkBusinessDomain } from './domain.js';
import { batchItems, batchRecord, planBatch, type AssessmentBatch, type AssessmentBatchRequest } from './batch.js';
import { changesBetween } from './observation-changes.js';
import { inWords } from './observation-words.js';

export const NOTICE =
  'These are observations of the business\'s public web estate, gathered automatically. They are not a score, rating, recommendation or credit decision; any decision is made by a credit professional.';

/** Longest `Prefer: wait` honoured, in seconds. */
export const MAX_WAIT_SECONDS = 20;
/** Links followed back from an assessment to find one with answers to compare with. */
const MAX_LINKS_FOLLOWED = 10;
/** Statuses of an assessment whose observations got answers: the ones changes are made between. */
const ANSWERED_STATUSES: readonly AssessmentStatus[] = ['complete', 'partial'];
const ANSWERED = new Set<string>(ANSWERED_STATUSES);

export type AssessmentHistory = components['schemas']['AssessmentHistory'];

export interface AssessmentLimits {
  /** Assessments per client per hour; 0 turns the limit off. */
  readonly perClientPerHour: number;
  /** Assessments per day across all clients; 0 turns the cap off. */
  readonly dailyCap: number;
}

export interface Quota {
  readonly policy: string;
  readonly remaining: number;
  readonly resetSeconds: number;
}

export interface AssessmentService {
  /** Queues an assessment; `counted: false` (the service's own schedules) takes nothing from the public limit. */
  create(input: { domain: string; exposure?: number | undefined; previous?: string | undefined }, client: string, options?: { counted?: boolean }): Promise<{ assessment: Assessment; quota: Quota | null }>;
  get(id: string): Promise<Assessment>;
  /** The assessment once it is finished, or as it stands after `seconds`. */
  waitFor(id: string, seconds: number): Promise<Assessment>;
  /** A domain's assessments, newest first (20 a page by default, as the contract says). */
  history(domain: string, page?: { limit?: number | undefined; offset?: number | undefined }): Promise<AssessmentHistory>;
  /** Queues one assessment per valid domain (each counted against the public limit) and records the batch. */
  createBatch(request: AssessmentBatchRequest, client: string): Promise<{ batch: AssessmentBatch; quota: Quota | null }>;
  getBatch(id: string): Promise<AssessmentBatch>;
}

export interface AssessmentServiceDeps {
  readonly store: AssessmentStore;
  readonly limits: AssessmentLimits;
  /** Makes the limiters: the store's, so instances on one database share the counts. */
  readonly rateLimiter: (spec: RateLimiterSpec) => Limiter;
  /** Called after an assessment is queued, so a worker picks it up at once. */
  readonly onQueued?: () => void;
  readonly now?: () => Date;
}

const HOUR = 3600;
const DAY = 86_400;
const TERMINAL = new Set(['complete', 'partial', 'failed']);

export function createAssessmentService(deps: AssessmentServiceDeps): AssessmentService {
  const now = deps.now ?? (() => new Date());
  const perClient = deps.limits.perClientPerHour > 0 ? deps.rateLimiter({ keyPrefix: 'assessments', points: deps.limits.perClientPerHour, duration: HOUR, durable: true }) : null;
  const daily = deps.limits.dailyCap > 0 ? deps.rateLimiter({ keyPrefix: 'assessments-daily', points: deps.limits.dailyCap, duration: DAY, durable: true }) : null;

  const get = async (id: string): Promise<Assessment> => {
    const found = await deps.store.find(id);
    if (!found) throw new AppError('not_found', `No assessment has the id "${id}".`);
    return { ...found, ...displayOf(found.domain, found.domainUnicode), observations: found.observations.map(inWords), changes: await changesOf(found), notice: NOTICE };
  };

  /** Against the one this one was linked to, else the domain's latest with answers before it; once this one has answers. */
  const changesOf = async (assessment: StoredAssessment): Promise<Assessment['changes']> => {
    if (!ANSWERED.has(assessment.status)) return null;
    const earlier = assessment.previous === null
      ? await deps.store.latestAnsweredBefore(assessment.domain, assessment.createdAt, ANSWERED_STATUSES)
      : await answeredAlongLinks(assessment.previous);
    if (earlier === null || earlier.completedAt === null) return null;
    return { since: { id: earlier.id, completedAt: earlier.completedAt }, items: changesBetween(earlier.observations, assessment.observations) };
  };

  /** The first assessment with answers along the links from `link`, or null. */
  const answeredAlongLinks = async (first: string): Promise<StoredAssessment | null> => {
    let link: string | null = first;
    for (let hop = 0; link !== null && hop < MAX_LINKS_FOLLOWED; hop += 1) {
      const earlier = await deps.store.find(link);
      if (earlier === null) return null;
      if (ANSWERED.has(earlier.status)) return earlier;
      link = earlier.previous;
    }
    return null;
  };

  const getBatch = async (id: string): Promise<AssessmentBatch> => {
    const batch = await deps.store.findBatch(id);
    if (!batch) throw new AppError('not_found', `No batch of assessments has the id "${id}".`);
    const ids = batch.items.flatMap((item) => ('assessmentId' in item ? [item.assessmentId] : []));
    return batchRecord(batch, await deps.store.statuses(ids), NOTICE);
  };

  /** The earlier assessment a new one may be linked to: one that exists, of the same domain. */
  const linkable = async (previous: string | undefined, domain: string): Promise<string | null> => {
    if (previous === undefined) return null;
    const earlier = await deps.store.find(previous);
    if (earlier === null || earlier.domain !== domain) {
      const message = earlier === null ? `No assessment has the id "${previous}".` : `Assessment "${previous}" is of another domain, not ${domain}.`;
      throw new AppError('invalid_previous', message, [{ location: 'previous', message }]);
    }
    return earlier.id;
  };

  /** Takes `points` from the global cap, then from the client's allowance; a refusal gives back what it took. */
  const consume = async (client: string, points = 1): Promise<Quota | null> => {
    if (daily) {
      await daily.consume('all', points).catch(async (rejection: unknown) => {
        await daily.reward('all', points);
        throw limited(rejection, 'daily', deps.limits.dailyCap, DAY, points);
      });
    }
    if (!perClient) return null;
    try {
      const result = await perClient.consume(client, points);
      return { policy: policyOf(deps.limits.perClientPerHour), remaining: result.remainingPoints, resetSeconds: Math.ceil(result.msBeforeNext / 1000) };
    } catch (rejection) {
      await Promise.all([daily?.reward('all', points), perClient.reward(client, points)]);
      throw limited(rejection, 'per client', deps.limits.perClientPerHour, HOUR, points);
    }
  };

  return {
    async create(input, client, options = {}) {
      const checked = checkBusinessDomain(input.domain);
      if (!checked.ok) {
        throw new AppError('invalid_domain', checked.message, [{ location: 'domain', message: checked.message, reason: checked.reason }]);
      }
      const previous = await linkable(input.previous, checked.domain);
      const quota = options.counted === false ? null : await consume(client);
      const id = randomUUID();
      await deps.store.create({ id, domain: checked.domain, domainUnicode: checked.unicode, exposure: input.exposure ?? null, previous, createdAt: now().toISOString() });
      deps.onQueued?.();
      return { assessment: await get(id), quota };
    },

    get,

    async history(domain, { limit = 20, offset = 0 } = {}) {
      const checked = checkBusinessDomain(domain);
      if (!checked.ok) {
        throw new AppError('invalid_domain', checked.message, [{ location: 'domain', message: checked.message, reason: checked.reason }]);
      }
      const { total, entries } = await deps.store.history(checked.domain, limit, offset);
      const items = entries.map((entry) => ({ ...entry, url: `/api/v1/assessments/${entry.id}` }));
      return { domain: checked.domain, displayDomain: displayOf(checked.domain, checked.unicode).displayDomain, total, limit, offset, items, notice: NOTICE };
    },

    async createBatch(request, client) {
      const plan = planBatch(request);
      if (plan.queue.length === 0) {
        const errors = plan.entries.flatMap((entry, i) => ('refused' in entry ? [{ location: `domains[${i}]`, message: entry.refused.message, reason: entry.refused.reason }] : []));
        throw new AppError('invalid_domain', `None of the ${plural(errors.length, 'domain')} is a valid business domain.`, errors);
      }
      const quota = await consume(client, plan.queue.length);
      const createdAt = now().toISOString();
      const queued = plan.queue.map((d) => ({ id: randomUUID(), domain: d.domain, domainUnicode: d.unicode, exposure: d.exposure, previous: null, createdAt }));
      const batch = { id: randomUUID(), createdAt, items: batchItems(plan, queued.map((a) => a.id)) };
      await deps.store.create(queued, batch);
      deps.onQueued?.();
      return { batch: await getBatch(batch.id), quota };
    },

    getBatch,

    async waitFor(id, seconds) {
      const deadline = Date.now() + Math.min(seconds, MAX_WAIT_SECONDS) * 1000;
      for (;;) {
        const assessment = await get(id);
        if (TERMINAL.has(assessment.status) || Date.now() >= deadline) return assessment;
        await sleep(Math.min(100, Math.max(0, deadline - Date.now())));
      }
    },
  };
}

/** `"assessment";q=10;w=3600`. */
export function policyOf(perHour: number): string {
  return `"assessment";q=${perHour};w=${HOUR}`;
}

function limited(rejection: unknown, which: string, limit: number, window: number, asked: number): unknown {
  if (!(rejection instanceof RateLimiterRes)) return rejection;
  const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
  const per = window === HOUR ? 'an hour' : 'a day';
  const what = asked === 1 ? 'is reached' : `cannot take ${asked} more, so none was queued`;
  return new AppError('rate_limited', `The public limit of ${limit} assessments ${per} (${which}) ${what}; retry in ${seconds} s.`, [], {
    'Retry-After': String(seconds),
    ...(window === HOUR ? { 'RateLimit-Policy': policyOf(limit), RateLimit: `"assessment";r=0;t=${seconds}` } : {}),
  });
}

/** Status of a finished assessment from its observations. */
export function statusOf(observations: readonly Observation[]): 'complete' | 'partial' | 'failed' {
  if (observations.length === 0) return 'failed';
  const answered = observations.filter((o) => o.outcome === 'observed' || o.outcome === 'not_found').length;
  if (answered === observations.length) return 'complete';
  return answered === 0 ? 'failed' : 'partial';
}
