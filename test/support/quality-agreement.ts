/**
 * How far the quality rules (src/catalog/quality.ts) agree with a person: the hand-labelled real
 * records of test/fixtures/quality/labelled.json, each flagged from its own record in
 * ../shared/data as ingest does it (read, then flagged by what it says, as materialize.ts does;
 * `duplicate` from the names of every record of the three files, as the catalog's pass reads
 * the names of its servers), compared with its labels.
 *
 * A server **agrees** when every flag the labeller raised is raised, and every flag raised is one
 * the labeller raised or would not object to (`alsoFine`). A tool agrees when its flags are its
 * labels. **Flagged or not**: the share whose rules raise some flag exactly when the labeller does.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { copiesAmong, serverQualityFlags, toolQualityFlags } from '../../src/catalog/quality.js';
import type { UpstreamServer } from '../../src/ingest/upstream.js';
import type { ServerQualityFlag, ToolQualityFlag } from '../../src/types.js';
import { recordsByKey } from './category-agreement.js';

const LABELLED = fileURLToPath(new URL('../fixtures/quality/labelled.json', import.meta.url));

export interface LabelledServer {
  readonly file: string;
  readonly key: string;
  readonly flags: readonly ServerQualityFlag[];
  readonly alsoFine?: readonly ServerQualityFlag[];
  readonly labelFrom: string;
  /** One of a random sample, labelled before its flags were looked at. */
  readonly heldOut?: boolean;
}

export interface LabelledTool {
  readonly file: string;
  readonly key: string;
  readonly tool: string;
  readonly flags: readonly ToolQualityFlag[];
  readonly labelFrom: string;
}

export interface Judged<L, F> {
  readonly labelled: L;
  readonly raised: readonly F[];
  readonly agrees: boolean;
}

export interface QualityAgreement {
  readonly servers: readonly Judged<LabelledServer, ServerQualityFlag>[];
  readonly tools: readonly Judged<LabelledTool, ToolQualityFlag>[];
  /** Share of servers that agree (see the file header). */
  readonly rate: number;
  /** Share of servers flagged (or not) as the labeller flags them. */
  readonly flaggedOrNot: number;
  /** Share of the held-out servers that agree. */
  readonly heldOut: number;
  readonly toolRate: number;
}

export function labelledQuality(): { servers: LabelledServer[]; tools: LabelledTool[] } {
  return JSON.parse(readFileSync(LABELLED, 'utf8')) as { servers: LabelledServer[]; tools: LabelledTool[] };
}

/** Flags each labelled record from its record and compares with its labels. */
export function measureQuality(labelled = labelledQuality(), records: Map<string, UpstreamServer> = recordsByKey()): QualityAgreement {
  const copies = copiesAmong([...records.values()].map((record) => record.name));
  const recordOf = (file: string, key: string): UpstreamServer => {
    const record = records.get(`${file}\u0000${key}`);
    if (!record) throw new Error(`labelled record ${key} is not in ${file}`);
    return record;
  };
  const servers = labelled.servers.map((server) => {
    const { name, title, description } = recordOf(server.file, server.key);
    const raised = [...serverQualityFlags({ name, title, description }), ...(copies.has(name.toLowerCase()) ? (['duplicate'] as const) : [])];
    const fine = new Set([...server.flags, ...(server.alsoFine ?? [])]);
    return { labelled: server, raised, agrees: server.flags.every((flag) => raised.includes(flag)) && raised.every((flag) => fine.has(flag)) };
  });
  const tools = labelled.tools.map((tool) => {
    const found = (recordOf(tool.file, tool.key).tools ?? []).find((t) => t.name === tool.tool);
    const raised = found ? toolQualityFlags(found.name) : [];
    return { labelled: tool, raised, agrees: raised.length === tool.flags.length && tool.flags.every((flag) => raised.includes(flag)) };
  });
  return {
    servers,
    tools,
    rate: share(servers.filter((s) => s.agrees).length, servers.length),
    flaggedOrNot: share(servers.filter((s) => (s.raised.length > 0) === (s.labelled.flags.length > 0)).length, servers.length),
    heldOut: share(servers.filter((s) => s.labelled.heldOut === true && s.agrees).length, servers.filter((s) => s.labelled.heldOut === true).length),
    toolRate: share(tools.filter((t) => t.agrees).length, tools.length),
  };
}

/** One line per disagreement: the record, what the rules raised and what the labeller said. */
export function disagreements(agreement: QualityAgreement): string[] {
  return [
    ...agreement.servers.filter((s) => !s.agrees).map((s) => `${s.labelled.key}: raised [${s.raised.join(', ')}], labelled [${s.labelled.flags.join(', ')}] (${s.labelled.labelFrom})`),
    ...agreement.tools.filter((t) => !t.agrees).map((t) => `${t.labelled.key} tool ${t.labelled.tool}: raised [${t.raised.join(', ')}], labelled [${t.labelled.flags.join(', ')}]`),
  ];
}

function share(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}
