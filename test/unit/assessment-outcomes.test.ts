/**
 * What a failure means for an observation, and what the observations mean for the record: only
 * the domain's authority gives `not_found`; a record with no answer at all is `failed`.
 */
import { expect } from 'chai';
import { statusOf } from '../../src/assessments/assessment-service.js';
import { dnsFailure } from '../../src/assessments/probes/dns-answers.js';
import { failure } from '../../src/assessments/probes/observation.js';
import type { Observation, ProbeContext } from '../../src/assessments/probes/index.js';
import { NetError } from '../../src/net/index.js';

const coded = (code: string): Error => Object.assign(new Error(`query ${code} firm.example`), { code });

const ctx = {
  domain: 'firm.example',
  dns: { getServers: () => ['192.0.2.53'] },
  now: () => new Date('2026-01-01T00:00:00Z'),
} as unknown as ProbeContext;

const sharedDenying = (tld: string | null) => ({
  nameservers: () => Promise.resolve([]),
  mx: () => Promise.resolve([]),
  deniedTld: () => Promise.resolve(tld),
  httpsHome: () => Promise.reject(new Error('not used')),
  contentPage: () => Promise.reject(new Error('not used')),
});

describe('DNS failures about the domain\'s own records', () => {
  const cases: Array<{ code: string; denied: string | null; outcome: Observation['outcome']; says: string }> = [
    { code: 'ENOTFOUND', denied: null, outcome: 'not_found', says: 'the configured DNS resolver answered that the name does not exist (NXDOMAIN).' },
    { code: 'ENOTFOUND', denied: 'example', outcome: 'error', says: 'but it answers the same for the top-level domain .example, so that answer does not come from the domain\'s authority.' },
    { code: 'ENODATA', denied: 'example', outcome: 'not_found', says: 'the name exists and has no such records (NODATA).' },
    { code: 'ECONNREFUSED', denied: null, outcome: 'error', says: 'could not reach the configured DNS resolver: connection refused (ECONNREFUSED).' },
    { code: 'ETIMEOUT', denied: null, outcome: 'timeout', says: 'the configured DNS resolver gave no answer in time (ETIMEOUT).' },
    { code: 'ESERVFAIL', denied: null, outcome: 'error', says: 'the configured DNS resolver answered SERVFAIL' },
    { code: 'EREFUSED', denied: null, outcome: 'error', says: 'the configured DNS resolver refused the query (EREFUSED).' },
    { code: 'ECANCELLED', denied: null, outcome: 'error', says: 'the lookup through the configured DNS resolver failed' },
  ];
  for (const { code, denied, outcome, says } of cases) {
    it(`reports ${code}${denied === null ? '' : ` from a resolver that denies .${denied}`} as ${outcome}`, async () => {
      const o = await dnsFailure(ctx, sharedDenying(denied), 'mx_records', coded(code), 'Asked the DNS resolver for the MX records of firm.example');
      expect(o).to.include({ name: 'mx_records', outcome, source: 'dns', value: null, observedAt: '2026-01-01T00:00:00.000Z' });
      expect(o.evidence).to.match(/^Asked the DNS resolver for the MX records of firm\.example; /).and.include(says);
      // The resolver is the service's own: its address is nobody else's business.
      expect(o.evidence).not.to.include('192.0.2.53');
    });
  }
});

describe('failed requests', () => {
  const enotfound = coded('ENOTFOUND');
  const cases: Array<{ title: string; err: unknown; outcome: Observation['outcome']; says: string }> = [
    { title: 'a lookup of the host that says ENOTFOUND', err: new NetError('dns_failure', 'lookup of rdap.example-registry.net failed', { cause: enotfound }), outcome: 'error', says: 'could not reach the RDAP server rdap.example-registry.net: name does not resolve (ENOTFOUND).' },
    { title: 'a host without addresses', err: new NetError('dns_failure', 'rdap.example-registry.net has no addresses'), outcome: 'error', says: 'could not reach the RDAP server rdap.example-registry.net: rdap.example-registry.net has no addresses.' },
    { title: 'a refused connection', err: new NetError('connect_failed', 'ECONNREFUSED: connect', { cause: coded('ECONNREFUSED') }), outcome: 'error', says: 'could not connect to the RDAP server rdap.example-registry.net: connection refused (ECONNREFUSED).' },
    { title: 'a request that timed out', err: new NetError('timeout', 'request aborted by the total timeout'), outcome: 'timeout', says: 'the RDAP server rdap.example-registry.net gave no answer in time' },
    { title: 'a lookup that timed out', err: new NetError('dns_failure', 'lookup failed', { cause: coded('ETIMEOUT') }), outcome: 'timeout', says: 'the name of the RDAP server rdap.example-registry.net could not be looked up in time (ETIMEOUT).' },
    { title: 'a plain system error', err: enotfound, outcome: 'error', says: 'could not reach the RDAP server rdap.example-registry.net: name does not resolve (ENOTFOUND).' },
  ];
  for (const { title, err, outcome, says } of cases) {
    it(`reports ${title} as ${outcome}, naming the host, never as not_found`, () => {
      const o = failure(ctx, 'rdap', 'registration', err, 'Asked for https://rdap.example-registry.net/domain/firm.example', 'the RDAP server rdap.example-registry.net');
      expect(o.outcome).to.equal(outcome);
      expect(o.evidence).to.include(says);
    });
  }
});

describe('the status of a finished assessment', () => {
  const o = (outcome: Observation['outcome']): Observation => ({ name: 'x', outcome, value: null, evidence: 'E.', source: 'dns', observedAt: '2026-01-01T00:00:00.000Z' });
  const cases: Array<[string, Observation['outcome'][], ReturnType<typeof statusOf>]> = [
    ['every observation answered', ['observed', 'not_found'], 'complete'],
    ['some answered, some failed', ['observed', 'error', 'timeout'], 'partial'],
    ['every probe failed for reasons outside the domain', ['error', 'timeout', 'error'], 'failed'],
    ['no observation at all', [], 'failed'],
  ];
  for (const [title, outcomes, status] of cases) {
    it(`is ${status} when ${title}`, () => {
      expect(statusOf(outcomes.map(o))).to.equal(status);
    });
  }
});
