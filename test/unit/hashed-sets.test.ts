/** The run-long sets and tables of hashes (src/ingest/hashed-sets.ts). */
import { expect } from 'chai';
import { hash52, Hash52Set } from '../../src/ingest/hashed-sets.js';

describe('Hash52Set', () => {
  it('holds each hash once, 0 and the largest hash52 among them', () => {
    const set = new Hash52Set();
    expect(set.add(hash52('a'))).to.equal(true);
    expect(set.add(hash52('a'))).to.equal(false);
    expect(set.add(0)).to.equal(true);
    expect(set.add(2 ** 52 - 1)).to.equal(true);
    expect([set.has(hash52('a')), set.has(0), set.has(2 ** 52 - 1), set.has(hash52('b'))]).to.deep.equal([true, true, true, false]);
    expect(set.size).to.equal(3);
  });

  it('keeps every hash, and no other, as it grows past its first size', () => {
    const set = new Hash52Set();
    const values = Array.from({ length: 200_000 }, (_, i) => hash52(`server-${i}`));
    for (const value of values) set.add(value);
    expect(set.size).to.equal(new Set(values).size);
    for (const [i, value] of values.entries()) if (!set.has(value)) expect.fail(`hash ${i} was lost`);
    for (let i = 200_000; i < 300_000; i += 1) if (set.has(hash52(`server-${i}`))) expect.fail(`hash ${i} was never added`);
  });
});

