/** Handlers of the `assessments` tag: one assessment, a domain's history, and batches. */
import { MAX_WAIT_SECONDS, type AssessmentService } from '../../assessments/assessment-service.js';
import type { HandlerMap } from '../operation.js';

type AssessmentOperation = 'createAssessment' | 'getAssessment' | 'listAssessments' | 'createAssessmentBatch' | 'getAssessmentBatch';

export function assessmentHandlers(assessments: AssessmentService): Pick<HandlerMap, AssessmentOperation> {
  return {
    createAssessment: async ({ body, headers, client }) => {
      const { assessment, quota } = await assessments.create(body, client);
      const wait = preferredWait(headers.prefer);
      const current = wait > 0 ? await assessments.waitFor(assessment.id, wait) : assessment;
      return {
        status: 201,
        body: current,
        headers: {
          Location: `/api/v1/assessments/${current.id}`,
          ...(quota ? { 'RateLimit-Policy': quota.policy, RateLimit: `"assessment";r=${quota.remaining};t=${quota.resetSeconds}` } : {}),
          ...(wait > 0 ? { 'Preference-Applied': `wait=${wait}` } : {}),
        },
      };
    },
    getAssessment: async ({ path, headers }) => {
      const wait = preferredWait(headers.prefer);
      return { status: 200, body: wait > 0 ? await assessments.waitFor(path.id, wait) : await assessments.get(path.id) };
    },
    listAssessments: async ({ query }) => ({ status: 200, body: await assessments.history(query.domain, query) }),
    createAssessmentBatch: async ({ body, client }) => {
      const { batch, quota } = await assessments.createBatch(body, client);
      return {
        status: 201,
        body: batch,
        headers: {
          Location: `/api/v1/assessments/batches/${batch.id}`,
          ...(quota ? { 'RateLimit-Policy': quota.policy, RateLimit: `"assessment";r=${quota.remaining};t=${quota.resetSeconds}` } : {}),
        },
      };
    },
    getAssessmentBatch: async ({ path }) => ({ status: 200, body: await assessments.getBatch(path.id) }),
  };
}

/** `Prefer: wait=N` (RFC 7240), capped at MAX_WAIT_SECONDS; 0 when absent or malformed. */
export function preferredWait(prefer: string | undefined): number {
  const match = /(?:^|[,;\s])wait=(\d{1,6})(?:$|[,;\s])/i.exec(prefer ?? '');
  return match?.[1] ? Math.min(Number(match[1]), MAX_WAIT_SECONDS) : 0;
}
