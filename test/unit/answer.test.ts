/**
 * The encoder (src/read/answer.ts): an answer is the JSON of its value scrubbed once; JSON text
 * made of scrubbed parts goes as it is; JSON composed around answers embeds their bytes.
 */
import { expect } from 'chai';
import { Answer, encode } from '../../src/read/answer.js';
import { JsonText } from '../../src/json.js';

describe('an answer', () => {
  const page = (entries: number) => ({ servers: Array.from({ length: entries }, (_, i) => ({ name: `io.github.x/server-${i}`, description: 'A server. '.repeat(20) })) });

  it('holds a value as its JSON, small or large, and gives the value back', () => {
    for (const value of [page(2), page(200)]) {
      const answer = Answer.of(value);
      expect(answer.json.toString()).to.equal(JSON.stringify(value));
      expect(answer.value).to.deep.equal(value);
      expect(encode(answer)).to.equal(answer.json);
    }
  });

  it('sends JSON text made of scrubbed parts as it is, and scrubs a value', () => {
    const text = '{"servers":[],"metadata":{"count":0}}';
    expect(Answer.of(new JsonText(text)).json.toString()).to.equal(text);
    const scrubbed = Answer.of({ note: 'token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' }).json.toString();
    expect(scrubbed).to.not.include('ghp_0123456789');
    expect(encode({ note: 'token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB' }).toString()).to.equal(scrubbed);
  });

  it('composes JSON around answers from their bytes, scrubbing only the values it adds', () => {
    const result = Answer.of(page(1));
    const composed = Answer.compose<{ text: string }>`{"id":${'ghp_abcdefghijklmnopqrstuvwxyz0123456789'},"exact":${new JsonText('12345678901234567890')},"text":${result.asText()},"result":${result}}`;
    expect(composed.json.toString()).to.equal(`{"id":"[redacted]","exact":12345678901234567890,"text":${JSON.stringify(result.json.toString())},"result":${result.json.toString()}}`);
    expect(JSON.parse(composed.value.text)).to.deep.equal(page(1));
  });
});
