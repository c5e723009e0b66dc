/** Handlers of the `assessments` tag: createAssessment, getAssessment. */
import { MAX_WAIT_SECONDS, type AssessmentService } from '../../assessments/assessment-service.js';
import type { HandlerMap } from '../operation.js';

export function assessmentHandlers(assessments: AssessmentService): Pick<HandlerMap, 'createAssessment' | 'getAssessment'> {
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
  };
}

/** `Prefer: wait=N` (RFC 7240), capped at MAX_WAIT_SECONDS; 0 when absent or malformed. */
export function preferredWait(prefer: string | undefined): number {
  const match = /(?:^|[,;\s])wait=(\d{1,6})(?:$|[,;\s])/i.exec(prefer ?? '');
  return match?.[1] ? Math.min(Number(match[1]), MAX_WAIT_SECONDS) : 0;
}
