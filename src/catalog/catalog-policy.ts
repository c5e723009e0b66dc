/**
 * Curation (DESIGN.md "An organisation's own registry"): a policy file (`CATALOG_POLICY`) says
 * which servers the catalog admits, by name pattern and by conditions on what the catalog knows
 * of a server. The rules are stated once, in POLICY_RULES, and decided in that order. Ingest
 * applies the decision where it writes the catalog (src/ingest/curation.ts), so every surface
 * serves only admitted servers without a check of its own.
 */
import { parseDocument } from 'yaml';

/** The conditions `require` may name. */
export const POLICY_CONDITIONS = ['no-trust-findings', 'not-flagged'] as const;
export type PolicyCondition = (typeof POLICY_CONDITIONS)[number];

/** One name pattern: `ns/*` (every name in namespace `ns`) or an exact name. */
export interface NamePattern {
  readonly text: string;
  /** The namespace of `ns/*`; null for an exact name. */
  readonly namespace: string | null;
}

export interface CatalogPolicy {
  /** Null when the file has no `allow`: every name may be admitted. */
  readonly allow: readonly NamePattern[] | null;
  readonly deny: readonly NamePattern[];
  readonly require: readonly PolicyCondition[];
}

/** What the policy reads of a server. */
export interface PolicySubject {
  /** Its registry name (`/v0.1`) first, its catalog name, its id and its records' names: a pattern matching any of them matches it. */
  readonly names: readonly string[];
  /** Tool-definition findings of medium or high severity; null when no source lists its tools. */
  readonly toolFindings: number | null;
  /** Whether it carries a quality flag (src/catalog/quality.ts). */
  readonly flagged: boolean;
}

/** Whether a server is admitted, and the rule (and pattern) that decided it, for people to read. */
export interface PolicyVerdict {
  readonly admitted: boolean;
  readonly rule: string;
  readonly because: string;
}

/** One rule as people read it (the decision itself is `decide`, in the same order). */
export interface PolicyRule {
  readonly name: string;
  readonly rule: string;
}

export const POLICY_RULES: readonly PolicyRule[] = [
  { name: 'names', rule: 'a server is matched by its registry name (/v0.1: its official name, or local.sextant/<id>), its catalog name, its id and the name each of its source records gives it (mcp/github-official for Docker’s record of GitHub’s server); a pattern matching any of them matches the server' },
  { name: 'namespace pattern', rule: '`ns/*` matches a name whose part before its first `/` is exactly `ns` and which has something after it' },
  { name: 'exact pattern', rule: 'any other pattern matches only the same name; matching is case-sensitive and byte for byte (no Unicode folding)' },
  { name: 'deny', rule: 'a server a `deny` pattern matches is not admitted, whatever `allow` says' },
  { name: 'allow', rule: 'when the file has `allow`, a server no `allow` pattern matches is not admitted' },
  { name: 'no-trust-findings', rule: 'when required, a server whose tools have a finding of medium or high severity is not admitted; one whose tools no source lists has none' },
  { name: 'not-flagged', rule: 'when required, a server with a quality flag (test, template, placeholder, duplicate) is not admitted' },
  { name: 'admitted', rule: 'a server no rule above refuses is admitted and served on every surface' },
];

/** A policy file that cannot be used; the message names the problem. */
export class PolicyError extends Error {
  override name = 'PolicyError';
}

const KEYS = ['allow', 'deny', 'require'] as const;

/** Parses a policy file's text; throws PolicyError naming every problem found. */
export function parsePolicy(text: string): CatalogPolicy {
  const document = parseDocument(text, { uniqueKeys: true });
  const syntax = document.errors[0];
  if (syntax) throw new PolicyError(`not valid YAML: ${syntax.message.split('\n')[0] ?? ''}`);
  const root: unknown = document.toJS();
  if (root === null || root === undefined) throw new PolicyError('the file is empty: give allow, deny or require');
  if (typeof root !== 'object' || Array.isArray(root)) throw new PolicyError('the file must be a mapping with allow, deny or require');
  const problems: string[] = [];
  for (const key of Object.keys(root)) {
    if (!KEYS.some((known) => known === key)) problems.push(`unknown key "${key}" (known: ${KEYS.join(', ')})`);
  }
  const allowList = listOf(root, 'allow', problems);
  const allow = allowList === null ? null : allowList.map((item, i) => patternOf(item, `allow[${i}]`, problems));
  const deny = (listOf(root, 'deny', problems) ?? []).map((item, i) => patternOf(item, `deny[${i}]`, problems));
  const require = (listOf(root, 'require', problems) ?? []).flatMap((item, i) => {
    const condition = POLICY_CONDITIONS.find((known) => known === item);
    if (condition === undefined) problems.push(`require[${i}]: unknown condition ${JSON.stringify(item)} (known: ${POLICY_CONDITIONS.join(', ')})`);
    return condition === undefined ? [] : [condition];
  });
  if (problems.length > 0) throw new PolicyError(problems.join('; '));
  return { allow: allow?.filter((p): p is NamePattern => p !== null) ?? null, deny: deny.filter((p): p is NamePattern => p !== null), require };
}

/** `root[key]` as a list; null when absent. */
function listOf(root: object, key: (typeof KEYS)[number], problems: string[]): unknown[] | null {
  const value: unknown = Reflect.get(root, key);
  if (value === undefined) return null;
  if (!Array.isArray(value)) {
    problems.push(`${key} must be a list`);
    return null;
  }
  return value;
}

/** A list item as a pattern, or null with a problem noted. */
function patternOf(item: unknown, where: string, problems: string[]): NamePattern | null {
  if (typeof item !== 'string' || item === '') {
    problems.push(`${where}: a pattern must be a non-empty name, got ${JSON.stringify(item)}`);
    return null;
  }
  if (/\s/.test(item)) {
    problems.push(`${where}: "${item}" has white space, which no name has`);
    return null;
  }
  const namespace = item.endsWith('/*') ? item.slice(0, -2) : null;
  if ((namespace ?? item).includes('*') || namespace === '' || namespace?.includes('/')) {
    problems.push(`${where}: "${item}" is neither a name nor ns/* (the only wildcard is a whole name after its namespace)`);
    return null;
  }
  return { text: item, namespace };
}

/** Whether `pattern` matches `name` (the 'namespace pattern' and 'exact pattern' rules). */
export function matches(pattern: NamePattern, name: string): boolean {
  if (pattern.namespace === null) return name === pattern.text;
  return name.length > pattern.namespace.length + 1 && name.startsWith(`${pattern.namespace}/`);
}

/** The first of `patterns` that matches one of the subject's names, with its index. */
function firstMatch(patterns: readonly NamePattern[], subject: PolicySubject): { index: number; pattern: NamePattern } | null {
  for (const [index, pattern] of patterns.entries()) {
    if (subject.names.some((name) => matches(pattern, name))) return { index, pattern };
  }
  return null;
}

/** The verdict on one server, by POLICY_RULES in order. */
export function decide(policy: CatalogPolicy, subject: PolicySubject): PolicyVerdict {
  const denied = firstMatch(policy.deny, subject);
  if (denied) return { admitted: false, rule: 'deny', because: `denied by deny[${denied.index}] ${denied.pattern.text}` };
  let allowed: string | null = null;
  if (policy.allow !== null) {
    const match = firstMatch(policy.allow, subject);
    if (match === null) return { admitted: false, rule: 'allow', because: 'matched by no allow pattern' };
    allowed = `allowed by allow[${match.index}] ${match.pattern.text}`;
  }
  if (policy.require.includes('no-trust-findings') && (subject.toolFindings ?? 0) > 0) {
    return { admitted: false, rule: 'no-trust-findings', because: `required no-trust-findings: its tools have ${subject.toolFindings} findings` };
  }
  if (policy.require.includes('not-flagged') && subject.flagged) return { admitted: false, rule: 'not-flagged', because: 'required not-flagged: it has a quality flag' };
  return { admitted: true, rule: 'admitted', because: allowed ?? 'admitted: no rule refuses it' };
}

/**
 * Whether `next` may admit a server `previous` did not (no policy admits every server), read off
 * the two files: a pattern or condition dropped from deny or require, or added to allow. It errs
 * towards yes (a pattern covered by another still counts), which costs only a full sync.
 */
export function widens(previous: CatalogPolicy | null, next: CatalogPolicy | null): boolean {
  if (previous === null) return false;
  if (next === null) return true;
  const texts = (patterns: readonly NamePattern[]): Set<string> => new Set(patterns.map((p) => p.text));
  const allowWider = previous.allow !== null && (next.allow === null || [...texts(next.allow)].some((t) => !texts(previous.allow ?? []).has(t)));
  const denyDropped = [...texts(previous.deny)].some((t) => !texts(next.deny).has(t));
  const requireDropped = previous.require.some((c) => !next.require.includes(c));
  return allowWider || denyDropped || requireDropped;
}
