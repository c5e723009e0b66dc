/** The scan's rules are stated once: the contract's ToolRuleId and docs/trust/tool-rules.md list the same ids, severities and summaries. */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parse } from 'yaml';
import { TOOL_RULE_IDS, TOOL_RULES } from '../../src/catalog/tool-rules.js';

describe('tool rules stated once', () => {
  it('the contract enumerates exactly the rules, in their order', () => {
    const contract = parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
    expect(contract.components.schemas.ToolRuleId.enum).to.deep.equal([...TOOL_RULE_IDS]);
  });

  it('the documentation lists each rule with its severity and summary, in order', () => {
    const doc = readFileSync(new URL('../../docs/trust/tool-rules.md', import.meta.url), 'utf8');
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (low|medium|high) \| (.+) \|$/gm)].map((m) => [m[1], m[2], m[3]]);
    expect(rows).to.deep.equal(TOOL_RULES.map((r) => [r.id, r.severity, r.summary]));
  });
});
