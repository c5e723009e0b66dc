/**
 * Renditions of several answers (src/read/renditions.ts): kept under their key at a stamp of what
 * they depend on, served while it holds (or while it cannot be read), never kept when the stamp
 * moved while one was made, made once for identical requests meanwhile, and not kept at all
 * with a serving time of 0.
 */
import { expect } from 'chai';
import { createFlights } from '../../src/read/flights.js';
import { createRenditions, type Stamp } from '../../src/read/renditions.js';

function harness(ttlMs: number | null = null) {
  let stamp: Stamp = { now: 'g1', last: 'g1' };
  let made = 0;
  const renditions = createRenditions<{ text: string }>({ bytesOf: (r) => r.text.length, ttlMs, stamp: async () => stamp, flights: createFlights() });
  const render = (text: string) => async () => {
    made += 1;
    return { text: `${text} #${made}` };
  };
  return {
    renditions,
    render,
    made: () => made,
    set: (next: Stamp) => (stamp = next),
  };
}

describe('renditions', () => {
  it('serves what was made at the same stamp, and makes it anew once the stamp moves', async () => {
    const h = harness();
    const first = await h.renditions.of('page', h.render('a'));
    expect(await h.renditions.of('page', h.render('a'))).to.equal(first);
    expect(h.made()).to.equal(1);
    h.set({ now: 'g2', last: 'g2' });
    expect((await h.renditions.of('page', h.render('a'))).text).to.equal('a #2');
  });

  it('serves what was kept at the last stamp while the stamp cannot be read, and keeps nothing new', async () => {
    const h = harness();
    const first = await h.renditions.of('page', h.render('a'));
    h.set({ now: null, last: 'g1' });
    expect(await h.renditions.of('page', h.render('a'))).to.equal(first);
    await h.renditions.of('other', h.render('b'));
    await h.renditions.of('other', h.render('b'));
    expect(h.made(), 'the other page is made each time').to.equal(3);
  });

  it('keeps nothing made while the stamp moved', async () => {
    const h = harness();
    await h.renditions.of('page', async () => {
      h.set({ now: 'g2', last: 'g2' });
      return { text: 'made across a change' };
    });
    expect((await h.renditions.of('page', h.render('a'))).text).to.equal('a #1');
  });

  it('makes a rendition once for identical requests that arrive while it is made', async () => {
    const h = harness();
    const all = await Promise.all([1, 2, 3].map(() => h.renditions.of('page', h.render('a'))));
    expect(h.made()).to.equal(1);
    expect(all[1]).to.equal(all[0]);
    expect(all[2]).to.equal(all[0]);
  });

  it('keeps nothing with a serving time of 0, and serves no longer than its serving time', async () => {
    const none = harness(0);
    await none.renditions.of('page', none.render('a'));
    await none.renditions.of('page', none.render('a'));
    expect(none.made()).to.equal(2);
    const brief = harness(30);
    await brief.renditions.of('page', brief.render('a'));
    await new Promise((resolve) => setTimeout(resolve, 60));
    await brief.renditions.of('page', brief.render('a'));
    expect(brief.made()).to.equal(2);
  });
});
