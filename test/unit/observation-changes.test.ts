/** The changes between two assessments of a domain, rule by rule. */
import { expect } from 'chai';
import { DAY_DERIVED, changesBetween } from '../../src/assessments/observation-changes.js';
import type { Observation } from '../../src/assessments/probes/types.js';

const o = (name: string, outcome: Observation['outcome'], value: unknown = null): Observation => ({ name, outcome, value, evidence: 'Asked.', source: 'dns', observedAt: '2026-11-28T00:00:00.000Z' });
const kinds = (before: Observation[], after: Observation[]) => changesBetween(before, after).map((c) => [c.name, c.kind]);

describe('observation changes', () => {
  it('tells an observation that appeared, one that disappeared and one whose value changed', () => {
    expect(kinds([o('spf', 'not_found')], [o('spf', 'observed', { record: 'v=spf1 -all', allQualifier: '-all' })])).to.deep.equal([['spf', 'appeared']]);
    expect(kinds([o('caa', 'observed', [{ tag: 'issue', value: 'ca.example' }])], [o('caa', 'not_found')])).to.deep.equal([['caa', 'disappeared']]);
    expect(kinds([o('nameservers', 'observed', ['a.example'])], [o('nameservers', 'observed', ['b.example'])])).to.deep.equal([['nameservers', 'changed']]);
  });

  it('says nothing of what was the same, or not answered either time', () => {
    expect(kinds([o('nameservers', 'observed', ['a.example']), o('dmarc', 'not_found')], [o('nameservers', 'observed', ['a.example']), o('dmarc', 'not_found')])).to.deep.equal([]);
    for (const unanswered of ['error', 'timeout'] as const) {
      expect(kinds([o('spf', 'observed', { allQualifier: '-all' })], [o('spf', unanswered)])).to.deep.equal([]);
      expect(kinds([o('spf', unanswered)], [o('spf', 'observed', { allQualifier: '-all' })])).to.deep.equal([]);
    }
    expect(kinds([], [o('spf', 'observed', { allQualifier: '-all' })])).to.deep.equal([]);
  });

  it('leaves out what follows from the day alone, and nothing else of the same value', () => {
    expect(DAY_DERIVED).to.deep.equal({
      tls_certificate: ['daysToExpiry'], certificate_expiry: ['daysToExpiry', 'expired'], registration: ['ageDays'], registration_expiry: ['daysToExpiry'],
    });
    const cert = (daysToExpiry: number, validTo: string) => o('tls_certificate', 'observed', { daysToExpiry, validTo, authorized: true });
    expect(kinds([cert(30, '2027-01-01')], [cert(29, '2027-01-01')])).to.deep.equal([]);
    expect(kinds([cert(30, '2027-01-01')], [cert(90, '2027-03-01')])).to.deep.equal([['tls_certificate', 'changed']]);
    const registration = (ageDays: number, expires: string) => o('registration', 'observed', { ageDays, expires, registrar: 'R' });
    expect(kinds([registration(100, '2027-01-01')], [registration(101, '2027-01-01')])).to.deep.equal([]);
    expect(kinds([registration(100, '2027-01-01')], [registration(101, '2028-01-01')])).to.deep.equal([['registration', 'changed']]);
  });

  it('does not report an expiry one day nearer as a change, but reports a new expiry date', () => {
    const certificate = (daysToExpiry: number, notAfter: string) => o('certificate_expiry', 'observed', { notAfter, daysToExpiry, expired: daysToExpiry < 0 });
    expect(kinds([certificate(30, '2027-01-01T00:00:00.000Z')], [certificate(29, '2027-01-01T00:00:00.000Z')])).to.deep.equal([]);
    expect(kinds([certificate(0, '2027-01-01T00:00:00.000Z')], [certificate(-1, '2027-01-01T00:00:00.000Z')])).to.deep.equal([]);
    expect(kinds([certificate(1, '2027-01-01T00:00:00.000Z')], [certificate(90, '2027-03-31T00:00:00.000Z')])).to.deep.equal([['certificate_expiry', 'changed']]);
    const registration = (daysToExpiry: number | null, expires: string | null) => o('registration_expiry', 'observed', { expires, daysToExpiry });
    expect(kinds([registration(200, '2027-06-01T00:00:00.000Z')], [registration(199, '2027-06-01T00:00:00.000Z')])).to.deep.equal([]);
    expect(kinds([registration(200, '2027-06-01T00:00:00.000Z')], [registration(564, '2028-06-01T00:00:00.000Z')])).to.deep.equal([['registration_expiry', 'changed']]);
    expect(kinds([registration(200, '2027-06-01T00:00:00.000Z')], [registration(null, null)])).to.deep.equal([['registration_expiry', 'changed']]);
  });

  it('gives both values and both sentences', () => {
    const [change] = changesBetween([o('nameservers', 'observed', ['a.example'])], [o('nameservers', 'observed', ['a.example', 'b.example'])]);
    expect(change).to.deep.equal({
      name: 'nameservers', label: 'Name servers', kind: 'changed', before: ['a.example'], after: ['a.example', 'b.example'],
      beforeSummary: '1 name server answers for the domain: a.example.', afterSummary: '2 name servers answer for the domain: a.example, b.example.',
    });
  });
});
