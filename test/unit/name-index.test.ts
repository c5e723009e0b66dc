/** The registry API's name index (src/registry-api/name-index.ts): every name containing the text, any case, in order, from a cursor on. */
import { expect } from 'chai';
import { buildNameIndex } from '../../src/registry-api/name-index.js';

describe('registry name index', () => {
  const names = ['io.github.acme/Weather', 'com.stripe/mcp', 'ai.x/postgres-mcp', 'com.stripe/mcp', 'io.github.b/weather-tools', 'local.sextant/abc'];
  const index = buildNameIndex(names);

  it('finds every name containing the text, any case, once each, in bytewise order', () => {
    expect(index.size).to.equal(5);
    expect(index.matching('WEATHER', null, 10)).to.deep.equal(['io.github.acme/Weather', 'io.github.b/weather-tools']);
    expect(index.matching('mcp', null, 10)).to.deep.equal(['ai.x/postgres-mcp', 'com.stripe/mcp']);
    expect(index.matching('.', null, 10)).to.deep.equal([...new Set(names)].sort());
    expect(index.matching('zzz', null, 10)).to.deep.equal([]);
  });

  it('never matches across two names, and stops at the count', () => {
    expect(index.matching('mcp\nio', null, 10)).to.deep.equal([]);
    expect(index.matching('mcpio', null, 10)).to.deep.equal([]);
    expect(index.matching('/', null, 2)).to.deep.equal(['ai.x/postgres-mcp', 'com.stripe/mcp']);
  });

  it('starts from a cursor name, with or without it', () => {
    expect(index.matching('/', { name: 'com.stripe/mcp', inclusive: true }, 10)).to.deep.equal(['com.stripe/mcp', 'io.github.acme/Weather', 'io.github.b/weather-tools', 'local.sextant/abc']);
    expect(index.matching('/', { name: 'com.stripe/mcp', inclusive: false }, 10)).to.deep.equal(['io.github.acme/Weather', 'io.github.b/weather-tools', 'local.sextant/abc']);
    expect(index.matching('/', { name: 'com.zzz', inclusive: true }, 10)).to.deep.equal(['io.github.acme/Weather', 'io.github.b/weather-tools', 'local.sextant/abc']);
    expect(index.matching('/', { name: 'zzz', inclusive: true }, 10)).to.deep.equal([]);
  });

  it('finds what a scan of every name finds, for texts of every length, from any cursor', () => {
    // A seeded catalog of names made of a small alphabet, so that runs of three characters repeat.
    let seed = 7;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const pick = (alphabet: string, length: number): string => Array.from({ length }, () => alphabet[random(alphabet.length)]).join('');
    const many = Array.from({ length: 3000 }, () => `${pick('ab.', 2 + random(4))}/${pick('abcM-', 1 + random(12))}`);
    const sorted = [...new Set(many)].sort();
    const big = buildNameIndex(many);
    const texts = [...Array.from({ length: 200 }, () => pick('abcm-./', 1 + random(6))), 'zzz', 'AbC', 'b/m'];
    for (const text of texts) {
      const cursor = sorted[random(sorted.length)] as string;
      for (const from of [null, { name: cursor, inclusive: true }, { name: cursor, inclusive: false }]) {
        const after = from === null ? sorted : sorted.filter((name) => name > from.name || (from.inclusive && name === from.name));
        const expected = after.filter((name) => name.toLowerCase().includes(text.toLowerCase())).slice(0, 25);
        expect(big.matching(text, from, 25), `${text} from ${JSON.stringify(from)}`).to.deep.equal(expected);
      }
    }
  });
});
