/** The server page's JSON writer (src/web/bounded-json.ts) and the shared caps (src/mcp-client/caps.ts) on hostile values. */
import { expect } from 'chai';
import { boundedJson } from '../../src/web/bounded-json.js';
import { Cuts, capDepth, capErrorText, tooDeep } from '../../src/mcp-client/caps.js';

const nested = (levels: number): unknown => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);

describe('bounded JSON for pages', () => {
  const values: unknown[] = [{ type: 'object', properties: { a: { type: 'string', enum: ['x', 'y'] }, b: [] , c: {} } }, [1, 'two', null, true], 'text', 3, null];
  for (const value of values) {
    it(`writes ${JSON.stringify(value)} as JSON.stringify does, within the bounds`, () => {
      expect(boundedJson(value, { depth: 32, chars: 10_000 })).to.deep.equal({ text: JSON.stringify(value, null, 2), cut: false });
    });
  }

  it('stops at the depth, and says so', () => {
    const shown = boundedJson({ a: { b: { c: 1 } } }, { depth: 2, chars: 10_000 });
    expect(shown.cut).to.equal(true);
    expect(shown.text).to.equal('{\n  "a": {\n    "b": "… nested deeper than 2 levels: not shown"\n  }\n}');
  });

  it('stops at the length, and says so', () => {
    const shown = boundedJson({ long: 'x'.repeat(100), more: 1 }, { depth: 32, chars: 50 });
    expect(shown.cut).to.equal(true);
    expect(shown.text).to.equal('{\n  "long": \n… (longer than shown: cut here)');
  });

  it('writes a value nested 100,000 deep in bounded size, without running out of stack', () => {
    const shown = boundedJson(nested(100_000), { depth: 32, chars: 16 * 1024 });
    expect(shown.cut).to.equal(true);
    expect(shown.text.length).to.be.below(3000);
  });
});

describe('shared caps', () => {
  it('cuts a value nested 100,000 deep at 32 levels, keeping a "__proto__" key a key', () => {
    const cuts = new Cuts();
    const capped = capDepth({ ['__proto__']: nested(100_000) }, cuts);
    expect(Object.getPrototypeOf(capped)).to.equal(Object.prototype);
    expect(Object.keys(capped as object)).to.deep.equal(['__proto__']);
    expect(tooDeep(capped)).to.equal(true);
    expect(cuts.list().map((c) => c.cap)).to.deep.equal(['depth']);
  });

  it('tells a value 32 levels deep from one 33 deep', () => {
    expect(tooDeep(nested(32))).to.equal(false);
    expect(tooDeep(nested(33))).to.equal(true);
  });

  it('cuts an error text at 1,024 characters, never inside a surrogate pair', () => {
    const cuts = new Cuts();
    const cut = capErrorText('😀'.repeat(600), cuts);
    expect(cut.length).to.be.at.most(1024);
    expect(cut.endsWith('😀…')).to.equal(true);
    expect(cuts.list()).to.deep.equal([{ cap: 'error_text', limit: 1024, note: 'The error text had 1200 characters; only the first 1024 are kept.' }]);
    expect(capErrorText('short')).to.equal('short');
  });
});
