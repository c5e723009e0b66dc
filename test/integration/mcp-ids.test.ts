/**
 * JSON-RPC ids at /mcp keep their exact value: an integer beyond 2^53 comes back as the client
 * wrote it, byte for byte, on every kind of answer (a result, a kept result, an error, an invalid
 * request). Responses are contract-checked; the raw text is what is compared.
 */
import { expect } from 'chai';
import { contractFetch, startHarness, type Harness } from '../support/harness.js';

const BIG = ['9007199254740993', '-9007199254740993', '123456789012345678901234567890'];

describe('JSON-RPC ids beyond 2^53 at /mcp', () => {
  let h: Harness;
  let post: (text: string) => Promise<{ status: number; text: string }>;
  before(async () => {
    h = await startHarness();
    const checked = contractFetch(h.baseUrl);
    post = async (text) => {
      const response = await checked(`${h.baseUrl}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: text });
      return { status: response.status, text: await response.text() };
    };
  });
  after(async () => h.close());

  for (const id of BIG) {
    it(`echoes id ${id} exactly on a result`, async () => {
      const { status, text } = await post(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
      expect(status).to.equal(200);
      expect(text).to.equal(`{"jsonrpc":"2.0","id":${id},"result":{}}`);
    });
  }

  it('echoes it exactly around a tool result, computed and then kept', async () => {
    const call = `{"jsonrpc":"2.0","id":9007199254740993,"method":"tools/call","params":{"name":"list_categories","arguments":{}}}`;
    for (let i = 0; i < 2; i += 1) {
      const { status, text } = await post(call);
      expect(status).to.equal(200);
      expect(text.startsWith('{"jsonrpc":"2.0","id":9007199254740993,"result":{')).to.equal(true);
      expect(JSON.parse(text).result.isError).to.equal(false);
    }
  });

  it('echoes it exactly on an error and on an invalid request', async () => {
    const unknown = await post('{"jsonrpc":"2.0","id":9007199254740993,"method":"no/such"}');
    expect(unknown.text).to.match(/^\{"jsonrpc":"2\.0","id":9007199254740993,"error":\{"code":-32601,/);
    const invalid = await post('{"jsonrpc":"1.0","id":9007199254740993,"method":"ping"}');
    expect(invalid.status).to.equal(400);
    expect(invalid.text).to.match(/^\{"jsonrpc":"2\.0","id":9007199254740993,"error":\{"code":-32600,/);
  });

  it('refuses an id beyond 2^53 that is not an integer as written', async () => {
    for (const id of ['9007199254740993.5', '1e400', '9007199254740993e0']) {
      const { status, text } = await post(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
      expect(status, id).to.equal(400);
      expect(JSON.parse(text)).to.deep.include({ id: null });
      expect(JSON.parse(text).error.code).to.equal(-32600);
    }
  });

  it('leaves safe ids as they were', async () => {
    expect((await post('{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}')).text).to.equal('{"jsonrpc":"2.0","id":9007199254740991,"result":{}}');
    expect((await post('{"jsonrpc":"2.0","id":"9007199254740993","method":"ping"}')).text).to.equal('{"jsonrpc":"2.0","id":"9007199254740993","result":{}}');
  });
});
