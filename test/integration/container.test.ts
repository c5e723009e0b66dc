/**
 * The container image (Dockerfile, compose.yaml; docs/decisions/container.md).
 *
 * - What the Dockerfile and compose.yaml say: a Node.js 22 base, production dependencies only, a
 *   user of its own, a HEALTHCHECK on /readyz, the data in a volume, config by environment.
 * - The image's start command without an engine: the final stage's ENTRYPOINT and CMD, run with
 *   its ENV, as its USER, from its WORKDIR laid out by its COPY lines (copies of this checkout's
 *   built files and production packages only), a temporary folder standing for the /data volume. It passes the smoke probe that
 *   `npm start`'s command passes, its HEALTHCHECK command exits 0, and SIGTERM stops it with 0.
 * - The image itself, where a container engine answers (`docker info`): built, run, probed the
 *   same way, found healthy by the engine, stopped with `docker stop`. Skipped where none answers
 *   unless SEXTANT_CONTAINER_ENGINE=require (scripts/container-smoke.sh starts one and sets it).
 * Every request goes to 127.0.0.1; the container shares the host's network and binds loopback.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'chai';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../support/serve-process.js';

const ROOT = resolve(import.meta.dirname, '../..');
const DOCKERFILE = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const DOCKERIGNORE = readFileSync(join(ROOT, '.dockerignore'), 'utf8');
const COMPOSE = readFileSync(join(ROOT, 'compose.yaml'), 'utf8');

// ---- reading a Dockerfile -------------------------------------------------------------------

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

interface Stage {
  readonly from: string;
  readonly name: string | null;
  readonly instructions: readonly Instruction[];
}

/** Instructions in order: continuation lines joined, comment and blank lines dropped. */
function instructionsOf(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (/^\s*#/.test(line) || (line.trim() === '' && pending === '')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const whole = (pending + line).trim();
    pending = '';
    if (whole === '') continue;
    const match = /^(\S+)\s*(.*)$/s.exec(whole);
    if (match) out.push({ keyword: (match[1] ?? '').toUpperCase(), args: (match[2] ?? '').replace(/\s+/g, ' ').trim() });
  }
  return out;
}

/** Splits words as a shell would for ENV: double or single quotes group, backslash escapes. */
function words(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | null = null;
  let started = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (quote !== null) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) current += text[(i += 1)];
      else current += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      current += text[(i += 1)];
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) out.push(current);
      current = '';
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (started) out.push(current);
  return out;
}

/** The build's stages, FROM's `${ARG}`s replaced by the defaults of the ARGs before the first FROM. */
function stagesOf(text: string): { args: Record<string, string>; stages: Stage[] } {
  const args: Record<string, string> = {};
  const stages: Array<{ from: string; name: string | null; instructions: Instruction[] }> = [];
  for (const instruction of instructionsOf(text)) {
    if (instruction.keyword === 'FROM') {
      const [image = '', as, name] = instruction.args.split(' ');
      const from = image.replace(/\$\{?(\w+)\}?/g, (_, arg: string) => args[arg] ?? '');
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? (name ?? null) : null, instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword === 'ARG') {
        const [name = '', value = ''] = instruction.args.split('=');
        args[name] = value;
      }
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { args, stages };
}

function all(stage: Stage, keyword: string): string[] {
  return stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
}

function last(stage: Stage, keyword: string): string | undefined {
  return all(stage, keyword).at(-1);
}

/** ENV's `name=value` pairs (the legacy `ENV name value` too), in order. */
function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const args of all(stage, 'ENV')) {
    const parts = words(args);
    if (parts.length >= 1 && !(parts[0] ?? '').includes('=')) {
      env[parts[0] ?? ''] = parts.slice(1).join(' ');
      continue;
    }
    for (const part of parts) {
      const at = part.indexOf('=');
      env[part.slice(0, at)] = part.slice(at + 1);
    }
  }
  return env;
}

function execForm(args: string | undefined, what: string): string[] {
  if (args === undefined) return [];
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) throw new Error(`${what} is not in exec form: ${args}`);
  return parsed as string[];
}

interface Healthcheck {
  readonly options: Record<string, string>;
  readonly command: string[];
}

function healthcheckOf(stage: Stage): Healthcheck | null {
  const args = last(stage, 'HEALTHCHECK');
  if (args === undefined || args === 'NONE') return null;
  const options: Record<string, string> = {};
  let rest = args;
  for (let match = /^--([\w-]+)=(\S+)\s+/.exec(rest); match; match = /^--([\w-]+)=(\S+)\s+/.exec(rest)) {
    options[match[1] ?? ''] = match[2] ?? '';
    rest = rest.slice(match[0].length);
  }
  if (!rest.startsWith('CMD ')) throw new Error(`HEALTHCHECK without CMD: ${args}`);
  const command = rest.slice(4).trim();
  return { options, command: command.startsWith('[') ? execForm(command, 'HEALTHCHECK CMD') : ['/bin/sh', '-c', command] };
}

/** `COPY --from=stage source… destination`, relative destinations taken from WORKDIR. */
function copiesFrom(stage: Stage, from: string, workdir: string): Array<{ source: string; destination: string }> {
  return all(stage, 'COPY')
    .map((args) => args.split(' '))
    .filter((parts) => parts[0] === `--from=${from}`)
    .flatMap((parts) => {
      const sources = parts.slice(1, -1);
      const target = parts.at(-1) ?? '';
      const destination = target.startsWith('/') ? target : join(workdir, target);
      return sources.map((source) => ({ source, destination: target.endsWith('/') ? join(destination, source.split('/').at(-1) ?? '') : destination }));
    });
}

/** Whether .dockerignore leaves `path` in the build context (its last matching line decides). */
function inContext(path: string): boolean {
  let included = true;
  for (const raw of DOCKERIGNORE.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    const pattern = (negated ? line.slice(1) : line).replace(/\/$/, '');
    const regex = new RegExp(`^${pattern.replace(/[.+^$()|[\]{}]/g, '\\$&').replace(/\*\*\//g, '(.*/)?').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}(/.*)?$`);
    if (regex.test(path)) included = negated;
  }
  return included;
}

const { args: ARGS, stages: STAGES } = stagesOf(DOCKERFILE);
const FINAL = STAGES.at(-1) as Stage;
const WORKDIR = last(FINAL, 'WORKDIR') ?? '/';
const IMAGE_ENV = envOf(FINAL);
const USER = last(FINAL, 'USER') ?? 'root';
const START = [...execForm(last(FINAL, 'ENTRYPOINT'), 'ENTRYPOINT'), ...execForm(last(FINAL, 'CMD'), 'CMD')];
const HEALTHCHECK = healthcheckOf(FINAL);
const VOLUMES = (() => {
  const args = last(FINAL, 'VOLUME');
  return args === undefined ? [] : args.startsWith('[') ? execForm(args, 'VOLUME') : args.split(' ');
})();
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
/** `npm start`'s command, less the build before it. */
const NPM_START = (PACKAGE.scripts.start ?? '').split('&&').at(-1)?.trim().split(/\s+/) ?? [];

// ---- the smoke probe: what `npm start` answers, asked of any instance ------------------------

interface Running {
  readonly base: string;
  readonly child: ChildProcess;
  readonly log: () => string;
}

async function smokeProbe(base: string): Promise<void> {
  const ready = await fetch(`${base}/readyz`);
  const readiness = (await ready.json()) as { status?: string; checks?: Record<string, string>; servers?: number };
  expect(ready.status, JSON.stringify(readiness)).to.equal(200);
  expect(readiness.status).to.equal('ready');
  expect(readiness.checks?.database).to.equal('ok');
  expect(readiness.checks?.migrations).to.equal('ok');
  expect(readiness.servers, 'the demo catalog is loaded').to.be.greaterThan(0);

  expect((await fetch(`${base}/healthz`)).status).to.equal(200);

  const search = await fetch(`${base}/api/v1/servers/search?q=github`);
  expect(search.status).to.equal(200);
  const found = (await search.json()) as { items: Array<{ name: string }> };
  expect(found.items.map((item) => item.name)).to.include('io.github.github/github-mcp-server');

  // A page: the templates, src/web/static and swagger-ui-dist's files are all there.
  const home = await fetch(`${base}/`);
  expect(home.status).to.equal(200);
  const html = await home.text();
  const stylesheet = /href="(\/assets\/app-[0-9a-f]+\.css)"/.exec(html)?.[1];
  expect(stylesheet, 'the home page links its stylesheet').to.be.a('string');
  expect((await fetch(`${base}${stylesheet ?? ''}`)).status).to.equal(200);
  expect((await fetch(`${base}/openapi.json`)).status).to.equal(200);
}

/** Starts `argv` and resolves once it logs "sextant is serving" with its URL. */
async function startServing(argv: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Running> {
  const child = spawn(argv[0] as string, argv.slice(1), { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const base = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`not serving after 30 s: ${out}`)), 30_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      out += `${line}\n`;
      if (!line.includes('sextant is serving')) return;
      clearTimeout(timer);
      resolveUrl((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${argv.join(' ')} exited (${code ?? signal}) before serving: ${out}`));
    });
  });
  return { base, child, log: () => out };
}

async function stopWithSigterm(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  child.kill('SIGTERM');
  const [code, signal] = await exited;
  return { code, signal };
}


// ---- what the files say ---------------------------------------------------------------------

describe('the Dockerfile', () => {
  it('builds on Node.js 22 LTS (node:22-bookworm-slim by default), both stages on the same base', () => {
    expect(STAGES.map((s) => s.name)).to.deep.equal(['build', 'runtime']);
    expect(ARGS.NODE_IMAGE).to.equal('node:22-bookworm-slim');
    for (const stage of STAGES) expect(stage.from, `FROM of ${stage.name}`).to.equal(ARGS.NODE_IMAGE);
  });

  it('installs production dependencies only: pruned in the build stage, copied whole, no compiler in the runtime stage', () => {
    const build = STAGES[0] as Stage;
    const buildRuns = all(build, 'RUN').join(' && ');
    expect(buildRuns).to.match(/npm ci\b/);
    expect(buildRuns).to.match(/npm prune --omit=dev\b/);
    // The prune comes after the build, which needs the dev dependencies (tsc).
    expect(buildRuns.indexOf('npm prune --omit=dev')).to.be.greaterThan(buildRuns.indexOf('npm run build'));
    const runtimeRuns = all(FINAL, 'RUN').join(' && ');
    expect(runtimeRuns).to.not.match(/npm (ci|install|i)\b|apt-get install|g\+\+|python3/);
    expect(copiesFrom(FINAL, 'build', WORKDIR).map((c) => c.source)).to.include('/app/node_modules');
    expect(all(FINAL, 'COPY').filter((args) => !args.startsWith('--from=')), 'the runtime stage copies from the build stage only').to.deep.equal([]);
  });

  it('runs as a user of its own, not root, created in the runtime stage with that id', () => {
    expect(USER).to.match(/^\d+:\d+$/);
    const [uid, gid] = USER.split(':').map(Number) as [number, number];
    expect(uid).to.be.greaterThan(999);
    const runs = all(FINAL, 'RUN').join(' ');
    expect(runs).to.include(`useradd --uid ${uid} --gid ${gid}`);
    expect(runs).to.include(`chown ${uid}:${gid} /data`);
    // USER comes after the RUNs that need root and before the command.
    const keywords = FINAL.instructions.map((i) => i.keyword);
    expect(keywords.lastIndexOf('USER')).to.be.greaterThan(keywords.lastIndexOf('RUN'));
  });

  it('keeps its data in the /data volume and takes its config from the environment, bound to all interfaces', () => {
    expect(VOLUMES).to.deep.equal(['/data']);
    expect(IMAGE_ENV.DATABASE_URL).to.equal('sqlite:/data/sextant.sqlite');
    expect(IMAGE_ENV.HOST).to.equal('0.0.0.0');
    expect(IMAGE_ENV.NODE_ENV).to.equal('production');
    expect(last(FINAL, 'EXPOSE')).to.equal(IMAGE_ENV.PORT);
    // The image's environment is a valid configuration.
    const config = loadConfig(IMAGE_ENV);
    expect(config.port).to.equal(Number(IMAGE_ENV.PORT));
  });

  it('checks its health on /readyz with Node alone (no curl in the image)', () => {
    expect(HEALTHCHECK).to.not.equal(null);
    expect(HEALTHCHECK?.command[0]).to.equal('node');
    expect(HEALTHCHECK?.command.join(' ')).to.include('/readyz');
    expect(HEALTHCHECK?.options).to.include.keys('interval', 'timeout', 'start-period');
  });

  it("starts the service with `npm start`'s own command, SIGTERM stopping it", () => {
    expect(NPM_START[0]).to.equal('node');
    expect(START).to.deep.equal(NPM_START);
    expect(last(FINAL, 'STOPSIGNAL') ?? 'SIGTERM').to.equal('SIGTERM');
  });

  it('has in its build context what the build stage copies, and no node_modules, dist, data or .git', () => {
    const build = STAGES[0] as Stage;
    const sources = all(build, 'COPY').filter((args) => !args.startsWith('--')).flatMap((args) => args.split(' ').slice(0, -1));
    expect(sources).to.include.members(['package.json', 'package-lock.json', 'src']);
    for (const source of sources) expect(inContext(source), source).to.equal(true);
    for (const left of ['node_modules', 'node_modules/sqlite3/package.json', 'dist/main.js', 'data/sextant.sqlite', '.git/HEAD', 'test/integration/container.test.ts', 'src/x.sqlite']) {
      expect(inContext(left), left).to.equal(false);
    }
  });
});

describe('compose.yaml', () => {
  type Service = { image?: string; build?: unknown; environment?: Record<string, string>; depends_on?: Record<string, { condition?: string }>; healthcheck?: { test?: string[] }; volumes?: string[]; ports?: string[]; stop_grace_period?: string; init?: boolean };
  const compose = parseYaml(COMPOSE) as { services: Record<string, Service>; volumes: Record<string, unknown> };
  /** Compose's interpolation of `${NAME}`, `${NAME:-default}` and `${NAME:?message}`. */
  const interpolate = (value: string, env: Record<string, string>): string =>
    value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, kind: string | undefined, rest: string | undefined) => {
      const set = env[name];
      if (set !== undefined && set !== '') return set;
      if (kind === '?') throw new Error(`${name}: ${rest ?? ''}`);
      return kind === '-' ? (rest ?? '') : '';
    });

  it('runs PostgreSQL 16 on a named volume, healthy once pg_isready says so', () => {
    const postgres = compose.services.postgres as Service;
    expect(postgres.image).to.equal('postgres:16');
    expect(postgres.healthcheck?.test?.join(' ')).to.include('pg_isready');
    const volume = (postgres.volumes?.[0] ?? '').split(':')[0] ?? '';
    expect(compose.volumes).to.have.property(volume);
  });

  it('starts sextant from this Dockerfile once PostgreSQL is healthy, on a postgres:// DATABASE_URL', () => {
    const sextant = compose.services.sextant as Service;
    expect(sextant.build).to.equal('.');
    expect(sextant.depends_on?.postgres?.condition).to.equal('service_healthy');
    expect(sextant.init).to.equal(true);
    expect(Number.parseInt(sextant.stop_grace_period ?? '0', 10), 'stop_grace_period beyond SHUTDOWN_GRACE').to.be.greaterThan(20);
    const env = Object.fromEntries(Object.entries(sextant.environment ?? {}).map(([name, value]) => [name, interpolate(String(value), { POSTGRES_PASSWORD: 'example' })]));
    expect(env.DATABASE_URL).to.equal('postgres://sextant:example@postgres:5432/sextant');
    // Bound beyond loopback, names are answered only once named: the published address is.
    expect(env.PUBLIC_URL).to.equal('http://localhost:3000');
    expect(interpolate(sextant.ports?.[0] ?? '', {})).to.equal('127.0.0.1:3000:3000');
    expect(() => loadConfig({ ...IMAGE_ENV, ...env })).to.not.throw();
    expect(() => interpolate(String(sextant.environment?.DATABASE_URL), {}), 'no default password').to.throw(/POSTGRES_PASSWORD/);
  });
});

// ---- the start command, user and environment, without an engine -----------------------------

const isRoot = process.getuid?.() === 0;

describe(`the image's start command, user and environment, run here${isRoot ? '' : ' (as this user: only root can take the image\'s)'}`, function () {
  this.timeout(120_000);
  const made: string[] = [];
  const children: ChildProcess[] = [];
  after(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  const [uid, gid] = USER.split(':').map(Number) as [number, number];
  /** `argv` as the image's USER: setpriv when we are root. */
  const asImageUser = (argv: readonly string[]): string[] => (isRoot ? ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--', ...argv] : [...argv]);

  /**
   * A folder laid out as the image's filesystem: WORKDIR filled by the runtime stage's COPY lines
   * (the build stage's /app being this checkout after `npm ci`: dist/ built), with node_modules
   * holding the production packages only, and an empty folder for each VOLUME.
   */
  function stageImage(): { root: string; workdir: string; volumes: Record<string, string> } {
    if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npm ci` (or `npm run build`) first');
    // Under /tmp when the image's user runs it: every folder above must be open to that user.
    const root = mkdtempSync(join(isRoot ? '/tmp' : tmpdir(), 'sextant-image-'));
    made.push(root);
    chmodSync(root, 0o755);
    const inRoot = (path: string): string => join(root, path);
    for (const { source, destination } of copiesFrom(FINAL, 'build', WORKDIR)) {
      const from = join(ROOT, source.replace(/^\/app\/?/, ''));
      mkdirSync(dirname(inRoot(destination)), { recursive: true });
      if (source === '/app/node_modules') stageProductionModules(inRoot(destination));
      else cpSync(from, inRoot(destination), { recursive: true, filter: (path) => !path.endsWith('.tsbuildinfo') });
    }
    const volumes: Record<string, string> = {};
    for (const volume of VOLUMES) {
      volumes[volume] = inRoot(volume);
      mkdirSync(volumes[volume], { recursive: true });
      if (isRoot) chownSync(volumes[volume], uid, gid);
    }
    return { root, workdir: inRoot(WORKDIR), volumes };
  }

  /**
   * node_modules with the lockfile's non-dev top-level packages (each with what it nests), as
   * `npm prune --omit=dev` leaves it: copies, not links, as the checkout may be closed to the
   * image's user, and a link would let a package resolve the dev ones beside it.
   */
  function stageProductionModules(target: string): void {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    mkdirSync(target, { recursive: true });
    for (const [key, entry] of Object.entries(lock.packages)) {
      const name = /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(key)?.[1];
      if (name === undefined || entry.dev === true || !existsSync(join(ROOT, key))) continue;
      cpSync(join(ROOT, key), join(target, name), { recursive: true });
    }
  }

  it("serves as `npm start`'s command does: the same smoke probe, a passing HEALTHCHECK, exit 0 on SIGTERM", async () => {
    // `npm start`'s command, from the checkout, on a SQLite file of its own.
    const plain = mkdtempSync(join(tmpdir(), 'sextant-npm-start-'));
    made.push(plain);
    const reference = await startServing(NPM_START, {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: `sqlite:${join(plain, 'sextant.sqlite')}`, PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'info' },
    });
    children.push(reference.child);
    await smokeProbe(reference.base);
    expect(await stopWithSigterm(reference.child)).to.deep.equal({ code: 0, signal: null });

    // The image's: its ENV (the volume's path moved to the stand-in folder; bound to loopback on
    // a free port instead of 0.0.0.0:3000), its USER, its WORKDIR, its ENTRYPOINT and CMD.
    const image = stageImage();
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: '/nonexistent' };
    for (const [name, value] of Object.entries(IMAGE_ENV)) {
      env[name] = Object.entries(image.volumes).reduce((text, [volume, folder]) => text.replace(new RegExp(`(^|:)${volume}(?=/|$)`), `$1${folder}`), value);
    }
    Object.assign(env, { HOST: '127.0.0.1', PORT: String(port), METRICS_HOST: '127.0.0.1', METRICS_PORT: '0' });
    expect(env.DATABASE_URL).to.equal(`sqlite:${image.volumes['/data']}/sextant.sqlite`);

    const running = await startServing(asImageUser(START), { cwd: image.workdir, env });
    children.push(running.child);
    expect(running.base).to.equal(`http://127.0.0.1:${port}`);
    await smokeProbe(running.base);

    // It wrote its catalog into the volume, as the image's user.
    const database = statSync(join(image.volumes['/data'] as string, 'sextant.sqlite'));
    if (isRoot) expect({ uid: database.uid, gid: database.gid }).to.deep.equal({ uid, gid });

    const health = HEALTHCHECK as Healthcheck;
    const check = (): number | null => spawnSync(asImageUser(health.command)[0] as string, asImageUser(health.command).slice(1), { cwd: image.workdir, env, timeout: 10_000 }).status;
    expect(check(), 'HEALTHCHECK while serving').to.equal(0);

    expect(await stopWithSigterm(running.child)).to.deep.equal({ code: 0, signal: null });
    expect(running.log()).to.include('shutting down');
    expect(check(), 'HEALTHCHECK once stopped').to.equal(1);
  });
});

// ---- the image itself, in a container engine --------------------------------------------------

const ENGINE_MODE = process.env.SEXTANT_CONTAINER_ENGINE ?? 'auto';

function docker(args: readonly string[], timeout = 60_000): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('docker', args, { encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 });
  return { status: run.status, stdout: run.stdout ?? '', stderr: run.error ? String(run.error) : (run.stderr ?? '') };
}

/** Why no engine can be used, or null when `docker info` answers. */
function engineAbsent(): string | null {
  if (ENGINE_MODE === 'off') return 'SEXTANT_CONTAINER_ENGINE=off';
  const info = docker(['info', '--format', '{{.ServerVersion}}'], 20_000);
  if (info.status === 0 && info.stdout.trim() !== '') return null;
  const said = `${info.stderr}${info.stdout}`.split('\n').map((l) => l.trim()).find((l) => /cannot|error|not found|ENOENT|refused/i.test(l));
  return `no container engine answers (docker info: ${said ?? `exit ${info.status}`}); scripts/container-smoke.sh starts one`;
}

const absent = engineAbsent();
if (absent !== null && ENGINE_MODE === 'require') throw new Error(`SEXTANT_CONTAINER_ENGINE=require, but ${absent}`);

describe(`the image in a container engine${absent === null ? '' : ` (skipped: ${absent})`}`, function () {
  this.timeout(120_000);
  const tag = `sextant:container-test`;
  const name = `sextant-container-test-${process.pid}`;
  const volume = `${name}-data`;
  let port = 0;

  before(async function () {
    if (absent !== null) this.skip();
    // Building from nothing takes minutes: the base, apt, npm ci, sqlite3 compiled.
    this.timeout(20 * 60_000);
    let base = process.env.SEXTANT_NODE_IMAGE ?? ARGS.NODE_IMAGE ?? '';
    const canDebootstrap = spawnSync('sh', ['-c', 'command -v debootstrap'], { encoding: 'utf8' }).status === 0;
    if (process.env.SEXTANT_NODE_IMAGE === undefined && docker(['image', 'inspect', base]).status !== 0 && canDebootstrap) {
      // No image registry here (the official image is not pulled): the stand-in made of Debian's
      // packages and the npm registry's Node.js 22 (scripts/container-base.sh).
      base = 'sextant-local/node:22-bookworm-slim';
      const made = spawnSync('bash', [join(ROOT, 'scripts/container-base.sh')], { cwd: ROOT, encoding: 'utf8', timeout: 15 * 60_000, env: { ...process.env, SEXTANT_BASE_IMAGE: base } });
      if (made.status !== 0) throw new Error(`scripts/container-base.sh failed: ${made.stdout}${made.stderr}`);
    }
    const before = docker(['image', 'inspect', '--format', '{{.Id}}', tag]).stdout.trim();
    const build = docker(['build', '--network', 'host', '--build-arg', `NODE_IMAGE=${base}`, '-t', tag, ROOT], 15 * 60_000);
    if (build.status !== 0) throw new Error(`docker build failed (${build.status}):\n${build.stdout.slice(-4000)}\n${build.stderr.slice(-4000)}`);
    // The image this one replaces, if any, goes (the build stage's layers stay, as the cache).
    const now = docker(['image', 'inspect', '--format', '{{.Id}}', tag]).stdout.trim();
    if (before !== '' && before !== now) docker(['image', 'rm', before]);
    port = await freePort();
  });

  after(function () {
    if (absent !== null) return;
    docker(['rm', '--force', name]);
    docker(['volume', 'rm', '--force', volume]);
  });

  it('is configured as the Dockerfile says: its user, volume, healthcheck and command', () => {
    const inspect = docker(['image', 'inspect', '--format', '{{json .Config}}', tag]);
    expect(inspect.status, inspect.stderr).to.equal(0);
    const config = JSON.parse(inspect.stdout) as { User: string; Volumes: Record<string, unknown>; Healthcheck: { Test: string[] }; Entrypoint: string[]; Cmd: string[]; WorkingDir: string; Env: string[] };
    expect(config.User).to.equal(USER);
    expect(Object.keys(config.Volumes)).to.deep.equal(VOLUMES);
    expect(config.Healthcheck.Test).to.deep.equal(['CMD', ...(HEALTHCHECK as Healthcheck).command]);
    expect([...config.Entrypoint, ...config.Cmd]).to.deep.equal(START);
    expect(config.WorkingDir).to.equal(WORKDIR);
    for (const [key, value] of Object.entries(IMAGE_ENV)) expect(config.Env).to.include(`${key}=${value}`);
    const node = docker(['run', '--rm', '--network', 'none', '--entrypoint', 'node', tag, '-p', 'process.versions.node.split(".")[0] + " " + process.getuid() + " " + require("fs").existsSync("node_modules/typescript")']);
    expect(node.stdout.trim(), node.stderr).to.equal(`22 ${USER.split(':')[0]} false`);
  });

  it('serves in a container: the smoke probe, healthy to the engine, exit 0 on docker stop', async () => {
    // The host's network, bound to its loopback: the probe talks to 127.0.0.1 only.
    const run = docker(['run', '--detach', '--name', name, '--network', 'host', '--volume', `${volume}:/data`, '--env', 'HOST=127.0.0.1', '--env', `PORT=${port}`, '--env', 'METRICS_HOST=127.0.0.1', '--env', 'METRICS_PORT=0', '--health-interval', '1s', tag]);
    expect(run.status, run.stderr).to.equal(0);
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    let health = '';
    while (Date.now() < deadline) {
      health = docker(['inspect', '--format', '{{.State.Health.Status}}', name]).stdout.trim();
      if (health === 'healthy') break;
      if (docker(['inspect', '--format', '{{.State.Running}}', name]).stdout.trim() !== 'true') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(health, docker(['logs', name]).stdout).to.equal('healthy');
    await smokeProbe(base);
    const exec = docker(['exec', name, ...(HEALTHCHECK as Healthcheck).command]);
    expect(exec.status, 'the HEALTHCHECK command in the container').to.equal(0);
    const files = docker(['exec', name, 'ls', '-ln', '/data']);
    expect(files.stdout).to.match(new RegExp(`${USER.replace(':', ' +')} .* sextant\\.sqlite`));

    const stop = docker(['stop', '--time', '30', name]);
    expect(stop.status, stop.stderr).to.equal(0);
    expect(docker(['inspect', '--format', '{{.State.ExitCode}}', name]).stdout.trim()).to.equal('0');
    expect(docker(['logs', name]).stdout).to.include('shutting down');
  });
});
