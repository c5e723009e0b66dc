/**
 * Building observations, and turning a failed lookup or request into one: the outcome says what
 * happened (not found, timed out, failed), the evidence says what was asked of whom.
 */
import { NetError } from '../../net/index.js';
import type { Observation, ObservationSource, ProbeContext } from './types.js';

/** DNS error codes that mean "no such name or no such record". */
const NOT_FOUND_CODES: ReadonlySet<string> = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);
const TIMEOUT_CODES: ReadonlySet<string> = new Set(['ETIMEOUT', 'ETIMEDOUT']);

/** One observation stamped with the context's clock; `value` is null when there is nothing to show. */
export function observe(
  ctx: ProbeContext,
  source: ObservationSource,
  name: string,
  outcome: Observation['outcome'],
  value: unknown,
  evidence: string,
): Observation {
  return { name, outcome, value: value ?? null, evidence, source, observedAt: ctx.now().toISOString() };
}

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  return typeof err.code === 'string' ? err.code : undefined;
}

interface Classified {
  readonly outcome: Observation['outcome'];
  readonly value: unknown;
  readonly detail: string;
}

function classifyCode(code: string | undefined, message: string): Classified {
  if (code === 'ENOTFOUND' || code === 'NXDOMAIN') return { outcome: 'not_found', value: null, detail: `the name does not exist (${code})` };
  if (code !== undefined && NOT_FOUND_CODES.has(code)) return { outcome: 'not_found', value: null, detail: `there is no such record (${code})` };
  if (code !== undefined && TIMEOUT_CODES.has(code)) return { outcome: 'timeout', value: null, detail: `no answer in time (${code})` };
  return { outcome: 'error', value: null, detail: `it failed: ${code === undefined ? message : `${code}: ${message}`}` };
}

function classifyNetError(err: NetError): Classified {
  switch (err.code) {
    case 'blocked_destination':
      return {
        outcome: 'error',
        value: { connected: false, reason: err.message },
        detail: `nothing was connected because ${err.message}; private and special-purpose addresses are never contacted`,
      };
    case 'timeout':
      return { outcome: 'timeout', value: null, detail: `no answer in time (${err.message})` };
    case 'dns_failure': {
      const cause: unknown = err.cause;
      if (cause === undefined) return { outcome: 'not_found', value: null, detail: err.message };
      return classifyCode(errorCode(cause), err.message);
    }
    default:
      return { outcome: 'error', value: null, detail: `it failed: ${err.message}` };
  }
}

/** What a failure means for an observation: its outcome, value and a clause for the evidence. */
function classify(err: unknown): Classified {
  if (err instanceof NetError) return classifyNetError(err);
  return classifyCode(errorCode(err), err instanceof Error ? err.message : String(err));
}

/** The observation for a failed lookup or request; `asked` says what was asked of whom. */
export function failure(ctx: ProbeContext, source: ObservationSource, name: string, err: unknown, asked: string): Observation {
  const { outcome, value, detail } = classify(err);
  return observe(ctx, source, name, outcome, value, `${asked}; ${detail}.`);
}

/** Whether a DNS failure means "nothing published" rather than a failed lookup. */
export function isNotFound(err: unknown): boolean {
  return classify(err).outcome === 'not_found';
}
