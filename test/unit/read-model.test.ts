/**
 * The read model: answers and pages kept per content generation in one cache, scrubbed once as
 * they enter, bounded by their bytes; reads of monitor checks and the clock kept for a moment;
 * the cache steps aside while the generation cannot be read; identical misses computed once,
 * distinct ones queued; a database outage answered from what is kept, or with database_unavailable.
 */
import { expect } from 'chai';
import { Answer } from '../../src/read/answer.js';
import { createAnswerCache } from '../../src/read/answer-cache.js';
import { AppError } from '../../src/errors.js';
import { createGate, createSharedWork } from '../../src/read/bounded-work.js';
import { isPoolTimeout } from '../../src/store/db.js';
import knex from 'knex';
import { createReadModel } from '../../src/read/read-model.js';
import type { DiscoveryService } from '../../src/discovery/discovery-service.js';

/** A registry that counts its calls and answers each with a fresh value naming the call. */
function countingRegistry() {
  const calls = new Map<string, number>();
  const registry = new Proxy({} as DiscoveryService, {
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
    const read = createReadModel({ discovery: registry, generation: async () => generation });
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

  it('keeps nothing computed while the generation moved, and answers from what it kept while the generation cannot be read', async () => {
    const { registry, calls } = countingRegistry();
    const seen = ['g1', 'g2'];
    let generation: string | null = 'g2';
    const read = createReadModel({ discovery: registry, generation: async () => seen.shift() ?? generation });
    await read.getServer('a');
    await read.getServer('a');
    expect(calls.get('getServer'), 'the first was computed across a change, so not kept').to.equal(2);
    await read.getServer('a');
    expect(calls.get('getServer')).to.equal(2);
    generation = null;
    await read.getServer('a');
    expect(calls.get('getServer'), 'no generation: what was kept at the last one read still answers').to.equal(2);
    await read.getServer('b');
    await read.getServer('b');
    expect(calls.get('getServer'), 'no generation: nothing new is kept').to.equal(4);
  });

  it('runs concurrent identical misses once: the others wait for that answer', async () => {
    const { registry, calls } = countingRegistry();
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const slow = new Proxy(registry, { get: (target, key) => async (...args: unknown[]) => (await gate, Reflect.get(target, key)(...args)) });
    const read = createReadModel({ discovery: slow, generation: async () => 'g1' });
    const answers = Array.from({ length: 20 }, () => read.searchServers({ q: 'github', limit: 3 }));
    const other = read.searchServers({ q: 'gitlab', limit: 3 });
    open();
    const settled = await Promise.all(answers);
    expect(new Set(settled).size, 'one answer for all twenty').to.equal(1);
    await other;
    expect(calls.get('searchServers'), 'github once, gitlab once').to.equal(2);
  });

  it('queues distinct misses: no more computations at once than it allows', async () => {
    let running = 0;
    let most = 0;
    const registry = new Proxy({} as DiscoveryService, {
      get: () => async (...args: unknown[]) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        return { args };
      },
    });
    const read = createReadModel({ discovery: registry, generation: async () => 'g1', reads: createSharedWork(createGate({ concurrency: 3, queued: 100, what: 'reads' })) });
    const pages = await Promise.all(Array.from({ length: 30 }, (_, i) => read.searchServers({ q: `word${i}`, limit: 3 })));
    expect(pages.map((p) => (p.value as unknown as { args: Array<{ q: string }> }).args[0]?.q)).to.deep.equal(Array.from({ length: 30 }, (_, i) => `word${i}`));
    expect(most).to.equal(3);
  });

  it('refuses a miss beyond the queue with 503 service_unavailable and Retry-After', async () => {
    const registry = new Proxy({} as DiscoveryService, { get: () => () => new Promise(() => undefined) });
    const read = createReadModel({ discovery: registry, generation: async () => 'g1', reads: createSharedWork(createGate({ concurrency: 1, queued: 1, what: 'reads' })) });
    void read.searchServers({ q: 'a' });
    void read.searchServers({ q: 'b' });
    const refused = await read.searchServers({ q: 'c' }).catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(AppError).and.to.deep.include({ code: 'service_unavailable', headers: { 'Retry-After': '1' } });
  });

  it('while the database does not answer: serves what it kept, and says database_unavailable for the rest', async () => {
    const { registry } = countingRegistry();
    let down = false;
    const failing = new Proxy(registry, {
      get: (target, key) => async (...args: unknown[]) => {
        if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return Reflect.get(target, key)(...args);
      },
    });
    const read = createReadModel({ discovery: failing, generation: async () => (down ? null : 'g1'), databaseAnswers: async () => !down });
    const kept = await read.searchServers({ q: 'github' });
    down = true;
    expect(await read.searchServers({ q: 'github' }), 'the answer it held').to.equal(kept);
    for (const attempt of [() => read.searchServers({ q: 'gitlab' }), () => read.getTrust('a')]) {
      const err = await attempt().catch((e: unknown) => e);
      expect(err).to.be.instanceOf(AppError).and.to.deep.include({ code: 'database_unavailable', headers: { 'Retry-After': '5' } });
    }
    down = false;
    expect((await read.searchServers({ q: 'gitlab' })).value, 'back by itself').to.deep.include({ call: 'searchServers' });
  });

  it('says service_unavailable with Retry-After when a read waited too long for a database connection (busy, not broken)', async () => {
    const timedOut = new knex.KnexTimeoutError('Knex: Timeout acquiring a connection. The pool is probably full.');
    const registry = new Proxy({} as DiscoveryService, { get: () => async () => { throw timedOut; } });
    const read = createReadModel({ discovery: registry, generation: async () => 'g1', databaseAnswers: async () => true, databaseBusy: isPoolTimeout });
    const err = await read.searchServers({ q: 'x' }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(AppError).and.to.deep.include({ code: 'service_unavailable', headers: { 'Retry-After': '1' } });
    expect(isPoolTimeout(new Error('Knex: Timeout acquiring a connection')), 'only knex\'s own error, not its text').to.equal(false);
  });

  it('lets a failure pass as it is while the database answers (a fault, not an outage)', async () => {
    const registry = new Proxy({} as DiscoveryService, { get: () => async () => { throw new Error('bug'); } });
    const read = createReadModel({ discovery: registry, generation: async () => 'g1', databaseAnswers: async () => true });
    const err = await read.searchServers({ q: 'x' }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error).and.not.to.be.instanceOf(AppError);
  });

  it('keeps trust, status and comparisons for a moment only: they read monitor checks and the clock', async () => {
    const { registry, calls } = countingRegistry();
    const read = createReadModel({ discovery: registry, generation: async () => 'g1', monitorTtlMs: 200 });
    for (let i = 0; i < 2; i += 1) {
      await read.getTrust('a');
      await read.getStatus('a');
      await read.compareServers(['a', 'b']);
    }
    expect([calls.get('trustOf'), calls.get('statusOf'), calls.get('compareServers')], 'a burst shares one trust, one status, one comparison').to.deep.equal([1, 1, 1]);
    await read.compareServers(['b', 'a']);
    expect(calls.get('compareServers'), 'servers in another order are another comparison').to.equal(2);
    await new Promise((resolve) => setTimeout(resolve, 250));
    await read.getTrust('a');
    await read.getStatus('a');
    await read.compareServers(['a', 'b']);
    expect([calls.get('trustOf'), calls.get('statusOf'), calls.get('compareServers')], 'made again once the moment has passed').to.deep.equal([2, 2, 3]);
    const never = countingRegistry();
    const each = createReadModel({ discovery: never.registry, generation: async () => 'g1', monitorTtlMs: 0 });
    await each.getStatus('a');
    await each.getStatus('a');
    expect(never.calls.get('statusOf'), 'monitorTtlMs 0: every read computes').to.equal(2);
  });

  it('scrubs an answer once as it enters, and its JSON is the scrubbed value', async () => {
    const { registry } = countingRegistry();
    const read = createReadModel({ discovery: registry, generation: async () => 'g1' });
    for (const answer of [await read.getTool('t'), await read.getStatus('s')]) {
      const value: unknown = answer.value;
      expect(value).to.deep.include({ note: 'token [redacted]' });
      expect(answer.json.toString()).to.equal(JSON.stringify(value));
    }
  });

  it('keeps a page beside the answers it shows: until the generation moves, from the last one while it cannot be read, never when it moved meanwhile', async () => {
    const { registry } = countingRegistry();
    let generation: string | null = 'g1';
    const read = createReadModel({ discovery: registry, generation: async () => generation });
    let made = 0;
    const render = (text: string) => async () => ({ type: 'text/html', bytes: Buffer.from(`${text} #${(made += 1)}`) });
    const first = await read.page('home', render('home'), false);
    expect(await read.page('home', render('home'), false)).to.equal(first);
    const all = await Promise.all([1, 2, 3].map(() => read.page('other', render('other'), false)));
    expect(new Set(all).size, 'identical requests meanwhile share one rendering').to.equal(1);
    expect(made).to.equal(2);
    generation = null;
    expect(await read.page('home', render('home'), false), 'no generation: what was kept at the last one').to.equal(first);
    await read.page('new', render('new'), false);
    await read.page('new', render('new'), false);
    expect(made, 'no generation: nothing new is kept').to.equal(4);
    generation = 'g2';
    expect((await read.page('home', render('home'), false)).bytes.toString()).to.equal('home #5');
    await read.page('moving', async () => {
      generation = 'g3';
      return { type: 'text/html', bytes: Buffer.from('made across a change') };
    }, false);
    expect((await read.page('moving', render('moving'), false)).bytes.toString()).to.equal('moving #6');
  });

  it('keeps a page that shows checks for a moment only, and none with a moment of 0', async () => {
    let made = 0;
    const render = async () => ({ type: 'text/html', bytes: Buffer.from(`server #${(made += 1)}`) });
    const brief = createReadModel({ discovery: countingRegistry().registry, generation: async () => 'g1', monitorTtlMs: 30 });
    await brief.page('server', render, true);
    await brief.page('server', render, true);
    expect(made).to.equal(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await brief.page('server', render, true);
    expect(made).to.equal(2);
    const none = createReadModel({ discovery: countingRegistry().registry, generation: async () => 'g1', monitorTtlMs: 0 });
    await none.page('server', render, true);
    await none.page('server', render, true);
    expect(made).to.equal(4);
  });

  it('bounds what it keeps by bytes, dropping the least recently used answer', () => {
    const cache = createAnswerCache(1_000);
    const big = (n: number) => Answer.of({ text: 'x'.repeat(n) });
    // Each is charged its key and its JSON.
    const [a, b, c] = [big(400), big(400), big(400)];
    cache.set('g1', 'a', a);
    cache.set('g1', 'b', b);
    expect(cache.get('g1', 'a')).to.equal(a);
    cache.set('g1', 'c', c);
    expect([cache.get('g1', 'a'), cache.get('g1', 'b'), cache.get('g1', 'c')]).to.deep.equal([a, undefined, c]);
    expect(cache.get('g2', 'a'), 'a new generation drops everything').to.equal(undefined);
  });
});
