/**
 * What the catalog derives from one server's tool definitions, the same at ingest (materialize)
 * and at a rescan of the stored rows: each tool's fingerprint and findings, the tool set's
 * fingerprint, and the count of serious findings (null while no tools are listed: unknown).
 */
import type { ToolDefinition, ToolFinding } from '../types.js';
import { fingerprintOf, toolSetFingerprint } from './tool-fingerprint.js';
import { scanTools } from './tool-scan.js';

export interface ExaminedTools {
  /** Per tool, in the order given. */
  readonly tools: ReadonlyArray<{ readonly fingerprint: string; readonly findings: ToolFinding[] }>;
  readonly toolsFingerprint: string | null;
  readonly toolFindings: number | null;
}

export function examineTools(definitions: readonly ToolDefinition[]): ExaminedTools {
  const findings = scanTools(definitions);
  const tools = definitions.map((definition) => ({
    fingerprint: fingerprintOf(definition),
    findings: findings.length === 0 ? [] : findings.filter((f) => f.tool === definition.name),
  }));
  return {
    tools,
    toolsFingerprint: toolSetFingerprint(definitions.map((d, i) => ({ name: d.name, fingerprint: tools[i]?.fingerprint ?? '' }))),
    toolFindings: definitions.length === 0 ? null : findings.filter((f) => f.severity !== 'low').length,
  };
}
