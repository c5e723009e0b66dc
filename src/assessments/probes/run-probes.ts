/**
 * Runs every probe of an assessment in parallel, each under its own time limit, and returns
 * their observations in a stable order. Observations only: no score, rating or verdict.
 */
import { dnsFailure } from './dns-answers.js';
import { ADDRESS_PROBE, DNS_PROBES } from './dns-probes.js';
import { MAIL_PROBES } from './mail-probes.js';
import { failure, observe } from './observation.js';
import { RDAP_PROBE } from './rdap-probe.js';
import { createSharedLookups } from './shared.js';
import { SITE_CONTENT_PROBES } from './site-content-probes.js';
import { SITE_FILE_PROBES } from './site-files-probes.js';
import { TLS_PROBE } from './tls-probe.js';
import type { Observation, Probe, ProbeContext, SharedLookups } from './types.js';
import { WEBSITE_PROBES } from './website-probes.js';

/** Every probe, in the order their observations are reported. */
export const PROBES: readonly Probe[] = [
  ...DNS_PROBES,
  ...MAIL_PROBES,
  TLS_PROBE,
  ...WEBSITE_PROBES,
  ...SITE_FILE_PROBES,
  ...SITE_CONTENT_PROBES,
  RDAP_PROBE,
];

/** The observation names a run produces, in order (those not attempted are left out). */
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
    const asked = probe.asked(ctx);
    if (probe.source === 'dns') return Promise.all(probe.names.map((name) => dnsFailure(ctx, shared, name, err, asked)));
    return probe.names.map((name) => failure(ctx, probe.source, name, err, asked));
  } finally {
    clearTimeout(timer);
  }
}

/** The observations of the probes that were not attempted, said once on the `addresses` observation. */
function sayNotAttempted(observation: Observation, skipped: readonly string[]): Observation {
  const because = observation.outcome === 'not_found' ? 'The name has no address' : 'The addresses could not be looked up';
  return { ...observation, evidence: `${observation.evidence} ${because}, so TLS and HTTP were not attempted (${skipped.join(', ')}).` };
}

/**
 * Runs every probe (in parallel, lookups several probes need made once, each probe with its own
 * `ctx.timeoutMs` limit) and returns their observations in the order of `OBSERVATION_NAMES`.
 * Probes that need the domain's addresses (TLS and HTTP) start once `addresses` is observed; when
 * it is not, they are not attempted and left out, and the `addresses` observation says so, once.
 * Never rejects: a failed or slow probe yields 'error', 'not_found' or 'timeout'.
 */
export async function runProbes(ctx: ProbeContext): Promise<Observation[]> {
  const shared = createSharedLookups(ctx);
  const addresses = runProbe(ADDRESS_PROBE, ctx, shared);
  const reachable = addresses.then((observations) => observations.every((o) => o.outcome === 'observed'));
  const results = await Promise.all(
    PROBES.map(async (probe) => {
      if (probe === ADDRESS_PROBE) return addresses;
      if (probe.needsAddresses === true && !(await reachable)) return [];
      return runProbe(probe, ctx, shared);
    }),
  );
  if (await reachable) return results.flat();
  const skipped = PROBES.filter((probe) => probe.needsAddresses === true).flatMap((probe) => probe.names);
  return results.flat().map((o) => (o.name === 'addresses' ? sayNotAttempted(o, skipped) : o));
}
