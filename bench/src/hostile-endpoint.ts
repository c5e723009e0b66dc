/**
 * What hostile catalogued endpoints cost the service, on loopback: one listing too many tools, one
 * with a deeply nested schema, one with a huge initialize error, one slower than the proxy's deadline.
 * Run: npm --prefix bench run hostile-endpoint
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runMonitorPass } from '../../src/monitor/monitor.js';
import { catalog, startFixture, type Fixture } from '../../test/support/fixture-servers.js';
import { silentLogger, startHarness } from '../../test/support/harness.js';

interface Behaviour {
  readonly tools?: unknown[];
  readonly initializeError?: string;
  readonly delayMs?: number;
}

/** A minimal MCP endpoint that behaves as told. */
function hostile(behaviour: Behaviour) {
  return (_req: IncomingMessage, res: ServerResponse, body: string): void => {
    const message = JSON.parse(body) as { id?: number; method: string };
    const send = (): void => {
      if (message.id === undefined) return void res.writeHead(202).end();
      const payload = message.method === 'initialize'
        ? behaviour.initializeError !== undefined
          ? { error: { code: -32603, message: behaviour.initializeError } }
          : { result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1' } } }
        : { result: { tools: behaviour.tools ?? [] } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...payload }));
    };
    if (behaviour.delayMs) setTimeout(send, behaviour.delayMs).unref();
    else send();
  };
}

function deepSchema(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i += 1) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, Math.round(performance.now() - started)];
}

const fixtures: Record<string, Fixture> = {
  many: await startFixture(hostile({ tools: Array.from({ length: 15_000 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } })) })),
  deep: await startFixture(hostile({ tools: [{ name: 'deep', inputSchema: deepSchema(1000) }] })),
  loud: await startFixture(hostile({ initializeError: 'E'.repeat(880 * 1024) })),
  slow: await startFixture(hostile({ delayMs: 600 })),
};
const h = await startHarness({
  demo: false,
  netAllowPrivate: ['127.0.0.1/32'],
  net: { timeoutMs: 5000 },
  proxyDeadline: 1,
  inputs: [catalog(Object.entries(fixtures).map(([name, fixture]) => ({ name: `com.hostile/${name}`, url: `${fixture.url}/mcp` })))],
});
try {
  await runMonitorPass(h.service.store, h.service.net, silentLogger, { clientVersion: 'bench', timeoutMs: 5000, perHostSpacingMs: 0 });
  const results: Record<string, unknown> = {};
  results.toolsKept = (await h.request('/api/v1/servers/com.hostile~many')).body.toolCount;
  for (const name of ['many', 'deep']) {
    const [bytes, ms] = await timed(async () => (await (await fetch(`${h.baseUrl}/servers/com.hostile~${name}`)).arrayBuffer()).byteLength);
    results[`${name}PageBytes`] = bytes;
    results[`${name}PageMs`] = ms;
  }
  results.loudStatusBytes = (await (await fetch(`${h.baseUrl}/api/v1/servers/com.hostile~loud/status`)).arrayBuffer()).byteLength;
  results.longestStoredError = Math.max(...(await h.service.store.monitor.recentChecks('com.hostile~loud', 50)).map((c) => c.error?.length ?? 0));
  const [slow, slowMs] = await timed(() => h.request('/api/v1/proxy/connect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ serverId: 'com.hostile~slow' }) }));
  results.slowCall = `${slow.status} ${slow.body.code ?? 'ok'} after ${slowMs} ms`;
  console.log(JSON.stringify(results, null, 2));
} finally {
  await h.close();
  for (const fixture of Object.values(fixtures)) await fixture.close();
}
