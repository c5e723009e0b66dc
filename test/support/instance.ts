/**
 * One Sextant instance as its own process, for the two-instance tests: the same composition
 * root `serve` uses (createService), on the DATABASE_URL it is given, listening on loopback.
 * The probes are replaced (PROBE=hang never finishes, PROBE=quick answers at once) so no
 * assessment ever looks up a real domain; the monitor reaches loopback fixtures only.
 * It reports on stdout as JSON lines: {port}, {probing}, {monitor}, {indexBuilt}.
 */
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { ProbeRunner } from '../../src/assessments/worker.js';
import { createService } from '../../src/compose.js';
import { runMonitorPass } from '../../src/monitor/monitor.js';
import { testServiceConfig } from './service-config.js';

const env = process.env;
const say = (message: unknown): void => void process.stdout.write(`${JSON.stringify(message)}\n`);

const probes: Record<string, ProbeRunner> = {
  hang: (domain) => {
    say({ probing: domain });
    return new Promise(() => undefined);
  },
  quick: async (domain) => {
    say({ probing: domain });
    const observedAt = new Date().toISOString();
    return [{ name: 'addresses', outcome: 'observed', value: `addresses of ${domain}`, evidence: 'Asked for A records.', source: 'dns', observedAt }];
  },
};
const probe = env.PROBE ? probes[env.PROBE] : undefined;

/** The service's own log, of which only the in-memory index's builds are reported ({indexBuilt: servers}). */
const log = pino({ level: 'info' }, {
  write(line: string) {
    const entry = JSON.parse(line) as { msg?: string; servers?: number };
    if (entry.msg === 'search index built') say({ indexBuilt: entry.servers });
  },
});
const service = await createService(
  testServiceConfig(env.DATABASE_URL ?? '', { discoveryRateLimit: Number(env.DISCOVERY_RATE_LIMIT ?? 0), pageRateLimit: Number(env.PAGE_RATE_LIMIT ?? 0), netAllowPrivate: ['127.0.0.1/32'] }),
  log,
  { workers: probe !== undefined, ...(probe ? { probe } : {}), workerOptions: { leaseMs: Number(env.LEASE_MS ?? 120_000), pollMs: 100 } },
);
// As `serve` does: the in-memory search index is built before the instance listens.
await service.warmSearch();
const server = service.app.listen(0, '127.0.0.1', () => say({ port: (server.address() as AddressInfo).port }));
if (env.MONITOR === '1') {
  const summary = await runMonitorPass(service.store, service.net, pino({ level: 'silent' }), { clientVersion: 'test', intervalSeconds: 3600, perHostSpacingMs: 0, timeoutMs: 2000 });
  say({ monitor: summary });
}
process.on('SIGTERM', () => {
  server.close();
  void service.close().then(() => process.exit(0));
});
