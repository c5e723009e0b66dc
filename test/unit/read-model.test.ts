/**
 * The read model: answers kept per content generation, scrubbed once as they enter, bounded by
 * their bytes; reads of monitor checks and the clock made afresh; the cache steps aside while
 * the generation cannot be read.
 */
import { expect } from 'chai';
import { Answer } from '../../src/read/answer.js';
import { createAnswerCache } from '../../src/read/answer-cache.js';
import { createReadModel } from '../../src/read/read-model.js';
import type { RegistryService } from '../../src/registry/registry-service.js';

/** A registry that counts its calls and answers each with a fresh value naming the call. */
function countingRegistry() {
  const calls = new Map<string, number>();
  const registry = new Proxy({} as RegistryService, {
    get: (_target, key) => async (...args: unknown[]) => {
      const name = String(key);
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return { call: name, args, n: calls.get(name), note: 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789' };
    },
  });
  return { registry, calls };
}

describe('read model', () => {
  it('answers a repeated catalog read from what it kept, until the content generation moves', async () => {
    const { registry, calls } = countingRegistry();
    let generation: string | null = 'g1';
    const read = createReadModel({ registry, generation: async () => generation });
    const first = await read.searchServers({ q: 'github', limit: 3 });
    expect(await read.searchServers({ q: 'github', limit: 3 })).to.equal(first);
    expect(calls.get('searchServers')).to.equal(1);
    await read.searchServers({ q: 'github', limit: 4 });
    expect(calls.get('searchServers'), 'other arguments are another answer').to.equal(2);
    generation = 'g2';
    const after = await read.searchServers({ q: 'github', limit: 3 });
    expect(after).to.not.equal(first);
    expect(calls.get('searchServers')).to.equal(3);
  });

  it('keeps nothing computed while the generation moved, and steps aside while it cannot be read', async () => {
    const { registry, calls } = countingRegistry();
    const seen = ['g1', 'g2'];
    let generation: string | null = 'g2';
    const read = createReadModel({ registry, generation: async () => seen.shift() ?? generation });
    await read.getServer('a');
    await read.getServer('a');
    expect(calls.get('getServer'), 'the first was computed across a change, so not kept').to.equal(2);
    await read.getServer('a');
    expect(calls.get('getServer')).to.equal(2);
    generation = null;
    await read.getServer('a');
    await read.getServer('a');
    expect(calls.get('getServer'), 'no generation: every read goes the whole way').to.equal(4);
  });

  it('never keeps trust, status or comparison: they read monitor checks and the clock', async () => {
    const { registry, calls } = countingRegistry();
    const read = createReadModel({ registry, generation: async () => 'g1' });
    for (let i = 0; i < 2; i += 1) {
      await read.getTrust('a');
      await read.getStatus('a');
      await read.compareServers(['a', 'b']);
    }
    expect([calls.get('getTrust'), calls.get('getStatus'), calls.get('compareServers')]).to.deep.equal([2, 2, 2]);
  });

  it('scrubs an answer once as it enters, and its JSON is the scrubbed value', async () => {
    const { registry } = countingRegistry();
    const read = createReadModel({ registry, generation: async () => 'g1' });
    for (const answer of [await read.getTool('t'), await read.getStatus('s')]) {
      const value: unknown = answer.value;
      expect(value).to.deep.include({ note: 'token [redacted]' });
      expect(answer.json.toString()).to.equal(JSON.stringify(value));
    }
  });

  it('makes each edge rendition of an answer once', () => {
    const answer = Answer.of({ page: [1, 2, 3] });
    let made = 0;
    const render = (a: Answer<{ page: number[] }>): Buffer => {
      made += 1;
      return Buffer.from(`[${a.json.toString()}]`);
    };
    expect(answer.rendition('mcp', render).toString()).to.equal('[{"page":[1,2,3]}]');
    expect(answer.rendition('mcp', render)).to.equal(answer.rendition('mcp', render));
    expect(made).to.equal(1);
    expect(answer.bytes).to.equal(answer.json.length * 2 + 2);
  });

  it('bounds what it keeps by bytes, dropping the least recently used answer', () => {
    const cache = createAnswerCache(3_000);
    const big = (n: number) => Answer.of({ text: 'x'.repeat(n) });
    // Each is charged its key and three times its JSON (room for the MCP rendition).
    const [a, b, c] = [big(400), big(400), big(400)];
    cache.set('g1', 'a', a);
    cache.set('g1', 'b', b);
    expect(cache.get('g1', 'a')).to.equal(a);
    cache.set('g1', 'c', c);
    expect([cache.get('g1', 'a'), cache.get('g1', 'b'), cache.get('g1', 'c')]).to.deep.equal([a, undefined, c]);
    expect(cache.get('g2', 'a'), 'a new generation drops everything').to.equal(undefined);
  });
});
