/**
 * Run inside a network namespace of its own (test/integration/ipv6-clients.test.ts makes it with
 * `unshare -rn`, with the addresses below on the namespace's own loopback interface): starts the
 * service on fd00::1 on a fresh SQLite file, and asks it, from each client address in turn, for
 * an assessment, a discovery read and a page. Reports the statuses per address as one JSON line.
 * RATE_LIMIT_IPV6_PREFIX is the prefix the limits count IPv6 clients by.
 */
import { once } from 'node:events';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createService } from '../../src/compose.js';
import { freshSqliteFile } from './database.js';
import { testServiceConfig } from './service-config.js';

export const SERVER = 'fd00::1';
/** Six addresses of one /64, then one of the next /64. */
export const CLIENTS = ['fd00::11', 'fd00::12', 'fd00::13', 'fd00::14', 'fd00::15', 'fd00::16', 'fd00:0:0:1::11'];
/** Each limit allows this many per client. */
export const LIMIT = 3;

const ask = (port: number, from: string, method: string, path: string, body?: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    const req = request({ host: SERVER, port, method, path, localAddress: from, family: 6, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });

if (process.argv[1]?.endsWith('ipv6-clients.ts')) {
  const database = freshSqliteFile();
  const prefix = Number(process.env.RATE_LIMIT_IPV6_PREFIX ?? 64);
  const service = await createService(
    testServiceConfig(database.url, { host: SERVER, assessmentLimit: LIMIT, assessmentDailyCap: 1000, discoveryRateLimit: LIMIT, pageRateLimit: LIMIT, rateLimitIpv6Prefix: prefix }),
    pino({ level: 'silent' }),
  );
  const server = service.app.listen(0, SERVER);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const statuses: Record<string, { assessment: number; discovery: number; page: number }> = {};
  try {
    for (const [i, from] of CLIENTS.entries()) {
      statuses[from] = {
        assessment: await ask(port, from, 'POST', '/api/v1/assessments', JSON.stringify({ domain: `client-${i}-firm.com` })),
        discovery: await ask(port, from, 'GET', '/api/v1/categories'),
        page: await ask(port, from, 'GET', '/assess'),
      };
    }
  } finally {
    server.close();
    await service.close();
    await database.drop();
  }
  process.stdout.write(`${JSON.stringify(statuses)}\n`);
}
