/**
 * Writes the search parity suite's fixture (test/fixtures/parity/*.json) from the real upstream
 * files in ../shared/data: a deterministic sample of each source, their records unchanged. Run
 * once; the fixture is committed, so the suite runs on a fresh clone without ../shared.
 *
 *   npx tsx scripts/make-parity-fixture.ts [data directory, default ../shared/data]
 *
 * The sample holds every few servers of each source (by name), the ones whose text is in other
 * scripts, with diacritics or emoji, some with many tools, the well-known servers other tests
 * search for, and the other sources' records of the same repositories (so merged servers, listed
 * by several sources, lead name tiers as they do in the real catalog).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DATA = resolve(process.argv[2] ?? join(ROOT, '..', 'shared', 'data'));
const OUT = join(ROOT, 'test', 'fixtures', 'parity');

interface Official { server: { name: string; title?: string; description: string; repository?: { url?: string } }; _meta: Record<string, { isLatest?: boolean }> }
interface Docker { name: string; about?: { title?: string; description?: string }; source?: { project?: string }; tools?: unknown[] }
interface Toolsdk { name?: string; packageName?: string; description?: string; url?: string; tools?: unknown[] }

const read = <T>(file: string): T => JSON.parse(readFileSync(join(DATA, file), 'utf8'));

/** A letter outside ASCII (other scripts, diacritics) or a symbol such as an emoji. */
const INTERESTING = /[^\x00-\x7f](?<=[\p{L}\p{So}])/u;
const interesting = (value: unknown): boolean => INTERESTING.test(JSON.stringify(value));
/** Scripts and letters the sample must hold however few records have them: Cyrillic, Greek, kana, non-ASCII capitals. */
const RARE = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Hiragana}\p{Script=Katakana}]|[^\x00-\x7f](?<=\p{Lu})/u;
const rare = (value: unknown): boolean => RARE.test(JSON.stringify(value));

/** The servers other tests search for by name. */
const WELL_KNOWN = ['io.github.github/github-mcp-server', 'com.stripe/mcp', 'com.notion/mcp', 'com.supabase/mcp', 'app.linear/linear', 'com.figma.mcp/mcp', 'io.github.upstash/context7'];

/** A repository URL as a key: lower case, without scheme, `.git` or a trailing slash. */
const repoKey = (url: string | undefined): string | null => (url ? url.toLowerCase().replace(/^https?:\/\//, '').replace(/\.git$/, '').replace(/\/+$/, '') : null);

/** Every `step`-th item, and those `also` picks. */
const sample = <T>(items: readonly T[], step: number, also: (item: T, index: number) => boolean = () => false): T[] =>
  items.filter((item, i) => i % step === 0 || also(item, i));

const byName = <T>(name: (item: T) => string) => (a: T, b: T): number => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);

const official = read<{ servers: Official[] }>('official-registry-v0.1-snapshot-2025-12.json')
  .servers.filter((r) => Object.values(r._meta).some((meta) => meta.isLatest))
  .sort(byName((r) => r.server.name));
const docker = read<Docker[]>('docker-mcp-catalog-servers.json').sort(byName((r) => r.name));
const toolsdk = read<Toolsdk[]>('toolsdk-mcp-registry-servers.json').sort(byName((r) => r.packageName ?? r.name ?? ''));

const pickedOfficial = sample(official, 8, (r) => WELL_KNOWN.includes(r.server.name) || interesting([r.server.title, r.server.description]));
const repos = new Set(pickedOfficial.map((r) => repoKey(r.server.repository?.url)).filter((key) => key !== null));

const withTools = docker.filter((r) => (r.tools?.length ?? 0) > 0);
const pickedDocker = [
  ...sample(withTools, 3),
  ...sample(docker.filter((r) => !withTools.includes(r)), 6, (r) => interesting(r.about) || repos.has(repoKey(r.source?.project) ?? '')),
];
for (const r of pickedDocker) {
  const key = repoKey(r.source?.project);
  if (key) repos.add(key);
}

const interestingToolsdk = toolsdk.filter((r) => interesting([r.name, r.description, r.tools]));
const toolsdkWithTools = toolsdk.filter((r) => (r.tools?.length ?? 0) > 0 && !interestingToolsdk.includes(r));
const pickedToolsdk = [
  ...sample(interestingToolsdk, 2, (r) => rare([r.name, r.description, r.tools])),
  ...sample(toolsdkWithTools, 16),
  ...sample(toolsdk.filter((r) => !interestingToolsdk.includes(r) && !toolsdkWithTools.includes(r)), 30, (r) => repos.has(repoKey(r.url) ?? '')),
];

/** A JSON array with one record a line (compact, and a diff shows which records changed). */
const lines = (records: readonly unknown[]): string => `[\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;

mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, 'official.json'), `{"servers": ${lines(pickedOfficial).trimEnd()}}\n`);
writeFileSync(join(OUT, 'docker.json'), lines(pickedDocker));
writeFileSync(join(OUT, 'toolsdk.json'), lines(pickedToolsdk));
console.log(`official ${pickedOfficial.length}, docker ${pickedDocker.length}, toolsdk ${pickedToolsdk.length} records → ${OUT}`);
