/** Assertion helpers for probe observations. */
import { expect } from 'chai';
import type { Observation } from '../../../src/assessments/probes/index.js';

export type Value = Record<string, unknown>;

export const DAY_MS = 86_400_000;

/** The observation called `name`; fails the test when there is none. */
export function pick(observations: readonly Observation[], name: string): Observation {
  const found = observations.find((o) => o.name === name);
  if (found === undefined) return expect.fail(`no "${name}" observation`);
  return found;
}

/** The observation's value as an object; fails the test when it is not one. */
export function valueOf(observation: Observation): Value {
  expect(observation.value, `${observation.name}: ${observation.evidence}`).to.be.an('object');
  return observation.value as Value;
}

/** Asserts the outcome, showing the evidence when it differs. */
export function expectOutcome(observation: Observation, outcome: Observation['outcome']): void {
  expect(observation.outcome, `${observation.name}: ${observation.evidence}`).to.equal(outcome);
}
