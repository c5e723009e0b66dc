/**
 * Bounded computation (src/read/bounded-work.ts): a few at once, a bounded queue
 * that refuses with 503 and Retry-After, and work whose callers have all gone never started.
 */
import { expect } from 'chai';
import { AppError } from '../../src/errors.js';
import { createGate, createSharedWork } from '../../src/read/bounded-work.js';

/** A computation that runs until it is let go, counting its starts. */
function held() {
  const started: string[] = [];
  const finishers: Array<() => void> = [];
  const compute = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finishers.push(() => resolve(name));
    });
  const finishOne = async (): Promise<void> => {
    finishers.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, compute, finishOne };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('bounded computation', () => {
  it('runs no more than its concurrency at once and refuses one beyond its queue with 503 and Retry-After', async () => {
    const work = createSharedWork(createGate({ concurrency: 1, queued: 1, what: 'comparisons' }));
    const { started, compute, finishOne } = held();
    const first = work.run('a', compute('a'));
    const second = work.run('b', compute('b'));
    const refused = await work.run('c', compute('c')).catch((err: unknown) => err);
    expect(refused).to.be.instanceOf(AppError).and.to.deep.include({ code: 'service_unavailable', headers: { 'Retry-After': '1' } });
    expect((refused as AppError).detail).to.match(/Too many comparisons are waiting/);
    await tick();
    expect(started).to.deep.equal(['a']);
    await finishOne();
    await finishOne();
    expect(await Promise.all([first, second])).to.deep.equal(['a', 'b']);
  });

  it('never starts a queued computation whose caller has gone, and frees its place in the queue', async () => {
    const work = createSharedWork(createGate({ concurrency: 1, queued: 1, what: 'reads' }));
    const { started, compute, finishOne } = held();
    const running = work.run('a', compute('a'));
    const caller = new AbortController();
    const gone = work.run('b', compute('b'), caller.signal).catch((err: unknown) => err);
    await tick();
    caller.abort();
    expect(await gone).to.be.instanceOf(AppError).and.to.deep.include({ code: 'service_unavailable' });
    const next = work.run('c', compute('c'));
    await finishOne();
    await finishOne();
    expect(await Promise.all([running, next])).to.deep.equal(['a', 'c']);
    expect(started, 'b never ran').to.deep.equal(['a', 'c']);
  });

  it('still computes a shared answer while one of its callers remains', async () => {
    const work = createSharedWork(createGate({ concurrency: 1, queued: 4, what: 'reads' }));
    const { started, compute, finishOne } = held();
    const running = work.run('a', compute('a'));
    const leaving = new AbortController();
    const staying = new AbortController();
    void work.run('b', compute('b'), leaving.signal).catch(() => undefined);
    const kept = work.run('b', compute('b'), staying.signal);
    await tick();
    leaving.abort();
    await finishOne();
    await finishOne();
    expect(await Promise.all([running, kept])).to.deep.equal(['a', 'b']);
    expect(started).to.deep.equal(['a', 'b']);
  });

  it('starts afresh for a caller who comes after every earlier caller of the same answer had gone', async () => {
    const work = createSharedWork(createGate({ concurrency: 1, queued: 4, what: 'reads' }));
    const { started, compute, finishOne } = held();
    const running = work.run('a', compute('a'));
    const gone = new AbortController();
    const abandoned = work.run('b', compute('b'), gone.signal).catch((err: unknown) => err);
    await tick();
    gone.abort();
    await abandoned;
    const later = work.run('b', compute('b'));
    await finishOne();
    await finishOne();
    expect(await Promise.all([running, later])).to.deep.equal(['a', 'b']);
    expect(started).to.deep.equal(['a', 'b']);
  });
});
