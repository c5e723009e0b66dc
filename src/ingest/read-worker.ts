/** A worker thread of ingest's read phase (read.ts): reads its share of the inputs and posts what it read. */
import { parentPort, workerData } from 'node:worker_threads';
import type { IngestInput } from './detect.js';
import { readGroup } from './read.js';

const { inputs } = workerData as { inputs: IngestInput[] };
const { records, failure } = readGroup(inputs);
// The failure's own error object stays here: it crosses as its description (GroupFailure).
parentPort?.postMessage({ records, failure });
