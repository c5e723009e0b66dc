/**
 * Writes docs/registry-publish-transcript.md: a real run of publish → list → deprecate → delete →
 * include_deleted against a fresh Sextant (an empty SQLite catalog), every call made over HTTP
 * and written as the curl command that makes it, with the status and body it got. The token is
 * shown as $TOKEN, never its value.
 *
 *   npx tsx scripts/publish-transcript.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { createService } from '../src/compose.js';
import { testServiceConfig } from '../test/support/service-config.js';

const OUT = new URL('../docs/registry-publish-transcript.md', import.meta.url);
const SHOWN_BASE = 'http://localhost:3000';

const weather = (version: string) => ({
  $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
  name: 'io.acme/weather',
  description: 'Internal weather forecasts for Acme staff',
  title: 'Acme Weather',
  version,
  repository: { url: 'https://git.acme.example/platform/weather-mcp', source: 'gitlab' },
  remotes: [{ type: 'streamable-http', url: 'https://mcp.acme.example/weather/mcp', headers: [{ name: 'X-Acme-Key', isSecret: true, isRequired: true, description: 'Your Acme key' }] }],
});

const dir = mkdtempSync(join(tmpdir(), 'sextant-transcript-'));
const service = await createService(testServiceConfig(`sqlite:${join(dir, 'catalog.sqlite')}`), pino({ level: 'silent' }));
const out: string[] = [
  '# Publishing to Sextant: a transcript',
  '',
  'Made by `npx tsx scripts/publish-transcript.ts` against a fresh Sextant with an empty catalog: every',
  'call below was made over HTTP as shown, and each answer is the one it got (times are of that run).',
  "The operator first made a token with `sextant tokens create acme-ci --scope 'publish:io.acme/*'`;",
  'it is shown as `$TOKEN`.',
  '',
];
try {
  const { token } = await service.access.create('acme-ci', ['publish:io.acme/*'], null);
  const server = service.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** One call: its curl line, then the status and the body as it came. */
  const call = async (title: string, method: string, path: string, options: { body?: unknown; auth?: boolean } = {}): Promise<void> => {
    const headers: Record<string, string> = {};
    const shown: string[] = [];
    if (options.auth) {
      headers.authorization = `Bearer ${token}`;
      shown.push('-H "Authorization: Bearer $TOKEN"');
    }
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      shown.push("-H 'Content-Type: application/json'", `-d '${JSON.stringify(options.body)}'`);
    }
    const res = await fetch(`${base}${path}`, { method, headers, ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}) });
    const text = await res.text();
    if (text.includes(token)) throw new Error('an answer carried the token');
    const body = text === '' ? '' : JSON.stringify(JSON.parse(text), null, 2);
    const verb = method === 'GET' ? '' : `-X ${method} `;
    out.push(`## ${title}`, '', '```console', `$ curl -s ${verb}'${SHOWN_BASE}${path}' ${shown.join(' ')}`.trimEnd(), `HTTP ${res.status}`, body, '```', '');
  };

  await call('No token: refused', 'POST', '/v0.1/publish', { body: weather('1.0.0') });
  await call('Publish 1.0.0', 'POST', '/v0.1/publish', { body: weather('1.0.0'), auth: true });
  await call('The same version again: a published version never changes', 'POST', '/v0.1/publish', { body: { ...weather('1.0.0'), description: 'Changed' }, auth: true });
  await call('A name outside the token’s scopes', 'POST', '/v0.1/publish', { body: { ...weather('1.0.0'), name: 'io.acme.evil/weather' }, auth: true });
  await call('Publish 1.1.0: the new latest', 'POST', '/v0.1/publish', { body: weather('1.1.0'), auth: true });
  await call('List: both versions, as VS Code and Copilot read them', 'GET', '/v0.1/servers?search=io.acme');
  await call('The catalog entry: source `publisher`', 'GET', `/api/v1/servers/${encodeURIComponent('io.acme/weather')}`);
  await call('Deprecate 1.0.0', 'PATCH', `/v0.1/servers/${encodeURIComponent('io.acme/weather')}/versions/1.0.0/status`, { body: { status: 'deprecated', statusMessage: 'Use 1.1.0' }, auth: true });
  await call('Delete every version, in one transaction', 'PATCH', `/v0.1/servers/${encodeURIComponent('io.acme/weather')}/status`, { body: { status: 'deleted', statusMessage: 'Retired' }, auth: true });
  await call('List: gone', 'GET', '/v0.1/servers?search=io.acme');
  await call('The catalog entry: gone from every surface', 'GET', `/api/v1/servers/${encodeURIComponent('io.acme/weather')}`);
  await call('List with include_deleted: its versions, deleted', 'GET', '/v0.1/servers?search=io.acme&include_deleted=true');
  server.close();
  const audit = await service.audit.entries(20);
  out.push('## The audit log (`sextant audit`)', '', '```', ...audit.reverse().map((e) => `${e.actor}\t${e.action}\t${e.target}`), '```', '');
  writeFileSync(OUT, out.join('\n'));
  console.log(`wrote ${OUT.pathname}`);
} finally {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
