/** The contract check the suite relies on must itself catch drift. */
import { expect } from 'chai';
import { contractViolations } from '../support/contract.js';

const headers = (extra: Record<string, string> = {}): Headers =>
  new Headers({ 'content-type': 'application/json', 'x-request-id': 'r1', ...extra });

const page = { items: [], total: 0, limit: 20, offset: 0, sort: 'a-z', query: null, terms: null, category: null, trust: null, quality: null };

describe('contract check', () => {
  it('accepts a response that honours the contract', async () => {
    expect(await contractViolations({ method: 'GET', path: '/api/v1/servers/search', status: 200, headers: headers(), body: page })).to.deep.equal([]);
  });

  const broken: Array<[string, Parameters<typeof contractViolations>[0]]> = [
    ['an undeclared field', { method: 'GET', path: '/api/v1/servers/search', status: 200, headers: headers(), body: { ...page, extra: 1 } }],
    ['a missing field', { method: 'GET', path: '/api/v1/servers/search', status: 200, headers: headers(), body: { ...page, sort: undefined } }],
    ['a sort outside the enum', { method: 'GET', path: '/api/v1/servers/search', status: 200, headers: headers(), body: { ...page, sort: 'popular' } }],
    ['an undeclared media type', { method: 'GET', path: '/api/v1/servers/search', status: 200, headers: headers({ 'content-type': 'text/html' }), body: page }],
    ['no request id', { method: 'GET', path: '/api/v1/servers/search', status: 200, headers: new Headers({ 'content-type': 'application/json' }), body: page }],
    ['a 429 without Retry-After', { method: 'GET', path: '/api/v1/categories', status: 429, headers: headers({ 'content-type': 'application/problem+json' }), body: { type: 'x', title: 't', status: 429, code: 'rate_limited', requestId: 'r1' } }],
    ['a body on a response that declares none', { method: 'POST', path: '/mcp', status: 202, headers: headers(), body: { ok: true } }],
    ['an unrouted non-problem', { method: 'GET', path: '/nowhere', status: 404, headers: headers(), body: { message: 'no' } }],
    ['a server item with a server-record field', {
      method: 'GET', path: '/api/v1/servers/search', status: 200, headers: headers(),
      body: { ...page, total: 1, items: [{ id: 'a', name: 'a/b', title: null, description: '', domain: null, version: null, categories: [], transports: [], endpointCount: 0, toolCount: 0, authentication: 'none', repositoryUrl: null, publishedAt: null, updatedAt: null, quality: { flags: [] }, remotes: [] }] },
    }],
  ];
  for (const [what, response] of broken) {
    it(`reports ${what}`, async () => {
      expect(await contractViolations(response)).to.have.length.greaterThan(0);
    });
  }
});
