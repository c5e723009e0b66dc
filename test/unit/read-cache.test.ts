/** The registry's read caches: kept per generation, bounded by what they hold. */
import { expect } from 'chai';
import { createCacheFactory, createKeptResponses, weightOf } from '../../src/registry/read-cache.js';

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

  it('keep REST and MCP responses in one byte budget, dropping the least recently used of either', async () => {
    let generation = 'g1';
    // Keys are the space's name, a newline and the key: 'rest\na' weighs 6 + its body.
    const kept = createKeptResponses(async () => generation, 3_000);
    const rest = kept.space('rest', (body: Buffer) => body.length);
    const mcp = kept.space('mcp', (call: Buffer) => call.length);
    expect(await rest.generation()).to.equal('g1');
    rest.set('a', Buffer.alloc(1_000));
    mcp.set('a', Buffer.alloc(1_000, 1));
    // The same key in two spaces is two entries.
    expect(rest.get('a')?.[0]).to.equal(0);
    expect(mcp.get('a')?.[0]).to.equal(1);
    rest.get('a');
    // A third body passes the shared bound: the MCP one, used least recently, goes.
    mcp.set('b', Buffer.alloc(990));
    expect(mcp.get('a')).to.equal(undefined);
    expect(rest.get('a')).to.have.length(1_000);
    expect(mcp.get('b')).to.have.length(990);
    // A new generation drops both spaces.
    generation = 'g2';
    expect(await mcp.generation()).to.equal('g2');
    expect(rest.get('a')).to.equal(undefined);
    expect(mcp.get('b')).to.equal(undefined);
    expect(() => kept.space('rest', (body: Buffer) => body.length)).to.throw(/taken/);
  });
});
