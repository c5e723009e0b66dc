/**
 * CATALOG_POLICY in `sextant serve` as an operator runs it: a file it cannot use stops the start;
 * a good one is in force from the first request; SIGHUP and a change of the file reload it, alone
 * and with WORKERS=2 (the primary relays SIGHUP; only the background worker writes).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { startServe, type ServeProcess } from '../support/serve-process.js';

async function registryNames(port: number): Promise<string[]> {
  const response = await fetch(`http://127.0.0.1:${port}/v0.1/servers?limit=100`);
  const body = (await response.json()) as { servers: Array<{ server: { name: string } }> };
  return [...new Set(body.servers.map((s) => s.server.name))].sort();
}

describe('CATALOG_POLICY in sextant serve', function () {
  this.timeout(120_000);
  const dirs: string[] = [];
  const serves: ServeProcess[] = [];
  const folder = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'sextant-policy-serve-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    for (const serve of serves.splice(0)) await serve.stop();
  });
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('does not start on a malformed policy file, and says what is wrong with it', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'policy.yaml'), 'allow: [io.github.github/*]\nrequire: [no-findings]\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/tsx-in-workers.mjs', 'src/main.ts', 'serve'], {
      env: { ...process.env, DATABASE_URL: `sqlite:${dir}/catalog.sqlite`, PORT: '0', CATALOG_POLICY: join(dir, 'policy.yaml'), METRICS_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).to.equal(1);
    expect(out).to.match(/CATALOG_POLICY \S+policy\.yaml: require\[0\]: unknown condition "no-findings"/);
    expect(out).to.not.include('sextant is serving');
  });

  /** `sextant <args>` on `dir`'s SQLite file: its exit status and what it printed. */
  async function sextant(dir: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/tsx-in-workers.mjs', 'src/main.ts', ...args], {
      env: { ...process.env, DATABASE_URL: `sqlite:${dir}/catalog.sqlite`, CATALOG_POLICY: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, out, err };
  }

  it('policy check says what a file admits of the stored catalog and which rule decided, and refuses a malformed file with 2', async () => {
    const dir = folder();
    expect((await sextant(dir, ['ingest', 'src/demo/demo-catalog.json'])).code).to.equal(0);
    writeFileSync(join(dir, 'good.yaml'), 'allow: [io.github.github/*, com.notion/*]\ndeny: [com.notion/*]\n');
    const good = await sextant(dir, ['policy', 'check', '--policy', join(dir, 'good.yaml')]);
    expect(good.code).to.equal(0);
    expect(good.out).to.include('1 server admitted, 27 not admitted (26 by allow, 1 by deny), of the catalog as stored');
    expect(good.out).to.match(/\n {2}io\.github\.github\/github-mcp-server {2}allowed by allow\[0\] io\.github\.github\/\*\n/);
    expect(good.out).to.match(/\n {2}com\.notion\/mcp {2}denied by deny\[0\] com\.notion\/\*\n/);
    expect(good.out).to.match(/\n {2}ai\.exa\/exa {2}matched by no allow pattern\n/);
    writeFileSync(join(dir, 'bad.yaml'), 'allow: [io.github.*/x]\n');
    const bad = await sextant(dir, ['policy', 'check', '--policy', join(dir, 'bad.yaml')]);
    expect(bad.code).to.equal(2);
    expect(bad.err).to.match(/bad\.yaml: allow\[0\]: "io\.github\.\*\/x" is neither a name nor ns\/\*/);
    // Nothing was removed: the check only reads.
    expect((await sextant(dir, ['policy', 'check', '--policy', join(dir, 'good.yaml')])).out).to.include('1 server admitted, 27 not admitted');
  });

  it('rescan removes, in its one write, servers the policy does not admit', async () => {
    const dir = folder();
    expect((await sextant(dir, ['ingest', 'src/demo/demo-catalog.json'])).code).to.equal(0);
    writeFileSync(join(dir, 'policy.yaml'), 'deny: [com.notion/*, com.stripe/*]\n');
    const rescan = await sextant(dir, ['rescan'], { CATALOG_POLICY: join(dir, 'policy.yaml') });
    expect(rescan.code).to.equal(0);
    expect(rescan.out).to.match(/; 2 servers removed, which the catalog policy no longer admits\n$/);
    expect((await sextant(dir, ['policy', 'check', '--policy', join(dir, 'policy.yaml')])).out).to.include('26 servers admitted, 0 not admitted');
  });

  for (const workers of ['1', '2']) {
    it(`serves only what the policy admits, and reloads on SIGHUP and on a change of the file (WORKERS=${workers})`, async () => {
      const dir = folder();
      const file = join(dir, 'policy.yaml');
      writeFileSync(file, 'allow: [io.github.github/*, com.stripe/*, com.notion/*]\n');
      const serve = await startServe(dir, { CATALOG_POLICY: file, WORKERS: workers });
      serves.push(serve);
      await serve.waitFor(/catalog policy in force: 3 servers admitted/);
      expect(await registryNames(serve.port)).to.deep.equal(['com.notion/mcp', 'com.stripe/mcp', 'io.github.github/github-mcp-server']);

      serve.child.kill('SIGHUP');
      await serve.waitFor(/"trigger":"SIGHUP"[^\n]*"msg":"catalog policy reloaded: unchanged"/);
      expect(serve.child.exitCode, 'SIGHUP does not stop it').to.equal(null);

      writeFileSync(file, 'allow: [io.github.github/*, com.stripe/*]\n');
      await serve.waitFor(/"removed":1[^\n]*"msg":"catalog policy reloaded: 1 server removed, 2 admitted"/);
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Every worker follows the write's generation within its poll.
      for (let i = 0; i < 6; i += 1) expect(await registryNames(serve.port)).to.deep.equal(['com.stripe/mcp', 'io.github.github/github-mcp-server']);
      expect(serve.log().match(/catalog policy reloaded: 1 server removed/g), 'one process applied it').to.have.length(1);
    });
  }
});
