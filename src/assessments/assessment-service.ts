/**
 * Area A: business web-estate assessments (DESIGN.md "Area A decisions"). Validates the
 * domain, applies the public limit, queues the assessment and lets workers probe it in the
 * background. Observations only: nothing here scores, rates or decides about a business.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';
import type { Assessment, AssessmentStore, Limiter, Observation, RateLimiterSpec, StoredAssessment } from '../store/index.js';
import { displayOf } from './display-domain.js';
import { checkBusinessDomain } from './domain.js';
import { changesBetween } from './observation-changes.js';
import { inWords } from './observation-words.js';

export const NOTICE =
  'These are observations of the business\'s public web estate, gathered automatically. They are not a score, rating, recommendation or credit decision; any decision is made by a credit professional.';

/** Longest `Prefer: wait` honoured, in seconds. */
export const MAX_WAIT_SECONDS = 20;
/** Links followed back from an assessment to find one with answers to compare with. */
const MAX_LINKS_FOLLOWED = 10;
/** Statuses of an assessment whose observations got answers: the ones changes are made between. */
const ANSWERED = new Set<string>(['complete', 'partial']);

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
  create(input: { domain: string; exposure?: number | undefined; previous?: string | undefined }, client: string): Promise<{ assessment: Assessment; quota: Quota | null }>;
  get(id: string): Promise<Assessment>;
  /** The assessment once it is finished, or as it stands after `seconds`. */
  waitFor(id: string, seconds: number): Promise<Assessment>;
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

  /** Against the assessment this one was linked to (or the nearest with answers along its links), once this one has answers. */
  const changesOf = async (assessment: StoredAssessment): Promise<Assessment['changes']> => {
    if (!ANSWERED.has(assessment.status)) return null;
    let link = assessment.previous;
    for (let hop = 0; link !== null && hop < MAX_LINKS_FOLLOWED; hop += 1) {
      const earlier = await deps.store.find(link);
      if (earlier === null) return null;
      if (ANSWERED.has(earlier.status) && earlier.completedAt !== null) {
        return { since: { id: earlier.id, completedAt: earlier.completedAt }, items: changesBetween(earlier.observations, assessment.observations) };
      }
      link = earlier.previous;
    }
    return null;
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

  /** Takes one from the global cap, then one from the client's allowance (given back to the cap if that fails). */
  const consume = async (client: string): Promise<Quota | null> => {
    if (daily) await daily.consume('all').catch((rejection: unknown) => { throw limited(rejection, 'daily', deps.limits.dailyCap, DAY); });
    if (!perClient) return null;
    try {
      const result = await perClient.consume(client);
      return { policy: policyOf(deps.limits.perClientPerHour), remaining: result.remainingPoints, resetSeconds: Math.ceil(result.msBeforeNext / 1000) };
    } catch (rejection) {
      if (daily) await daily.reward('all', 1);
      throw limited(rejection, 'per client', deps.limits.perClientPerHour, HOUR);
    }
  };

  return {
    async create(input, client) {
      const checked = checkBusinessDomain(input.domain);
      if (!checked.ok) {
        throw new AppError('invalid_domain', checked.message, [{ location: 'domain', message: checked.message, reason: checked.reason }]);
      }
      const previous = await linkable(input.previous, checked.domain);
      const quota = await consume(client);
      const id = randomUUID();
      await deps.store.create({ id, domain: checked.domain, domainUnicode: checked.unicode, exposure: input.exposure ?? null, previous, createdAt: now().toISOString() });
      deps.onQueued?.();
      return { assessment: await get(id), quota };
    },

    get,

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

function limited(rejection: unknown, which: string, limit: number, window: number): unknown {
  if (!(rejection instanceof RateLimiterRes)) return rejection;
  const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
  const per = window === HOUR ? 'an hour' : 'a day';
  return new AppError('rate_limited', `The public limit of ${limit} assessments ${per} (${which}) is reached; retry in ${seconds} s.`, [], {
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
