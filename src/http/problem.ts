/** RFC 9457 problem details: the one shape of every error the HTTP edge sends. */
import type Koa from 'koa';
import { AppError, ERROR_TABLE } from '../errors.js';
import type { Problem } from '../types.js';
import { writeReply } from './reply.js';

export const PROBLEM_TYPE = 'application/problem+json';

export function problemOf(error: AppError, requestId: string, instance: string): Problem {
  const { status, title } = ERROR_TABLE[error.code];
  return {
    type: `urn:sextant:problem:${error.code}`,
    title,
    status,
    detail: error.detail,
    instance,
    code: error.code,
    requestId,
    ...(error.errors.length > 0 ? { errors: [...error.errors] } : {}),
  };
}

/** Writes an AppError to the response as problem+json. */
export function sendProblem(ctx: Koa.Context, error: AppError, requestId: string): void {
  const problem = problemOf(error, requestId, ctx.path);
  writeReply(ctx, { status: problem.status, headers: error.headers, body: problem, type: PROBLEM_TYPE });
}
