/** The registry's read caches: kept per generation, bounded by what they hold. */
import { expect } from 'chai';
import { createCacheFactory, weightOf } from '../../src/registry/read-cache.js';

describe('read caches', () => {
  it('weigh a page by its items and a record as one', () => {
    expect(weightOf({ id: 'x' })).to.equal(1);
    expect(weightOf({ items: new Array(100).fill({}), total: 100 })).to.equal(101);
  });

  it('drop the oldest pages once the items they hold pass the bound', async () => {
    const cache = createCacheFactory(async () => 'g1')<{ items: number[] }>(250);
    let computed = 0;
    const page = async () => {
      computed += 1;
      return { items: new Array(100).fill(0) };
    };
    for (const key of ['a', 'b', 'a', 'c', 'a']) await cache(key, page);
    // a, b kept (202); c evicts the least recently used (b); a stays a hit throughout.
    expect(computed).to.equal(3);
    await cache('b', page);
    expect(computed).to.equal(4);
  });

  it('recompute everything when the generation changes', async () => {
    let generation = 'g1';
    const cache = createCacheFactory(async () => generation)<{ n: number }>();
    let n = 0;
    const compute = async () => ({ n: ++n });
    expect((await cache('k', compute)).n).to.equal(1);
    expect((await cache('k', compute)).n).to.equal(1);
    generation = 'g2';
    expect((await cache('k', compute)).n).to.equal(2);
  });
});
