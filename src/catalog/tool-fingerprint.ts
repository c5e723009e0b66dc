/**
 * Tool fingerprints (the contract's `ToolDefinition`): the SHA-256 of a definition's canonical
 * JSON, so the same definition has the same fingerprint whatever order its source wrote its keys
 * in, and an allow-list can pin it. For JSON values, `safe-stable-stringify` with sorted keys
 * writes RFC 8785's form (keys in UTF-16 order, ECMAScript numbers and string escapes), and it
 * writes a lone surrogate as JSON.stringify does instead of throwing.
 */
import { createHash } from 'node:crypto';
import { configure } from 'safe-stable-stringify';
import type { Tool, ToolDefinition } from '../types.js';

/** What a model reads of a tool, and nothing the catalog adds (ids, server, findings). */
export function definitionOf(tool: Pick<Tool, 'name' | 'title' | 'description' | 'inputSchema' | 'annotations'>): ToolDefinition {
  return { name: tool.name, title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations };
}

const canonicalize = configure({ deterministic: true, bigint: false, circularValue: TypeError, strict: true });

/** The SHA-256 (lower-case hex) of a value's RFC 8785 canonical JSON. */
export function fingerprintOf(value: unknown): string {
  const canonical = canonicalize(value);
  if (canonical === undefined) throw new TypeError('a fingerprint needs a JSON value');
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * The fingerprint of a server's tool set: of the list of its tools' names and fingerprints, in
 * name order (each tool's fingerprint already covers its whole definition); null when it lists
 * none (unknown).
 */
export function toolSetFingerprint(tools: readonly { readonly name: string; readonly fingerprint: string }[]): string | null {
  if (tools.length === 0) return null;
  const sorted = [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return fingerprintOf(sorted.map(({ name, fingerprint }) => ({ name, fingerprint })));
}
