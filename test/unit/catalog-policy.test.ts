import { expect } from 'chai';
import { decide, parsePolicy, POLICY_CONDITIONS, POLICY_RULES, PolicyError, widens, type CatalogPolicy, type PolicySubject } from '../../src/catalog/catalog-policy.js';

const subject = (names: string[], overrides: Partial<PolicySubject> = {}): PolicySubject => ({ names, toolFindings: null, flagged: false, ...overrides });
const admits = (policy: CatalogPolicy, s: PolicySubject): boolean => decide(policy, s).admitted;
const rule = (name: string): string => POLICY_RULES.find((r) => r.name === name)?.rule ?? '';

describe('catalog policy (POLICY_RULES, rule by rule)', () => {
  it('states every rule once, each saying what it does', () => {
    expect(POLICY_RULES.map((r) => r.name)).to.deep.equal(['names', 'namespace pattern', 'exact pattern', 'deny', 'allow', ...POLICY_CONDITIONS, 'admitted']);
    for (const r of POLICY_RULES) expect(r.rule, r.name).to.have.length.greaterThan(30);
  });

  it(`names: ${rule('names')}`, () => {
    const policy = parsePolicy('allow: [io.github.acme/weather, mcp/github-official, local.sextant/notion, sqlite]');
    expect(admits(policy, subject(['io.github.acme/weather', 'io.github.acme/weather', 'io.github.acme~weather']))).to.equal(true);
    // A Docker-only server: its registry name is local, its catalog name Docker's, its id a slug.
    expect(admits(policy, subject(['local.sextant/mcp--github-official', 'mcp/github-official', 'mcp~github-official']))).to.equal(true);
    expect(admits(policy, subject(['local.sextant/notion', 'Notion', 'notion']))).to.equal(true);
    expect(admits(policy, subject(['local.sextant/sqlite', 'SQLite', 'sqlite']))).to.equal(true);
    // Docker's record of a server an official record names: its record's name matches too.
    expect(admits(policy, subject(['io.github.github/github-mcp-server', 'io.github.github/github-mcp-server', 'io.github.github~github-mcp-server', 'mcp/github-official']))).to.equal(true);
    expect(admits(policy, subject(['io.github.other/weather', 'io.github.other/weather', 'io.github.other~weather']))).to.equal(false);
  });

  it(`namespace pattern: ${rule('namespace pattern')}`, () => {
    const policy = parsePolicy('allow: [io.github.github/*]');
    expect(admits(policy, subject(['io.github.github/github-mcp-server']))).to.equal(true);
    expect(admits(policy, subject(['io.github.github/a/b']))).to.equal(true);
    // Not a prefix of the namespace, nor a longer namespace, nor the bare namespace.
    expect(admits(policy, subject(['io.github.githubx/a']))).to.equal(false);
    expect(admits(policy, subject(['io.github.github.evil/a']))).to.equal(false);
    expect(admits(policy, subject(['io.github/github']))).to.equal(false);
    expect(admits(policy, subject(['io.github.github/']))).to.equal(false);
    expect(admits(policy, subject(['io.github.github']))).to.equal(false);
    expect(admits(policy, subject(['x/io.github.github/a']))).to.equal(false);
  });

  it(`exact pattern: ${rule('exact pattern')}`, () => {
    const policy = parsePolicy('allow: [io.github.someone/exact-name]');
    expect(admits(policy, subject(['io.github.someone/exact-name']))).to.equal(true);
    for (const near of ['io.github.someone/exact-name-2', 'io.github.someone/exact', 'IO.GITHUB.SOMEONE/exact-name', 'io.github.someone/Exact-Name', 'io.github.someone/exact-name ', 'io.github.someone/exact-name.']) {
      expect(admits(policy, subject([near])), near).to.equal(false);
    }
    // Composed and decomposed é, and a Cyrillic о for a Latin o, are different names.
    const composed = parsePolicy('allow: ["io.acme/caf\u00e9"]');
    expect(admits(composed, subject(['io.acme/caf\u00e9']))).to.equal(true);
    expect(admits(composed, subject(['io.acme/cafe\u0301']))).to.equal(false);
    expect(admits(parsePolicy('allow: [com.acme/*]'), subject(['c\u043em.acme/tool']))).to.equal(false);
    expect(admits(parsePolicy('allow: [com.acme/*]'), subject(['COM.ACME/tool']))).to.equal(false);
  });

  it(`deny: ${rule('deny')}`, () => {
    const policy = parsePolicy('allow: [io.github.evil/*, com.acme/*]\ndeny: [com.acme/old, io.github.evil/*]');
    expect(decide(policy, subject(['io.github.evil/tool']))).to.deep.equal({ admitted: false, rule: 'deny', because: 'denied by deny[1] io.github.evil/*' });
    expect(decide(policy, subject(['com.acme/old']))).to.deep.include({ admitted: false, rule: 'deny', because: 'denied by deny[0] com.acme/old' });
    expect(admits(policy, subject(['com.acme/new']))).to.equal(true);
    // Any of a server's names denies it, even when another is allowed.
    expect(admits(parsePolicy('deny: [mcp/evil]'), subject(['local.sextant/mcp--evil', 'mcp/evil', 'mcp~evil']))).to.equal(false);
    // Without allow, deny alone refuses only what it matches.
    expect(admits(parsePolicy('deny: [io.github.evil/*]'), subject(['io.github.good/tool']))).to.equal(true);
  });

  it(`allow: ${rule('allow')}`, () => {
    const policy = parsePolicy('allow: [com.acme/*, io.github.github/*]');
    expect(decide(policy, subject(['io.github.github/x']))).to.deep.equal({ admitted: true, rule: 'admitted', because: 'allowed by allow[1] io.github.github/*' });
    expect(decide(policy, subject(['io.other/x']))).to.deep.equal({ admitted: false, rule: 'allow', because: 'matched by no allow pattern' });
    // A present but empty allow list admits nothing; an absent one leaves names free.
    expect(admits(parsePolicy('allow: []'), subject(['com.acme/x']))).to.equal(false);
    expect(admits(parsePolicy('require: [not-flagged]'), subject(['any/name']))).to.equal(true);
  });

  it(`no-trust-findings: ${rule('no-trust-findings')}`, () => {
    const policy = parsePolicy('require: [no-trust-findings]');
    expect(decide(policy, subject(['a/b'], { toolFindings: 2 }))).to.deep.include({ admitted: false, rule: 'no-trust-findings' });
    expect(admits(policy, subject(['a/b'], { toolFindings: 0 }))).to.equal(true);
    expect(admits(policy, subject(['a/b'], { toolFindings: null }))).to.equal(true);
    expect(admits(parsePolicy('deny: []'), subject(['a/b'], { toolFindings: 2 }))).to.equal(true);
  });

  it(`not-flagged: ${rule('not-flagged')}`, () => {
    const policy = parsePolicy('require: [not-flagged]');
    expect(decide(policy, subject(['a/b'], { flagged: true }))).to.deep.include({ admitted: false, rule: 'not-flagged' });
    expect(admits(policy, subject(['a/b'], { flagged: false }))).to.equal(true);
    expect(admits(parsePolicy('require: [no-trust-findings]'), subject(['a/b'], { flagged: true }))).to.equal(true);
  });

  it(`admitted: ${rule('admitted')}`, () => {
    expect(decide(parsePolicy('deny: [x/*]'), subject(['a/b']))).to.deep.equal({ admitted: true, rule: 'admitted', because: 'admitted: no rule refuses it' });
  });
});

describe('catalog policy files', () => {
  it('reads the three lists', () => {
    const policy = parsePolicy('# curated\nallow:\n  - io.github.github/*\n  - com.acme/tool\ndeny:\n  - io.github.evil/*\nrequire:\n  - no-trust-findings\n');
    expect(policy).to.deep.equal({
      allow: [{ text: 'io.github.github/*', namespace: 'io.github.github' }, { text: 'com.acme/tool', namespace: null }],
      deny: [{ text: 'io.github.evil/*', namespace: 'io.github.evil' }],
      require: ['no-trust-findings'],
    });
    expect(parsePolicy('deny: [a/b]').allow).to.equal(null);
  });

  const malformed: Array<[string, string, RegExp]> = [
    ['empty', '', /empty/],
    ['only a comment', '# nothing\n', /empty/],
    ['not YAML', 'allow: [a/b\n', /not valid YAML/],
    ['a list at the top', '- a/b\n', /mapping/],
    ['a misspelt key', 'alow: [a/b]\n', /unknown key "alow"/],
    ['a key twice', 'allow: [a/b]\nallow: [c/d]\n', /not valid YAML/],
    ['allow not a list', 'allow: a/b\n', /allow must be a list/],
    ['an unknown condition', 'require: [no-findings]\n', /require\[0\]: unknown condition "no-findings" \(known: no-trust-findings, not-flagged\)/],
    ['an empty pattern', 'deny: [""]\n', /deny\[0\]: a pattern must be a non-empty name/],
    ['a number', 'allow: [42]\n', /allow\[0\]: a pattern must be a non-empty name, got 42/],
    ['a mapping as pattern', 'allow: [{a: b}]\n', /allow\[0\]/],
    ['white space', 'allow: ["a/b c"]\n', /allow\[0\]: "a\/b c" has white space/],
    ['a wildcard inside a name', 'allow: [io.github.*/x]\n', /allow\[0\]: "io.github.\*\/x" is neither a name nor ns\/\*/],
    ['a prefix wildcard', 'allow: [com.acme/tool-*]\n', /allow\[0\]/],
    ['a bare star', 'allow: ["*"]\n', /allow\[0\]/],
    ['a namespace wildcard without namespace', 'allow: ["/*"]\n', /allow\[0\]/],
    ['a nested namespace wildcard', 'allow: ["a/b/*"]\n', /allow\[0\]/],
  ];
  for (const [what, text, message] of malformed) {
    it(`refuses a file with ${what}, naming the problem`, () => {
      expect(() => parsePolicy(text)).to.throw(PolicyError, message);
    });
  }

  it('names every problem at once', () => {
    expect(() => parsePolicy('allow: ["*"]\nrequire: [x]\n')).to.throw(PolicyError, /allow\[0\].*; require\[0\]/);
  });
});

describe('whether a policy widens another', () => {
  const p = (text: string): CatalogPolicy => parsePolicy(text);
  const cases: Array<[string, CatalogPolicy | null, CatalogPolicy | null, boolean]> = [
    ['none to a policy', null, p('allow: [a/*]'), false],
    ['a policy to none', p('deny: [a/*]'), null, true],
    ['an allow pattern added', p('allow: [a/*]'), p('allow: [a/*, b/*]'), true],
    ['an allow pattern dropped', p('allow: [a/*, b/*]'), p('allow: [a/*]'), false],
    ['allow dropped altogether', p('allow: [a/*]'), p('deny: [b/*]'), true],
    ['allow added', p('deny: [b/*]'), p('allow: [a/*]\ndeny: [b/*]'), false],
    ['a deny pattern dropped', p('deny: [a/*, b/*]'), p('deny: [a/*]'), true],
    ['a deny pattern added', p('deny: [a/*]'), p('deny: [a/*, b/*]'), false],
    ['a condition dropped', p('require: [no-trust-findings, not-flagged]'), p('require: [not-flagged]'), true],
    ['a condition added', p('require: [not-flagged]'), p('require: [not-flagged, no-trust-findings]'), false],
    ['the same file reordered', p('allow: [a/*, b/*]\ndeny: [c/d]'), p('deny: [c/d]\nallow: [b/*, a/*]'), false],
  ];
  for (const [what, previous, next, expected] of cases) {
    it(`${expected ? 'widens' : 'does not widen'}: ${what}`, () => {
      expect(widens(previous, next)).to.equal(expected);
    });
  }
});
