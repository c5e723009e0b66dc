/** Answers of the read model (src/read/answer.ts): small ones held as JSON, large ones brotli-compressed, the same JSON either way. */
import { expect } from 'chai';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Answer, HELD_COMPRESSED } from '../../src/read/answer.js';
import { JsonText } from '../../src/json.js';

describe('an answer', () => {
  const page = (entries: number) => ({ servers: Array.from({ length: entries }, (_, i) => ({ name: `io.github.x/server-${i}`, description: 'A server. '.repeat(20) })) });

  it('holds a small value as its JSON, kept or not, and keeps its renditions', () => {
    const answer = Answer.of(page(2)).forKeeping();
    expect(answer.compressed).to.equal(false);
    expect(answer.json.toString()).to.equal(JSON.stringify(page(2)));
    expect(answer.body.identity()).to.equal(answer.json);
    let renders = 0;
    const render = (): Buffer => Buffer.from(`rendition ${++renders}`);
    expect(answer.rendition('mcp', render)).to.deep.equal(answer.rendition('mcp', render));
    expect(renders).to.equal(1);
    expect(answer.bytes).to.equal(answer.json.length + 'rendition 1'.length);
  });

  it('holds a large value brotli-compressed when kept, the same JSON inflated (or gzipped), and makes its renditions each time', () => {
    const value = page(200);
    const json = JSON.stringify(value);
    expect(json.length).to.be.above(HELD_COMPRESSED);
    // Made for one read, it stays as JSON.
    expect(Answer.of(value).compressed).to.equal(false);
    const answer = Answer.of(value).forKeeping();
    expect(answer.compressed).to.equal(true);
    expect(answer.json.toString()).to.equal(json);
    expect(answer.value).to.deep.equal(value);
    expect(answer.body.size).to.equal(json.length);
    const held = answer.body.brotli?.();
    expect(held).to.be.instanceOf(Buffer);
    expect(brotliDecompressSync(held as Buffer).toString()).to.equal(json);
    expect(gunzipSync(answer.body.gzip()).toString()).to.equal(json);
    expect(answer.bytes).to.equal(held?.length).and.to.be.below(json.length / 4);
    // An answer made for one read has no brotli form: it goes gzip-compressed or as it is.
    expect(Answer.of(value).body.brotli).to.equal(undefined);
    let renders = 0;
    answer.rendition('mcp', () => Buffer.from(`rendition ${++renders}`));
    answer.rendition('mcp', () => Buffer.from(`rendition ${++renders}`));
    expect(renders).to.equal(2);
    expect(answer.bytes).to.equal(held?.length);
  });

  it('sends JSON text made of scrubbed parts as it is, and scrubs a value', () => {
    const text = '{"servers":[],"metadata":{"count":0}}';
    expect(Answer.of(new JsonText(text)).json.toString()).to.equal(text);
    const scrubbed = Answer.of({ note: 'token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' }).json.toString();
    expect(scrubbed).to.not.include('ghp_0123456789');
  });
});
