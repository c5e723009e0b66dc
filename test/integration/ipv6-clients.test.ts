/**
 * Every limit counts an IPv6 client by its /64 (RATE_LIMIT_IPV6_PREFIX), not by its address:
 * several addresses of one /64 share one allowance of assessments, of discovery requests and of
 * pages. The addresses are real sockets: the test makes a network namespace of its own
 * (`unshare -rn`, an unprivileged user namespace) and gives its loopback interface fd00::/64
 * addresses; nothing leaves it. Skipped, with the reason, where namespaces cannot be made.
 */
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { CLIENTS, LIMIT, SERVER } from '../support/ipv6-clients.js';

/** The namespace's loopback, up, with the server's and every client's address. */
const SETUP = ['ip link set lo up', ...[SERVER, ...CLIENTS].map((address) => `ip -6 addr add ${address}/64 dev lo nodad`)].join(' && ');

function namespaceUnavailable(): string | null {
  const probe = spawnSync('unshare', ['-rn', 'sh', '-c', 'ip link set lo up && ip -6 addr add fd00::1/64 dev lo nodad'], { encoding: 'utf8' });
  if (probe.error) return `unshare could not run: ${probe.error.message}`;
  return probe.status === 0 ? null : `a network namespace cannot be made here: ${(probe.stderr || `exit ${probe.status}`).trim()}`;
}

function runClients(prefix: number): Record<string, { assessment: number; discovery: number; page: number }> {
  const run = spawnSync('unshare', ['-rn', 'sh', '-c', `${SETUP} && exec "$0" --import tsx test/support/ipv6-clients.ts`, process.execPath], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, RATE_LIMIT_IPV6_PREFIX: String(prefix), SEXTANT_TEST_PG_URL: '' },
  });
  if (run.status !== 0) throw new Error(`the namespace's run failed (${run.status ?? run.signal}): ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');
}

const unavailable = namespaceUnavailable();

describe(`IPv6 clients by network prefix${unavailable ? ` (skipped: ${unavailable})` : ''}`, function () {
  this.timeout(90_000);
  before(function () {
    if (unavailable) this.skip();
  });

  it(`gives six addresses of one /64 one allowance (${LIMIT}) on every limit, and the next /64 its own`, () => {
    const statuses = runClients(64);
    const sameNetwork = CLIENTS.slice(0, 6).map((address) => statuses[address]);
    const expected = [...Array(LIMIT).fill(201), ...Array(6 - LIMIT).fill(429)];
    expect(sameNetwork.map((s) => s?.assessment), 'assessments').to.deep.equal(expected);
    expect(sameNetwork.map((s) => s?.discovery), 'discovery').to.deep.equal(expected.map((status) => (status === 201 ? 200 : 429)));
    expect(sameNetwork.map((s) => s?.page), 'pages').to.deep.equal(expected.map((status) => (status === 201 ? 200 : 429)));
    expect(statuses['fd00:0:0:1::11'], 'another /64').to.deep.equal({ assessment: 201, discovery: 200, page: 200 });
  });

  it('counts each address apart with RATE_LIMIT_IPV6_PREFIX=128', () => {
    const statuses = runClients(128);
    for (const address of CLIENTS) expect(statuses[address], address).to.deep.equal({ assessment: 201, discovery: 200, page: 200 });
  });
});
