/**
 * What differs between two assessments of one domain, observation by observation. Only what was
 * answered both times is compared (an `error` or `timeout` says nothing of a change), and values
 * that follow from the day alone are left out of the comparison, so a re-assessment a day later
 * does not report a certificate one day nearer its expiry. A change states both sides, in values
 * and in words; it never judges.
 */
import { isDeepStrictEqual } from 'node:util';
import type { components } from '../../generated/openapi.js';
import { inWords } from './observation-words.js';
import type { Observation } from './probes/types.js';

export type ObservationChange = components['schemas']['ObservationChange'];

/** Per observation, the fields of its value that follow from the day it was made, not from the domain. */
export const DAY_DERIVED: Readonly<Record<string, readonly string[]>> = {
  tls_certificate: ['daysToExpiry'],
  certificate_expiry: ['daysToExpiry', 'expired'],
  registration: ['ageDays'],
  registration_expiry: ['daysToExpiry'],
};

const answered = (o: Observation): boolean => o.outcome === 'observed' || o.outcome === 'not_found';

/** The changes from `before` to `after`, in the order of `after`'s observations. */
export function changesBetween(before: readonly Observation[], after: readonly Observation[]): ObservationChange[] {
  const earlier = new Map(before.filter(answered).map((o) => [o.name, o]));
  const changes: ObservationChange[] = [];
  for (const now of after.filter(answered)) {
    const then = earlier.get(now.name);
    if (then === undefined) continue;
    const kind = kindOf(then, now);
    if (kind === null) continue;
    const [was, is] = [inWords(then), inWords(now)];
    changes.push({ name: now.name, label: is.label, kind, before: then.value, after: now.value, beforeSummary: was.summary, afterSummary: is.summary });
  }
  return changes;
}

function kindOf(then: Observation, now: Observation): ObservationChange['kind'] | null {
  if (then.outcome === 'not_found' && now.outcome === 'observed') return 'appeared';
  if (then.outcome === 'observed' && now.outcome === 'not_found') return 'disappeared';
  if (then.outcome === 'observed' && now.outcome === 'observed' && !isDeepStrictEqual(comparable(then), comparable(now))) return 'changed';
  return null;
}

/** The value without the fields that follow from the day alone. */
function comparable(o: Observation): unknown {
  const skipped = DAY_DERIVED[o.name];
  if (skipped === undefined || typeof o.value !== 'object' || o.value === null || Array.isArray(o.value)) return o.value;
  return Object.fromEntries(Object.entries(o.value).filter(([key]) => !skipped.includes(key)));
}
