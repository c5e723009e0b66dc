/**
 * Scans one server's tool definitions (MCP spec 2025-06-18, "Tools": name, title, description,
 * inputSchema, annotations) by the rules of src/catalog/tool-rules.ts: every text the AI model
 * reads, each named by where it sits (`description`, `inputSchema.properties.path.description`,
 * `inputSchema.properties.mode.enum[2]`), each finding with a short excerpt that is safe to show
 * as text. Pure and synchronous: it runs at ingest, over every tool.
 */
import { RuleText } from './rule-text.js';
import { TOOL_RULES, nameWords, toolKey, type ToolRule, type ToolRuleContext, type ToolRuleId, type ToolSeverity, type ToolTextKind } from './tool-rules.js';
import type { ToolFinding } from '../types.js';

/** A tool definition as the catalog holds it. */
export interface ScannedTool {
  readonly name: string;
  readonly title: string | null;
  readonly description: string;
  /** Null when its source lists no arguments: there is no schema text to read. */
  readonly inputSchema: Readonly<Record<string, unknown>> | null;
  readonly annotations: Readonly<Record<string, unknown>>;
}

/** One rule matched in one field of one tool: the contract's ToolFinding. */
export type { ToolFinding };

/** Findings kept per tool: enough to judge it, bounded whatever it holds. */
export const FINDINGS_PER_TOOL = 20;
/** Levels of nested schemas read, and schema texts read per tool. */
const SCHEMA_DEPTH = 6;
const SCHEMA_TEXTS = 400;
const EXCERPT_CHARS = 120;
const EXCERPT_LEAD = 40;
const RULES: readonly ToolRule<ToolRuleId>[] = TOOL_RULES;
const readersOf = (kind: ToolTextKind): readonly ToolRule<ToolRuleId>[] => RULES.filter((rule) => rule.reads.includes(kind));
/** The rules that read each kind of text, in rule order. */
const RULES_FOR: Readonly<Record<ToolTextKind, readonly ToolRule<ToolRuleId>[]>> = { name: readersOf('name'), title: readersOf('title'), description: readersOf('description'), schema: readersOf('schema') };

interface FieldText {
  readonly field: string;
  readonly text: string;
  readonly kind: ToolTextKind;
}

/** Every finding of one server's tools, in tool order, then field order, then offset. */
export function scanTools(tools: readonly ScannedTool[]): ToolFinding[] {
  const server: ServerNames = { tools };
  const otherMedians = mediansWithoutEach(tools.map((tool) => tool.description.length));
  return tools.flatMap((tool, i) => scanTool(tool, new ToolContext(server, otherMedians[i] ?? null)));
}

interface ServerNames {
  readonly tools: readonly ScannedTool[];
  keys?: readonly string[];
  words?: ReadonlySet<string>;
}

/** What the rules know beyond a tool's text. Few texts name a tool or an action, so the server's names are read only when one does. */
class ToolContext implements ToolRuleContext {
  constructor(
    private readonly server: ServerNames,
    readonly peerDescriptionLength: number | null,
  ) {}

  get toolNames(): readonly string[] {
    return (this.server.keys ??= this.server.tools.map((tool) => toolKey(tool.name)));
  }

  get toolWords(): ReadonlySet<string> {
    return (this.server.words ??= new Set(this.server.tools.flatMap((tool) => nameWords(tool.name))));
  }
}

interface Match {
  readonly rule: ToolRule<ToolRuleId>;
  readonly field: FieldText;
  readonly offset: number;
}

function scanTool(tool: ScannedTool, context: ToolRuleContext): ToolFinding[] {
  const matches: Match[] = [];
  for (const field of fieldsOf(tool)) {
    const inField: Match[] = [];
    const text = new RuleText(field.text);
    for (const rule of RULES_FOR[field.kind]) {
      const match = rule.find(text, context);
      if (match) inField.push({ rule, field, offset: match.offset });
    }
    if (inField.length > 0) matches.push(...inField.sort((a, b) => a.offset - b.offset));
  }
  return mostSevere(matches).map(({ rule, field, offset }) => ({ rule: rule.id, severity: rule.severity, tool: tool.name, field: field.field, excerpt: excerptOf(field.text, offset), offset }));
}

const RANK: Readonly<Record<ToolSeverity, number>> = { high: 0, medium: 1, low: 2 };

/** At most FINDINGS_PER_TOOL matches, the most severe first chosen (so low ones cannot crowd out a high one), in their order. */
function mostSevere(matches: readonly Match[]): readonly Match[] {
  if (matches.length <= FINDINGS_PER_TOOL) return matches;
  const order = matches.map((match, i) => ({ rank: RANK[match.rule.severity], i }));
  const kept = new Set(order.sort((a, b) => a.rank - b.rank || a.i - b.i).slice(0, FINDINGS_PER_TOOL).map(({ i }) => i));
  return matches.filter((_, i) => kept.has(i));
}

/** The texts of a tool in field order: name, title, description, input schema, annotations. */
function fieldsOf(tool: ScannedTool): FieldText[] {
  const fields: FieldText[] = [{ field: 'name', text: tool.name, kind: 'name' }];
  if (tool.title) fields.push({ field: 'title', text: tool.title, kind: 'title' });
  fields.push({ field: 'description', text: tool.description, kind: 'description' });
  new SchemaTexts(fields).read(tool.inputSchema, 'inputSchema', 0);
  const title = tool.annotations.title;
  if (typeof title === 'string' && title !== '') fields.push({ field: 'annotations.title', text: title, kind: 'title' });
  return fields;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Adds the first SCHEMA_TEXTS texts of a schema to `texts`; a path is built only for a text that is there. */
class SchemaTexts {
  #left = SCHEMA_TEXTS;
  constructor(private readonly texts: FieldText[]) {}

  /** A schema's own texts, then its properties' names and schemas, its items and its alternatives, depth first. */
  read(node: unknown, path: string, depth: number): void {
    if (!isRecord(node) || depth > SCHEMA_DEPTH || this.full()) return;
    if (typeof node.title === 'string') this.add(`${path}.title`, node.title, 'title');
    if (typeof node.description === 'string') this.add(`${path}.description`, node.description, 'schema');
    this.values(node.default, path, 'default');
    this.values(node.const, path, 'const');
    this.values(node.enum, path, 'enum');
    this.values(node.examples, path, 'examples');
    if (isRecord(node.properties)) {
      for (const [name, property] of Object.entries(node.properties)) {
        this.add(`${path}.properties.${name}`, name, 'name');
        this.read(property, `${path}.properties.${name}`, depth + 1);
      }
    }
    if (Array.isArray(node.items)) for (const [i, item] of node.items.entries()) this.read(item, `${path}.items[${i}]`, depth + 1);
    else if (isRecord(node.items)) this.read(node.items, `${path}.items`, depth + 1);
    this.branches(node.anyOf, path, 'anyOf', depth);
    this.branches(node.oneOf, path, 'oneOf', depth);
    this.branches(node.allOf, path, 'allOf', depth);
    if (isRecord(node.additionalProperties)) this.read(node.additionalProperties, `${path}.additionalProperties`, depth + 1);
  }

  /** The strings of a value (`default`, an `enum`'s members): a string itself, or each string of a list. */
  private values(value: unknown, path: string, key: string): void {
    if (typeof value === 'string') this.add(`${path}.${key}`, value, 'schema');
    else if (Array.isArray(value)) for (const [i, item] of value.entries()) if (typeof item === 'string') this.add(`${path}.${key}[${i}]`, item, 'schema');
  }

  /** The alternatives of a schema (`anyOf`, `oneOf`, `allOf`). */
  private branches(value: unknown, path: string, key: string, depth: number): void {
    if (Array.isArray(value)) for (const [i, branch] of value.entries()) this.read(branch, `${path}.${key}[${i}]`, depth + 1);
  }

  private add(field: string, text: string, kind: ToolTextKind): void {
    if (this.full()) return;
    this.texts.push({ field, text, kind });
    this.#left -= 1;
  }

  private full(): boolean {
    return this.#left <= 0;
  }
}

/** For each value, the (lower) median of the others; null where there are fewer than two others. */
function mediansWithoutEach(values: readonly number[]): Array<number | null> {
  if (values.length < 3) return values.map(() => null);
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor((values.length - 2) / 2);
  return values.map((value) => {
    const removed = sorted.indexOf(value);
    return (middle < removed ? sorted[middle] : sorted[middle + 1]) ?? null;
  });
}

/** Characters shown written out: controls, format characters (zero-width, bidi, tags), fillers and variation selectors. */
const INVISIBLE = /^[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2800\u3164\uFE00-\uFE0F\uFFA0\u{E0100}-\u{E01EF}]$/u;

function shown(ch: string): string {
  if (ch === '\n' || ch === '\r' || ch === '\t') return ' ';
  if (ch >= ' ' && ch <= '~') return ch; // printable ASCII, most of any excerpt, is never invisible
  return INVISIBLE.test(ch) ? `\\u{${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase()}}` : ch;
}

/** Up to EXCERPT_CHARS shown characters around `offset`, EXCERPT_LEAD of them before it, whole code points only. */
export function excerptOf(text: string, offset: number): string {
  let before = '';
  let start = offset;
  while (start > 0 && before.length < EXCERPT_LEAD) {
    const low = text.charCodeAt(start - 1);
    const high = start >= 2 ? text.charCodeAt(start - 2) : 0;
    const step = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : 1;
    before = shown(text.slice(start - step, start)) + before;
    start -= step;
  }
  let after = '';
  let end = offset;
  while (end < text.length && before.length + after.length < EXCERPT_CHARS) {
    const ch = String.fromCodePoint(text.codePointAt(end) ?? 0);
    after += shown(ch);
    end += ch.length;
  }
  return `${start > 0 ? '…' : ''}${before}${after}${end < text.length ? '…' : ''}`.replace(/ {2,}/g, ' ');
}
