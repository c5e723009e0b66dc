/**
 * A server's tool changes from the definitions its history keeps: a tool first seen after the
 * server's first tools is `added`; each later definition of a tool is `changed` (with the fields
 * that differ and a diff, by microdiff); a tool the record no longer holds, while it holds
 * others, is `removed`.
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
  for (const versions of byTool(records).values()) {
    const [first] = versions;
    if (first === undefined) continue;
    if (first.firstSeenAt > firstSeen) changes.push({ tool: first.tool, kind: 'added', at: first.firstSeenAt, fields: [], before: null, after: first, diff: [] });
    for (let i = 1; i < versions.length; i += 1) {
      const before = versions[i - 1];
      const after = versions[i];
      if (before && after) changes.push(changed(before, after));
    }
    const last = versions.at(-1);
    if (holdsAny && last && !versions.some((v) => v.current)) {
      changes.push({ tool: last.tool, kind: 'removed', at: removedAt(records, last.lastSeenAt), fields: [], before: last, after: null, diff: [] });
    }
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

/** A removal happened at the first write after the tool was last seen: the next time any definition was last seen. */
function removedAt(records: readonly ToolDefinitionRecord[], lastSeen: string): string {
  const later = records.map((r) => r.lastSeenAt).filter((at) => at > lastSeen).sort();
  return later[0] ?? lastSeen;
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
