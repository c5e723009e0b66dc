/**
 * Building observations, and turning a failed request into one. A request that failed never says
 * `not_found`: only the domain's own authority can answer that something does not exist (see
 * `dns-answers.ts` for the DNS side, the RDAP probe for a registry's 404). A failure to reach a
 * host is `error` or `timeout`, and the evidence names the host that failed.
 */
import { NetError } from '../../net/index.js';
import type { Observation, ObservationSource, ProbeContext } from './types.js';

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

/** The `code` of a system, c-ares or undici error, if it has one. */
export function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  return typeof err.code === 'string' ? err.code : undefined;
}

/** What a failure means for an observation: its outcome, value and a clause for the evidence. */
export interface Classified {
  readonly outcome: 'error' | 'timeout';
  readonly value: unknown;
  readonly detail: string;
}

/** Words for the system error codes a failed lookup or connection carries. */
const CODE_WORDS: Readonly<Record<string, string>> = {
  ENOTFOUND: 'name does not resolve',
  EAI_AGAIN: 'name could not be looked up',
  EAI_FAIL: 'name could not be looked up',
  ENODATA: 'name has no address',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

const TIMEOUT_CODES: ReadonlySet<string> = new Set(['ETIMEOUT', 'ETIMEDOUT']);

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** 'name does not resolve (ENOTFOUND)', or the error's own message when its code has no words here. */
function why(err: unknown): string {
  const code = errorCode(err);
  if (code === undefined) return messageOf(err);
  const words = CODE_WORDS[code];
  return words === undefined ? `${messageOf(err)} (${code})` : `${words} (${code})`;
}

/** `whom`: the host as the evidence names it, e.g. 'the RDAP server rdap.example.net' or 'acme.test'. */
function classify(err: unknown, whom: string): Classified {
  if (!(err instanceof NetError)) {
    const code = errorCode(err);
    if (code !== undefined && TIMEOUT_CODES.has(code)) return { outcome: 'timeout', value: null, detail: `${whom} gave no answer in time (${code})` };
    return { outcome: 'error', value: null, detail: `could not reach ${whom}: ${why(err)}` };
  }
  switch (err.code) {
    case 'blocked_destination':
      return {
        outcome: 'error',
        value: { connected: false, reason: err.message },
        detail: `nothing was connected because ${err.message}; private and special-purpose addresses are never contacted`,
      };
    case 'timeout':
      return { outcome: 'timeout', value: null, detail: `${whom} gave no answer in time (${err.message})` };
    case 'dns_failure': {
      const cause: unknown = err.cause;
      const code = errorCode(cause);
      if (code !== undefined && TIMEOUT_CODES.has(code)) return { outcome: 'timeout', value: null, detail: `the name of ${whom} could not be looked up in time (${code})` };
      return { outcome: 'error', value: null, detail: `could not reach ${whom}: ${cause === undefined ? err.message : why(cause)}` };
    }
    case 'connect_failed':
      return { outcome: 'error', value: null, detail: `could not connect to ${whom}: ${err.cause === undefined ? err.message : why(err.cause)}` };
    default:
      return { outcome: 'error', value: null, detail: `the request to ${whom} failed: ${err.message}` };
  }
}

/**
 * The observation for a request that failed; `asked` says what was asked, `whom` names the host
 * that failed ('the RDAP server rdap.example.net'; default the domain under assessment). Its
 * outcome is `error` or `timeout`, never `not_found`.
 */
export function failure(ctx: ProbeContext, source: ObservationSource, name: string, err: unknown, asked: string, whom: string = ctx.domain): Observation {
  const { outcome, value, detail } = classify(err, whom);
  return observe(ctx, source, name, outcome, value, `${asked}; ${detail}.`);
}

/** The host of a URL, for naming it in evidence; the URL itself when it does not parse. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
