/**
 * The caps a catalogued endpoint's answers are held to, stated once for the monitor and the
 * proxy alike: a hostile endpoint cannot make its record, its status or a page grow without
 * bound. What goes beyond a cap is cut, and the cut is named in a note (`Cut` in the contract).
 */
import type { components } from '../../generated/openapi.js';
import { isObject } from '../json.js';

export type Cut = components['schemas']['Cut'];
export type CapName = Cut['cap'];

/** Every cap, with its limit in the unit it counts. */
export const REMOTE_CAPS: Readonly<Record<CapName, number>> = {
  /** Tools kept per endpoint (the first ones listed). */
  tools: 500,
  /** Levels of JSON nesting kept in a value an endpoint sends (schemas, results, server info), and allowed in arguments sent to it. */
  depth: 32,
  /** Bytes of one tool's input schema (JSON, once cut to the depth cap). */
  schema_size: 64 * 1024,
  /** Characters of an error text kept. */
  error_text: 1024,
  /** Bytes of one answer read; beyond it the answer is not read at all. */
  response_size: 1024 * 1024,
};

/** The text a cut value carries in place of what was dropped. */
const CUT_PREFIX = 'Cut by Sextant: ';

/** Collects the cuts made while reading one endpoint's answers; one note per cap. */
export class Cuts {
  private readonly seen = new Map<CapName, { count: number; found: number }>();

  /** Records a cut of `cap`: `found` is the size met (tools listed, characters of an error), when it is one figure. */
  add(cap: CapName, found = 0): void {
    const entry = this.seen.get(cap) ?? { count: 0, found: 0 };
    this.seen.set(cap, { count: entry.count + 1, found: Math.max(entry.found, found) });
  }

  list(): Cut[] {
    return [...this.seen].map(([cap, { count, found }]) => ({ cap, limit: REMOTE_CAPS[cap], note: noteOf(cap, count, found) }));
  }
}

function noteOf(cap: CapName, count: number, found: number): string {
  const limit = REMOTE_CAPS[cap];
  const values = count === 1 ? 'one value' : `${count} values`;
  switch (cap) {
    case 'tools':
      return `The endpoint listed ${found} tools; only the first ${limit} are kept.`;
    case 'depth':
      return `${values} nested deeper than ${limit} levels; cut at that depth.`;
    case 'schema_size':
      return `${count === 1 ? 'One input schema' : `${count} input schemas`} larger than ${limit / 1024} KiB; replaced by a note.`;
    case 'error_text':
      return `The error text had ${found} characters; only the first ${limit} are kept.`;
    case 'response_size':
      return `The answer was larger than ${limit / (1024 * 1024)} MiB; it was not read.`;
  }
}

/** `value` with every array or object nested deeper than the depth cap replaced by a note. */
export function capDepth(value: unknown, cuts: Cuts): unknown {
  const state = { cut: false };
  const capped = cutBelow(value, REMOTE_CAPS.depth, state);
  if (state.cut) cuts.add('depth');
  return capped;
}

/** Recursion is bounded by `room`, so a value nested any deeper cannot exhaust the stack. */
function cutBelow(value: unknown, room: number, state: { cut: boolean }): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (room === 0) {
    state.cut = true;
    return { $comment: `${CUT_PREFIX}nested deeper than ${REMOTE_CAPS.depth} levels.` };
  }
  if (Array.isArray(value)) return value.map((item) => cutBelow(item, room - 1, state));
  // fromEntries defines own properties: a "__proto__" key stays a key.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutBelow(item, room - 1, state)]));
}

/** Whether a value nests deeper than the depth cap; walks at most that deep. */
export function tooDeep(value: unknown): boolean {
  const state = { cut: false };
  const probe = (item: unknown, room: number): void => {
    if (state.cut || item === null || typeof item !== 'object') return;
    if (room === 0) {
      state.cut = true;
      return;
    }
    for (const child of Object.values(item)) probe(child, room - 1);
  };
  probe(value, REMOTE_CAPS.depth);
  return state.cut;
}

/** A tool's input schema within the depth and size caps; a schema too large becomes an object schema that says so. */
export function capSchema(schema: unknown, cuts: Cuts): unknown {
  const capped = capDepth(schema, cuts);
  if (Buffer.byteLength(JSON.stringify(capped) ?? '') <= REMOTE_CAPS.schema_size) return capped;
  cuts.add('schema_size');
  return { type: 'object', properties: {}, $comment: `${CUT_PREFIX}the schema is larger than ${REMOTE_CAPS.schema_size / 1024} KiB.` };
}

/** A tool entry as an endpoint lists it, every field within the caps (the input schema within the schema caps too). */
export function capTool(entry: Readonly<Record<string, unknown>>, cuts: Cuts): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, key === 'inputSchema' ? capSchema(value, cuts) : capDepth(value, cuts)]));
}

/** The first `tools` cap of the entries listed. */
export function capTools<T>(tools: readonly T[], cuts: Cuts): T[] {
  if (tools.length > REMOTE_CAPS.tools) cuts.add('tools', tools.length);
  return tools.slice(0, REMOTE_CAPS.tools);
}

/** An error text within the cap, ending with a mark where it was cut. */
export function capErrorText(text: string, cuts?: Cuts): string {
  if (text.length <= REMOTE_CAPS.error_text) return text;
  cuts?.add('error_text', text.length);
  // Room for the mark, and never a cut inside a surrogate pair.
  const end = REMOTE_CAPS.error_text - 1;
  const high = text.charCodeAt(end - 1);
  return `${text.slice(0, high >= 0xd800 && high <= 0xdbff ? end - 1 : end)}…`;
}

/** The note a cut schema carries, or null when the schema was not cut. */
export function cutNoteOf(schema: unknown): string | null {
  const comment = isObject(schema) ? schema.$comment : undefined;
  return typeof comment === 'string' && comment.startsWith(CUT_PREFIX) ? comment : null;
}
