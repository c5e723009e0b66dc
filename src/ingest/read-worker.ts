/** A worker thread of ingest's read phase (read-inputs.ts): reads its share of the inputs into the spool, posting how many records it has read as it goes. */
import { parentPort, workerData } from 'node:worker_threads';
import { readShare, type WorkerMessage, type WorkerTask } from './read-inputs.js';

const { share, dir } = workerData as WorkerTask;
const post = (message: WorkerMessage): void => parentPort?.postMessage(message);
// Anything thrown outside a document's reading ends the thread with an 'error' its parent receives.
const read = await readShare(share, dir, (records) => post({ records }));
// The failure's own error object stays here: it crosses as its description.
post({ done: { parts: read.parts, failure: read.failure } });
