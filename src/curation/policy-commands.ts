/**
 * `sextant policy check [--policy FILE]`: what a catalog policy admits of the catalog as stored,
 * with the rule that decided each server of a sample. It reads only: nothing is removed.
 */
import { decide, PolicyError, type CatalogPolicy } from '../catalog/catalog-policy.js';
import { plural } from '../plural.js';
import type { Store } from '../store/index.js';
import { readPolicyFile } from './policy-file.js';

/** Servers of each kind the report names. */
const SAMPLE = 10;

export interface PolicyCheck {
  readonly admitted: number;
  readonly notAdmitted: number;
  /** Servers not admitted by each rule that refused them. */
  readonly byRule: ReadonlyMap<string, number>;
  readonly admittedSample: ReadonlyArray<{ readonly name: string; readonly because: string }>;
  readonly notAdmittedSample: ReadonlyArray<{ readonly name: string; readonly because: string }>;
}

/** The policy's verdicts over every stored server (the sample: the first in id order). */
export async function checkPolicy(store: Store, policy: CatalogPolicy): Promise<PolicyCheck> {
  let admitted = 0;
  let notAdmitted = 0;
  const byRule = new Map<string, number>();
  const admittedSample: Array<{ name: string; because: string }> = [];
  const notAdmittedSample: Array<{ name: string; because: string }> = [];
  await store.eachPolicySubject((rows) => {
    for (const row of rows) {
      const verdict = decide(policy, row);
      const line = { name: row.names[0] ?? row.id, because: verdict.because };
      if (verdict.admitted) {
        admitted += 1;
        if (admittedSample.length < SAMPLE) admittedSample.push(line);
      } else {
        notAdmitted += 1;
        byRule.set(verdict.rule, (byRule.get(verdict.rule) ?? 0) + 1);
        if (notAdmittedSample.length < SAMPLE) notAdmittedSample.push(line);
      }
    }
  });
  return { admitted, notAdmitted, byRule, admittedSample, notAdmittedSample };
}

/** The command: exit 0 with the report, 2 when no policy is given or its file cannot be used. */
export async function policyCommand(store: Store, args: readonly string[], file: string | null): Promise<number> {
  if (args[0] !== 'check' || args.length > 1) {
    console.error('usage: sextant policy check [--policy FILE]');
    return 2;
  }
  if (file === null) {
    console.error('policy check needs a policy: --policy FILE, or CATALOG_POLICY');
    return 2;
  }
  let policy: CatalogPolicy | null;
  try {
    policy = await readPolicyFile(file);
  } catch (err) {
    if (!(err instanceof PolicyError)) throw err;
    console.error(err.message);
    return 2;
  }
  if (policy === null) return 2;
  const check = await checkPolicy(store, policy);
  const rules = [...check.byRule].map(([rule, n]) => `${n} by ${rule}`).join(', ');
  console.log(`${file}: ${plural(check.admitted, 'server')} admitted, ${check.notAdmitted} not admitted${rules ? ` (${rules})` : ''}, of the catalog as stored`);
  for (const [title, sample] of [['admitted', check.admittedSample], ['not admitted', check.notAdmittedSample]] as const) {
    if (sample.length === 0) continue;
    console.log(`${title}${sample.length < (title === 'admitted' ? check.admitted : check.notAdmitted) ? ` (first ${sample.length})` : ''}:`);
    for (const { name, because } of sample) console.log(`  ${name}  ${because}`);
  }
  return 0;
}
