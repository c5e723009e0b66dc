/**
 * Runs every probe of an assessment in parallel, each under its own time limit, and returns
 * their observations in a stable order. Observations only: no score, rating or verdict.
 */
import { DNS_PROBES } from './dns-probes.js';
import { failure, observe } from './observation.js';
import { RDAP_PROBE } from './rdap-probe.js';
import { createSharedLookups } from './shared.js';
import { SITE_FILE_PROBES } from './site-files-probes.js';
import { TLS_PROBE } from './tls-probe.js';
import type { Observation, Probe, ProbeContext, SharedLookups } from './types.js';
import { WEBSITE_PROBES } from './website-probes.js';

/** Every probe, in the order their observations are reported. */
export const PROBES: readonly Probe[] = [...DNS_PROBES, TLS_PROBE, ...WEBSITE_PROBES, ...SITE_FILE_PROBES, RDAP_PROBE];

/** The observation names a run produces, in order. */
export const OBSERVATION_NAMES: readonly string[] = PROBES.flatMap((probe) => probe.names);

const TIMED_OUT = Symbol('timed out');

async function runProbe(probe: Probe, ctx: ProbeContext, shared: SharedLookups): Promise<Observation[]> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ctx.timeoutMs);
  });
  try {
    const result = await Promise.race([probe.run(ctx, shared), expired]);
    if (result !== TIMED_OUT) return result;
    const evidence = `${probe.asked(ctx)}; no complete answer within ${ctx.timeoutMs} ms.`;
    return probe.names.map((name) => observe(ctx, probe.source, name, 'timeout', null, evidence));
  } catch (err) {
    return probe.names.map((name) => failure(ctx, probe.source, name, err, probe.asked(ctx)));
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs every probe (in parallel, lookups several probes need made once, each probe with its own
 * `ctx.timeoutMs` limit) and returns their observations: one per name of `OBSERVATION_NAMES`, in
 * that order. Never rejects: a failed or slow probe yields 'error', 'not_found' or 'timeout'.
 */
export async function runProbes(ctx: ProbeContext): Promise<Observation[]> {
  const shared = createSharedLookups(ctx);
  const results = await Promise.all(PROBES.map((probe) => runProbe(probe, ctx, shared)));
  return results.flat();
}
