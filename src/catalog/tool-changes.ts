/**
 * A server's tool changes from the periods its history keeps (src/store/tool-history.ts): a tool
 * first seen after the server's first tools is `added`; a period that follows another of the same
 * tool without a gap is `changed` (with the fields that differ and a diff, by microdiff); a period
 * that ended with no other following at once is `removed`, and one that begins after such a gap is
 * `added` again.
 */
import diff from 'microdiff';
import type { ToolChange, ToolDefinitionRecord } from '../types.js';

type DiffEntry = ToolChange['diff'][number];
type Field = ToolChange['fields'][number];

const FIELDS: readonly Field[] = ['title', 'description', 'inputSchema', 'annotations'];
const OPS = { CREATE: 'add', REMOVE: 'remove', CHANGE: 'replace' } as const;

/** The changes, oldest first, of the definitions of one server's tools. */
export function toolChangesOf(records: readonly ToolDefinitionRecord[]): ToolChange[] {
  if (records.length === 0) return [];
  const firstSeen = records.reduce((min, r) => (r.firstSeenAt < min ? r.firstSeenAt : min), records[0]?.firstSeenAt ?? '');
  const holdsAny = records.some((r) => r.current);
  const changes: ToolChange[] = [];
  const added = (r: ToolDefinitionRecord): ToolChange => ({ tool: r.tool, kind: 'added', at: r.firstSeenAt, fields: [], before: null, after: r, diff: [] });
  const removed = (r: ToolDefinitionRecord, at: string): ToolChange => ({ tool: r.tool, kind: 'removed', at, fields: [], before: r, after: null, diff: [] });
  for (const periods of byTool(records).values()) {
    const [first] = periods;
    if (first === undefined) continue;
    if (first.firstSeenAt > firstSeen) changes.push(added(first));
    for (let i = 1; i < periods.length; i += 1) {
      const before = periods[i - 1];
      const after = periods[i];
      if (!before || !after) continue;
      const ended = endOf(records, before);
      if (ended < after.firstSeenAt) changes.push(removed(before, ended), added(after));
      else changes.push(changed(before, after));
    }
    const last = periods.at(-1);
    if (holdsAny && last && !last.current) changes.push(removed(last, endOf(records, last)));
  }
  return changes.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
}

function changed(before: ToolDefinitionRecord, after: ToolDefinitionRecord): ToolChange {
  const entries: DiffEntry[] = diff(before.definition, after.definition).map((d) => ({
    path: `/${d.path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
    op: OPS[d.type],
    ...(d.type === 'CREATE' ? {} : { before: d.oldValue }),
    ...(d.type === 'REMOVE' ? {} : { after: d.value }),
  }));
  const fields = FIELDS.filter((field) => entries.some((e) => e.path === `/${field}` || e.path.startsWith(`/${field}/`)));
  return { tool: after.tool, kind: 'changed', at: after.firstSeenAt, fields, before, after, diff: entries };
}

/**
 * The write that ended a period: as recorded, or for a period that ended before that was kept,
 * the next time any definition was last seen.
 */
function endOf(records: readonly ToolDefinitionRecord[], period: ToolDefinitionRecord): string {
  if (period.retiredAt !== null) return period.retiredAt;
  const later = records.map((r) => r.lastSeenAt).filter((at) => at > period.lastSeenAt).sort();
  return later[0] ?? period.lastSeenAt;
}

function byTool(records: readonly ToolDefinitionRecord[]): Map<string, ToolDefinitionRecord[]> {
  const out = new Map<string, ToolDefinitionRecord[]>();
  for (const record of [...records].sort((a, b) => (a.firstSeenAt < b.firstSeenAt ? -1 : a.firstSeenAt > b.firstSeenAt ? 1 : 0))) {
    const list = out.get(record.tool);
    if (list) list.push(record);
    else out.set(record.tool, [record]);
  }
  return out;
}
