/** Ingest's streaming read: the same records as reading each document whole, the same failures, from a text or a file. */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { IngestInput, TextInput } from '../../src/ingest/detect.js';
import { readDocument } from '../../src/ingest/detect.js';
import { asRead, type ReadRecord } from '../../src/ingest/read.js';
import { readInputs } from '../../src/ingest/read-inputs.js';
import { Spool } from '../../src/ingest/spool.js';
import { streamRecords } from '../../src/ingest/stream-read.js';
import { IngestError } from '../../src/ingest/upstream.js';
import { fixture } from '../support/harness.js';

const DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const REAL = ['official-registry-v0.1-snapshot-2025-12.json', 'docker-mcp-catalog-servers.json', 'toolsdk-mcp-registry-servers.json'];
const realAvailable = REAL.every((file) => existsSync(`${DATA}${file}`));

/** Small documents of every format, a plain server.json among them. */
const SMALL = ['toolsdk-small.json', 'official-small.json', 'canary-docker.json', 'docker-small.json', 'canary-official.json', 'install-kinds.json', 'toolsdk-go.json'];

async function streamed(input: IngestInput): Promise<ReadRecord[]> {
  const out: ReadRecord[] = [];
  for await (const record of streamRecords(input)) out.push(record);
  return out;
}

function whole(input: TextInput): ReadRecord[] {
  return readDocument(input).map(asRead);
}

async function failureOf(read: Promise<unknown>): Promise<unknown> {
  return read.then(() => expect.fail('the read should have failed'), (err: unknown) => err);
}

describe('ingest reading documents as streams', function () {
  this.timeout(60_000);

  it('gives the records of every format as reading the document whole does, from a text and from a file', async () => {
    for (const name of SMALL) {
      const input = fixture(name) as TextInput;
      const expected = whole(input);
      expect(expected.length, name).to.be.greaterThan(0);
      expect(await streamed(input), name).to.deep.equal(expected);
      expect(await streamed({ file: name, path: fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)) }), name).to.deep.equal(expected);
    }
    const single = { file: 'server.json', text: JSON.stringify({ name: 'com.example/one', description: 'd', version: '1.0.0', packages: [] }) };
    expect(await streamed(single)).to.deep.equal(whole(single));
  });

  it(`reads the real upstream files as reading them whole does${realAvailable ? '' : ' (skipped: ../shared/data not found)'}`, async function () {
    if (!realAvailable) this.skip();
    let count = 0;
    for (const file of REAL) {
      const input = { file, text: readFileSync(`${DATA}${file}`, 'utf8') };
      const records = await streamed({ file, path: `${DATA}${file}` });
      expect(records).to.deep.equal(whole(input));
      count += records.length;
    }
    expect(count).to.equal(964 + 328 + 4548);
  });

  it('fails on a bad document as an IngestError naming the file and the record, or where the JSON broke', async () => {
    const truncated = await failureOf(streamed(fixture('truncated.json')));
    expect(truncated).to.be.instanceOf(IngestError);
    expect((truncated as IngestError).message).to.match(/^truncated\.json: record document: not valid JSON/);
    const corrupt = await failureOf(streamed(fixture('corrupt-record.json')));
    expect(corrupt).to.be.instanceOf(IngestError);
    expect((corrupt as IngestError).message).to.equal('corrupt-record.json: record #1 (?): name must be a namespaced string like "io.github.owner/server"');
    const broken = await failureOf(streamed({ file: 'broken.json', text: '{"servers": [{"server": {"name": "com.example/a", "description": "d", "version": "1"}}, {"server": x}]}' }));
    expect((broken as IngestError).message).to.match(/^broken\.json: record document after record #0: not valid JSON \(.*position/);
    for (const text of ['', 'null', '[]', '"x"']) {
      const failure = await failureOf(streamed({ file: 'odd.json', text }));
      expect(failure, text).to.be.instanceOf(IngestError);
    }
  });
});

/** Everything a read into a spool gave: the records as read back, and how many records the threads said they read. */
async function readIntoSpool(inputs: readonly IngestInput[], threads: number): Promise<{ records: ReadRecord[]; counted: number }> {
  const spool = new Spool();
  let counted = 0;
  try {
    await readInputs(inputs, spool, (records) => {
      counted += records;
    }, { threads, parallelFromBytes: 0 });
    return { records: [...spool.read(['demo', 'official', 'docker', 'toolsdk'])], counted };
  } finally {
    spool.remove();
  }
}

describe('ingest reading on several threads', function () {
  this.timeout(120_000);
  const files = (names: readonly string[]): IngestInput[] => names.map((name) => ({ file: name, path: fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)) }));

  it('spools the same records in the same order, and counts them, on one, two and three threads', async () => {
    const inputs = [...files(SMALL), ...(realAvailable ? REAL.map((file) => ({ file, path: `${DATA}${file}` })) : [])];
    const one = await readIntoSpool(inputs, 1);
    expect(one.records.length).to.be.greaterThan(realAvailable ? 5840 : 10);
    expect(one.counted).to.equal(one.records.length);
    // Read back source by source, each in input order, as one thread reading the inputs in order gives.
    const sources = ['demo', 'official', 'docker', 'toolsdk'];
    const inOrder = (await Promise.all(inputs.map(streamed))).flat().sort((a, b) => sources.indexOf(a.source) - sources.indexOf(b.source));
    expect(one.records).to.deep.equal(inOrder);
    for (const threads of [2, 3]) expect(await readIntoSpool(inputs, threads), `${threads} threads`).to.deep.equal(one);
  });

  it('throws the first failure in input order, whichever thread read it', async () => {
    // The small corrupt document comes first and the large good ones after it go to other threads.
    const inputs = files(['official-small.json', 'corrupt-record.json', 'toolsdk-small.json', 'truncated.json', 'docker-small.json']);
    const expected = await failureOf(readIntoSpool(inputs, 1));
    expect((expected as Error).message).to.match(/^corrupt-record\.json: record #1/);
    for (const threads of [2, 3]) {
      const failure = await failureOf(readIntoSpool(inputs, threads));
      expect(failure, `${threads} threads`).to.be.instanceOf(IngestError);
      expect((failure as Error).message, `${threads} threads`).to.equal((expected as Error).message);
    }
    const missing = await failureOf(readIntoSpool([...files(['official-small.json']), { file: 'gone.json', path: '/nonexistent/gone.json' }], 2));
    expect(missing).to.be.instanceOf(IngestError);
    expect((missing as Error).message).to.match(/^gone\.json: record document: cannot be read/);
  });
});

