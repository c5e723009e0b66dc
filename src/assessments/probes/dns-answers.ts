/**
 * What a failed DNS question about the domain's own records means (DESIGN.md "Outcomes are
 * observations, so they must be true"). NXDOMAIN and NODATA are the domain's authority saying
 * there is nothing: `not_found`. A resolver that could not be reached, refused, failed or was too
 * slow is `error` or `timeout`, saying so of the configured resolver. A resolver that denies the top-level domain
 * too (as a resolver without upstream access does) is not relaying any authority: its NXDOMAIN is
 * an `error`.
 */
import { errorCode, observe } from './observation.js';
import type { Observation, ProbeContext, SharedLookups } from './types.js';

/** c-ares codes for NXDOMAIN, and for NODATA (the name exists, the record type does not). */
const NO_SUCH_NAME: ReadonlySet<string> = new Set(['ENOTFOUND', 'NXDOMAIN']);
const NO_SUCH_RECORD: ReadonlySet<string> = new Set(['ENODATA']);
const TIMEOUT_CODES: ReadonlySet<string> = new Set(['ETIMEOUT', 'ETIMEDOUT']);

/** Whether the resolver answered NXDOMAIN (c-ares `ENOTFOUND`). */
export function isNoSuchName(err: unknown): boolean {
  return NO_SUCH_NAME.has(errorCode(err) ?? '');
}

/** Whether the resolver answered NXDOMAIN or NODATA: an answer, not a failure to get one. */
export function isNoSuchAnswer(err: unknown): boolean {
  const code = errorCode(err) ?? '';
  return NO_SUCH_NAME.has(code) || NO_SUCH_RECORD.has(code);
}

/**
 * The resolver as the evidence names it: the service's own, so never by its address (the
 * evidence is public, the resolver is the operator's infrastructure).
 */
const RESOLVER = 'the configured DNS resolver';

function failedLookup(code: string | undefined, err: unknown, resolver: string): { outcome: 'error' | 'timeout'; detail: string } {
  if (code !== undefined && TIMEOUT_CODES.has(code)) return { outcome: 'timeout', detail: `${resolver} gave no answer in time (${code})` };
  switch (code) {
    case 'ECONNREFUSED':
      return { outcome: 'error', detail: `could not reach ${resolver}: connection refused (ECONNREFUSED)` };
    case 'ESERVFAIL':
      return { outcome: 'error', detail: `${resolver} answered SERVFAIL: it could not get an answer from the domain's nameservers (ESERVFAIL)` };
    case 'EREFUSED':
      return { outcome: 'error', detail: `${resolver} refused the query (EREFUSED)` };
    default: {
      const message = err instanceof Error ? err.message : String(err);
      return { outcome: 'error', detail: `the lookup through ${resolver} failed: ${message}${code === undefined ? '' : ` (${code})`}` };
    }
  }
}

/**
 * The observation for a DNS question about the domain's own records that got no records:
 * `not_found` for NXDOMAIN (unless the resolver denies the TLD too) and NODATA, `error` or
 * `timeout` for anything else. `asked` says what was asked.
 */
export async function dnsFailure(ctx: ProbeContext, shared: SharedLookups, name: string, err: unknown, asked: string): Promise<Observation> {
  const code = errorCode(err);
  const resolver = RESOLVER;
  if (isNoSuchName(err)) {
    const deniedTld = await shared.deniedTld();
    if (deniedTld !== null) {
      const detail = `${resolver} answered that the name does not exist (NXDOMAIN), but it answers the same for the top-level domain .${deniedTld}, so that answer does not come from the domain's authority`;
      return observe(ctx, 'dns', name, 'error', null, `${asked}; ${detail}.`);
    }
    return observe(ctx, 'dns', name, 'not_found', null, `${asked}; ${resolver} answered that the name does not exist (NXDOMAIN).`);
  }
  if (NO_SUCH_RECORD.has(code ?? '')) return observe(ctx, 'dns', name, 'not_found', null, `${asked}; the name exists and has no such records (NODATA).`);
  const { outcome, detail } = failedLookup(code, err, resolver);
  return observe(ctx, 'dns', name, outcome, null, `${asked}; ${detail}.`);
}
