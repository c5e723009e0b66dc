/**
 * The tool-definition scan (src/catalog/tool-scan.ts) over the real catalog: the three files of
 * ../shared/data ingested into a temporary SQLite catalog, each tool's stored definition (name,
 * title, description, input_schema, annotations) read back from the `tools` table and scanned per
 * server, as ingest does. Writes docs/trust/tool-findings.md: counts per rule and severity, every
 * finding at medium or above with the judgement kept in docs/trust/tool-findings-judgements.json
 * (keyed "server :: tool :: rule"), the low ones, the planted set's result, and the time per tool.
 *
 *   npx tsx scripts/tool-scan-report.ts
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { TOOL_RULES, type ToolRuleId } from '../src/catalog/tool-rules.js';
import { scanTools, type ScannedTool, type ToolFinding } from '../src/catalog/tool-scan.js';
import { ingest } from '../src/ingest/ingest-service.js';
import { createStore } from '../src/store/index.js';
import { DATA_DIR, DATA_FILES, dataAvailable } from '../test/support/category-agreement.js';

const OUT = new URL('../docs/trust/tool-findings.md', import.meta.url);
const JUDGEMENTS = new URL('../docs/trust/tool-findings-judgements.json', import.meta.url);
const PLANTED = new URL('../test/fixtures/poisoned-tools.json', import.meta.url);
/** The most tools with a finding at medium or above the scan may flag: 1%. */
const BUDGET = 0.01;
const TIMED_PASSES = 5;

interface ServerTools {
  readonly server: string;
  readonly tools: readonly ScannedTool[];
}
interface Judgement {
  readonly verdict: 'true' | 'false positive';
  readonly why: string;
}
type Found = ToolFinding & { readonly server: string };

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const parsedObject = (text: string): Record<string, unknown> => {
  const value: unknown = JSON.parse(text);
  return isRecord(value) ? value : {};
};

/** Every server's tools, as the catalog holds them after ingesting the real files. */
async function catalogTools(): Promise<ServerTools[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-tool-scan-'));
  const file = join(dir, 'catalog.sqlite');
  try {
    const store = createStore(`sqlite:${file}`);
    await store.migrate();
    await ingest(store, DATA_FILES.map((name) => ({ file: name, text: readFileSync(`${DATA_DIR}${name}`, 'utf8') })));
    await store.close();
    return groupByServer(await toolRows(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface ToolRow {
  server: string;
  name: string;
  title: string | null;
  description: string;
  input_schema: string;
  annotations: string;
}

function toolRows(file: string): Promise<ToolRow[]> {
  const sql = 'SELECT s.name AS server, t.name, t.title, t.description, t.input_schema, t.annotations FROM tools t JOIN servers s ON s.id = t.server_id ORDER BY s.name, t.server_id, t.position';
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
    db.all(sql, (err, rows: ToolRow[]) => {
      db.close();
      if (err) reject(err);
      else resolve(rows);
    });
  });
}

function groupByServer(rows: readonly ToolRow[]): ServerTools[] {
  const servers = new Map<string, ScannedTool[]>();
  for (const row of rows) {
    const tool = { name: row.name, title: row.title, description: row.description, inputSchema: parsedObject(row.input_schema), annotations: parsedObject(row.annotations) };
    const tools = servers.get(row.server);
    if (tools) tools.push(tool);
    else servers.set(row.server, [tool]);
  }
  return [...servers].map(([server, tools]) => ({ server, tools }));
}

/** Mean microseconds per tool over TIMED_PASSES full passes, after one to warm up. */
function microsecondsPerTool(servers: readonly ServerTools[], tools: number): number {
  for (const { tools: list } of servers) scanTools(list);
  const started = performance.now();
  for (let pass = 0; pass < TIMED_PASSES; pass += 1) for (const { tools: list } of servers) scanTools(list);
  return ((performance.now() - started) * 1000) / (TIMED_PASSES * tools);
}

/** The planted set: poisoned tools found with every rule they must trigger, and benign neighbours left alone. */
function plantedResult(): { poisoned: number; found: number; neighbours: number; quiet: number } {
  const planted: { servers: Array<{ tools: ScannedTool[]; expect: Record<string, ToolRuleId[]> }> } = JSON.parse(readFileSync(PLANTED, 'utf8'));
  const result = { poisoned: 0, found: 0, neighbours: 0, quiet: 0 };
  for (const server of planted.servers) {
    const serious = scanTools(server.tools).filter((f) => f.severity !== 'low');
    for (const tool of server.tools) {
      const rules = serious.filter((f) => f.tool === tool.name).map((f) => f.rule);
      const expected = server.expect[tool.name];
      if (expected === undefined) {
        result.neighbours += 1;
        if (rules.length === 0) result.quiet += 1;
      } else {
        result.poisoned += 1;
        if (expected.every((rule) => rules.includes(rule))) result.found += 1;
      }
    }
  }
  return result;
}

const keyOf = (f: Found): string => `${f.server} :: ${f.tool} :: ${f.rule}`;
const percent = (n: number, of: number): string => `${((100 * n) / of).toFixed(2)}%`;
/** A table cell holding text from the catalog: a code span fenced longer than any backtick run in it, `|` escaped. */
const code = (text: string): string => {
  const longest = (text.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0);
  const fence = '`'.repeat(longest + 1);
  const pad = longest > 0 ? ' ' : '';
  return `${fence}${pad}${text.replace(/\|/g, '\\|')}${pad}${fence}`;
};

function render(servers: readonly ServerTools[], found: readonly Found[], judgements: Readonly<Record<string, Judgement>>, timing: number): string {
  const tools = servers.reduce((n, s) => n + s.tools.length, 0);
  const serious = found.filter((f) => f.severity !== 'low');
  const toolsWith = (list: readonly Found[]): number => new Set(list.map((f) => `${f.server}\u0000${f.tool}`)).size;
  const flagged = toolsWith(serious);
  const judged = serious.map((f) => judgements[keyOf(f)]);
  const planted = plantedResult();
  const lines = [
    '# Tool-definition scan of the real catalog',
    '',
    'Generated by `npx tsx scripts/tool-scan-report.ts` from the three files of `../shared/data` (see its README), ingested as the catalog holds them. Rules: `src/catalog/tool-rules.ts`; judgements: `docs/trust/tool-findings-judgements.json`.',
    '',
    `- Tools scanned: ${tools} (${servers.length} servers with tools)`,
    `- Tools with any finding: ${toolsWith(found)} (${percent(toolsWith(found), tools)})`,
    `- Tools with a finding of medium or above: **${flagged} (${percent(flagged, tools)})**; budget ${BUDGET * 100}%: ${flagged <= BUDGET * tools ? 'within' : '**over**'}`,
    `- Medium-or-above findings judged true: ${judged.filter((j) => j?.verdict === 'true').length} of ${serious.length} (${judged.filter((j) => j === undefined).length} not judged yet)`,
    `- Planted set (\`test/fixtures/poisoned-tools.json\`): ${planted.found} of ${planted.poisoned} poisoned tools found with every expected rule; ${planted.quiet} of ${planted.neighbours} benign neighbours without a medium-or-above finding`,
    `- Time: ${timing.toFixed(1)} µs per tool (mean of ${TIMED_PASSES} passes over all tools, one process, after a warm-up pass)`,
    '',
    '## Per rule',
    '',
    '| Rule | Severity | Findings | Tools | What it means |',
    '| --- | --- | ---: | ---: | --- |',
    ...TOOL_RULES.map((r) => {
      const of = found.filter((f) => f.rule === r.id);
      return `| \`${r.id}\` | ${r.severity} | ${of.length} | ${toolsWith(of)} | ${r.summary} |`;
    }),
    '',
    `Per severity: ${(['high', 'medium', 'low'] as const).map((s) => `${s} ${found.filter((f) => f.severity === s).length}`).join(', ')} findings.`,
    '',
    '## Every finding of medium or above',
    '',
    '| Server | Tool | Rule | Field | Excerpt | Judged |',
    '| --- | --- | --- | --- | --- | --- |',
    ...serious.map((f) => {
      const j = judgements[keyOf(f)];
      return `| ${code(f.server)} | ${code(f.tool)} | \`${f.rule}\` | ${code(f.field)} | ${code(f.excerpt)} | ${j ? `**${j.verdict}**: ${j.why}` : 'not judged yet'} |`;
    }),
    '',
    '## Low findings (signals, not counted against the budget)',
    '',
    '| Server | Tool | Rule | Field | Excerpt |',
    '| --- | --- | --- | --- | --- |',
    ...found.filter((f) => f.severity === 'low').map((f) => `| ${code(f.server)} | ${code(f.tool)} | \`${f.rule}\` | ${code(f.field)} | ${code(f.excerpt)} |`),
    '',
  ];
  return lines.join('\n');
}

if (!dataAvailable()) {
  console.log(`${DATA_DIR} not found: no real data to report on.`);
} else {
  const servers = await catalogTools();
  const tools = servers.reduce((n, s) => n + s.tools.length, 0);
  const found: Found[] = servers.flatMap(({ server, tools: list }) => scanTools(list).map((f) => ({ ...f, server })));
  const judgements: Record<string, Judgement> = JSON.parse(readFileSync(JUDGEMENTS, 'utf8'));
  const timing = microsecondsPerTool(servers, tools);
  writeFileSync(OUT, render(servers, found, judgements, timing));
  const serious = found.filter((f) => f.severity !== 'low');
  const unjudged = serious.filter((f) => judgements[keyOf(f)] === undefined).map(keyOf);
  const stale = Object.keys(judgements).filter((key) => !serious.some((f) => keyOf(f) === key));
  console.log(`${tools} tools, ${serious.length} findings of medium or above, ${timing.toFixed(1)} µs per tool: wrote ${OUT.pathname}`);
  if (unjudged.length > 0) console.log(`not judged yet:\n  ${unjudged.join('\n  ')}`);
  if (stale.length > 0) console.log(`judgements matching no finding now:\n  ${stale.join('\n  ')}`);
}
