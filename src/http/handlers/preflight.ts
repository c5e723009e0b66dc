/** Handlers of the CORS preflights of the public GET routes (their `preflight…` operations): one answer for all. */
import type { OpenApiDocument } from '../../contract.js';
import type { OperationId } from '../../types.js';
import { PREFLIGHT_HEADERS } from '../cors.js';
import type { HandlerMap } from '../operation.js';

export type PreflightOperation = Extract<OperationId, `preflight${string}`>;

/** The one preflight answer, for each `options` operation of the contract. */
export function preflightHandlers(document: OpenApiDocument): Pick<HandlerMap, PreflightOperation> {
  // Only reads are open to other origins: a preflight for another method on the same path (a
  // POST to /api/v1/assessments/batch looks like a GET of /api/v1/assessments/{id}) gets no
  // Allow-Origin, so the browser does not send it.
  const { 'Access-Control-Allow-Origin': _origin, ...refused } = PREFLIGHT_HEADERS;
  const answer = async ({ headers }: { headers: Readonly<Record<string, string | undefined>> }) => {
    const method = headers['access-control-request-method']?.toUpperCase();
    return { status: 204 as const, headers: method === undefined || method === 'GET' || method === 'HEAD' ? PREFLIGHT_HEADERS : refused };
  };
  const ids = Object.values(document.paths ?? {}).flatMap((item) => {
    const id = (item as { options?: { operationId?: string } }).options?.operationId;
    return id ? [id] : [];
  });
  // Every `options` operation of the contract is a preflight with this one answer (each of its
  // responses declares the 204); the ids come from the document, so the map is whole by construction.
  return Object.fromEntries(ids.map((id) => [id, answer])) as unknown as Pick<HandlerMap, PreflightOperation>;
}
