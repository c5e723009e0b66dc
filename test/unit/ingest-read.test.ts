/** Ingest's read phase on worker threads: the same records in the same order as on one thread, and the same first failure. */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { IngestInput } from '../../src/ingest/detect.js';
import { readGroup, readInputs } from '../../src/ingest/read.js';
import { IngestError } from '../../src/ingest/upstream.js';
import { fixture } from '../support/harness.js';

const DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const REAL = ['official-registry-v0.1-snapshot-2025-12.json', 'docker-mcp-catalog-servers.json', 'toolsdk-mcp-registry-servers.json'];
const realAvailable = REAL.every((file) => existsSync(`${DATA}${file}`));

/** Workers whatever the size of the text. */
const PARALLEL = { parallelFromBytes: 0, threads: 3 };

/** Small documents of every format, in an order whose sizes do not follow it (the threads' shares do not either). */
const SMALL = ['toolsdk-small.json', 'official-small.json', 'canary-docker.json', 'docker-small.json', 'canary-official.json', 'install-kinds.json', 'toolsdk-go.json'].map(fixture);

async function failureOf(read: Promise<unknown>): Promise<unknown> {
  return read.then(() => expect.fail('the read should have failed'), (err: unknown) => err);
}

describe('ingest reading documents on worker threads', function () {
  this.timeout(60_000);

  it('gives the records of every document in input order, as one thread does', async () => {
    const alone = readGroup(SMALL);
    expect(alone.failure).to.equal(null);
    const expected = alone.records.flat();
    expect(expected.length).to.be.greaterThan(SMALL.length);
    expect(await readInputs(SMALL, PARALLEL)).to.deep.equal(expected);
    expect(await readInputs(SMALL, { parallelFromBytes: 0, threads: 2 })).to.deep.equal(expected);
    expect(await readInputs(SMALL)).to.deep.equal(expected);
    expect(await readInputs([], PARALLEL)).to.deep.equal([]);
  });

  it(`reads the real upstream files alike on one thread and on three${realAvailable ? '' : ' (skipped: ../shared/data not found)'}`, async function () {
    if (!realAvailable) this.skip();
    const inputs: IngestInput[] = REAL.map((file) => ({ file, text: readFileSync(`${DATA}${file}`, 'utf8') }));
    const parallel = await readInputs(inputs, PARALLEL);
    expect(parallel).to.have.length(964 + 328 + 4548);
    expect(parallel).to.deep.equal(await readInputs(inputs, { threads: 1 }));
  });

  it('fails with the first bad document in input order, whichever thread read it, as an IngestError', async () => {
    const corrupt = fixture('corrupt-record.json');
    const truncated = fixture('truncated.json');
    const TWO = { parallelFromBytes: 0, threads: 2 };
    // Shares go largest first to the lightest thread, the calling one first: the corrupt
    // document (2 KB) is read here, the truncated one (51 bytes) on the worker.
    const onWorker = await failureOf(readInputs([truncated, corrupt], TWO));
    expect(onWorker).to.be.instanceOf(IngestError);
    expect((onWorker as IngestError).message).to.match(/^truncated\.json: record document: not valid JSON/);
    expect(onWorker).to.include({ file: 'truncated.json', record: 'document' });
    const here = await failureOf(readInputs([corrupt, truncated], TWO));
    expect(here).to.be.instanceOf(IngestError);
    expect((here as IngestError).message).to.equal('corrupt-record.json: record #1 (?): name must be a namespaced string like "io.github.owner/server"');
    for (const inputs of [[...SMALL, truncated, corrupt], [corrupt, ...SMALL, truncated]]) {
      const failure = await failureOf(readInputs(inputs, PARALLEL));
      const first = readGroup(inputs).error as IngestError;
      expect(failure).to.be.instanceOf(IngestError);
      expect(failure).to.include({ message: first.message, file: first.file, record: first.record, reason: first.reason });
    }
  });
});
