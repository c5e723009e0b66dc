/** The adapter over lossless-json that reads a request id as written (src/mcp/exact-id.ts): fails if the library's behaviour changes. */
import { expect } from 'chai';
import { exactIdText, needsExactId } from '../../src/mcp/exact-id.js';

describe('exact JSON-RPC ids', () => {
  const cases: Array<[string, string | null]> = [
    ['{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}', '9007199254740993'],
    ['{"id":-9007199254740993}', '-9007199254740993'],
    ['{ "params": { "id": 1 }, "id" : 123456789012345678901234567890 }', '123456789012345678901234567890'],
    ['{"\\u0069d":9007199254740993}', '9007199254740993'],
    ['{"id":9007199254740993.5}', null],
    ['{"id":9.007199254740993e15}', null],
    ['{"id":"9007199254740993"}', null],
    ['{"id":1,"id":2}', null],
    ['[{"id":9007199254740993}]', null],
  ];
  for (const [text, expected] of cases) {
    it(`reads ${text} as ${String(expected)}`, () => {
      expect(exactIdText(text)).to.equal(expected);
    });
  }

  it('asks for the text only when JSON.parse could not hold the id', () => {
    expect([2 ** 53 - 1, -(2 ** 53 - 1), 1, 'x', null, undefined].map(needsExactId)).to.deep.equal([false, false, false, false, false, false]);
    expect([2 ** 53, 9007199254740993, 1.5, Infinity].map(needsExactId)).to.deep.equal([true, true, true, true]);
  });
});
