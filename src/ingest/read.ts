/**
 * The read phase of ingest: every input document parsed, normalized, scrubbed and turned into
 * the records placement and the writer need (ReadRecord). Large runs of several documents are
 * read on worker threads beside the main one: reading is pure work on the text, nothing else
 * can start before every document is read (a bad one aborts the run), and the main thread is
 * otherwise the only one busy, leaving the machine's other cores idle.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SourceName } from '../types.js';
import { readDocument, type IngestInput } from './detect.js';
import { matchKeysOf } from './merge-keys.js';
import { IngestError, type IngestRecord, type UpstreamServer } from './upstream.js';

/**
 * A record as ingest keeps it once read: what placement needs, and the rest as JSON text. A run
 * holds every record until it is written; as text, a record is a few strings the garbage
 * collector never looks into, where the parsed server was hundreds of objects it traced on
 * every full collection. The server is parsed again when it is materialized (`serverOf`).
 */
export interface ReadRecord {
  readonly source: SourceName;
  readonly key: string;
  readonly name: string;
  readonly matchKeys: readonly string[];
  /** The normalized server, as stored in `sources.normalized`. */
  readonly serverJson: string;
  /** The scrubbed upstream document, as stored in `sources.record`. */
  readonly rawJson: string;
}

function asRead({ server, raw }: IngestRecord): ReadRecord {
  const { source, key, name } = server;
  // JSON.stringify([server, raw]) writes an undefined raw as null: so does this.
  return { source, key, name, matchKeys: matchKeysOf(server), serverJson: JSON.stringify(server), rawJson: JSON.stringify(raw) ?? 'null' };
}

/** The normalized server of a record, parsed from its JSON. */
export function serverOf(record: ReadRecord): UpstreamServer {
  return JSON.parse(record.serverJson) as UpstreamServer;
}

/** Why a group of inputs stopped: the failing input's place in the group, and the error as it can cross threads. */
interface GroupFailure {
  readonly at: number;
  readonly ingest: { readonly file: string; readonly record: string; readonly reason: string } | null;
  readonly message: string;
}

/** What reading a group of inputs gave: the records of each input up to the first that failed. */
export interface GroupRead {
  readonly records: ReadRecord[][];
  readonly failure: GroupFailure | null;
  /** The failure itself, when it happened on this thread. */
  readonly error?: unknown;
}

/** Reads inputs in order, stopping at the first that fails. Runs on the main thread and in read-worker. */
export function readGroup(inputs: readonly IngestInput[]): GroupRead {
  const records: ReadRecord[][] = [];
  for (const input of inputs) {
    try {
      records.push(readDocument(input).map(asRead));
    } catch (error) {
      const ingest = error instanceof IngestError ? { file: error.file, record: error.record, reason: error.reason } : null;
      return { records, failure: { at: records.length, ingest, message: error instanceof Error ? error.message : String(error) }, error };
    }
  }
  return { records, failure: null };
}

export interface ReadOptions {
  /** Total text below which every input is read on the main thread (starting a worker costs more). */
  readonly parallelFromBytes?: number;
  /** Threads to read on at most, the main one included. */
  readonly threads?: number;
}

/** Below this much text a worker's start (its own module graph) outweighs what it saves. */
const PARALLEL_FROM_BYTES = 16 * 2 ** 20;
const MAX_THREADS = 4;

/**
 * The records of every input, in input order, as reading them one after another would give,
 * or that reading's first failure. Inputs are shared among threads by size.
 */
export async function readInputs(inputs: readonly IngestInput[], options: ReadOptions = {}): Promise<ReadRecord[]> {
  const bytes = inputs.reduce((sum, input) => sum + input.text.length, 0);
  const threads = bytes < (options.parallelFromBytes ?? PARALLEL_FROM_BYTES) ? 1 : Math.min(options.threads ?? availableParallelism(), MAX_THREADS, inputs.length);
  const groups = shareBySize(inputs, threads);
  const inputsOf = (group: readonly number[] = []): IngestInput[] => group.map((i) => inputs[i] as IngestInput);
  // The workers start first, then the main thread reads its own share.
  const others = groups.slice(1).map((group) => readOnWorker(inputsOf(group)));
  const own = readGroup(inputsOf(groups[0]));
  const reads = [own, ...(await Promise.all(others))];

  const perInput: ReadRecord[][] = [];
  let first: { readonly index: number; readonly read: GroupRead; readonly failure: GroupFailure } | null = null;
  for (const [g, group] of groups.entries()) {
    const read = reads[g] as GroupRead;
    for (const [at, records] of read.records.entries()) perInput[group[at] as number] = records;
    const { failure } = read;
    const index = failure === null ? undefined : group[failure.at];
    if (failure !== null && index !== undefined && (first === null || index < first.index)) first = { index, read, failure };
  }
  if (first !== null) throw failureOf(first);
  return perInput.flat();
}

function failureOf({ read, failure }: { readonly read: GroupRead; readonly failure: GroupFailure }): unknown {
  if ('error' in read) return read.error;
  return failure.ingest ? new IngestError(failure.ingest.file, failure.ingest.record, failure.ingest.reason) : new Error(failure.message);
}

/** Input indexes in `threads` groups of about equal text, each in input order. */
function shareBySize(inputs: readonly IngestInput[], threads: number): number[][] {
  const groups = Array.from({ length: Math.max(1, threads) }, () => ({ bytes: 0, indexes: [] as number[] }));
  const largestFirst = inputs.map((input, index) => ({ index, bytes: input.text.length })).sort((a, b) => b.bytes - a.bytes || a.index - b.index);
  for (const { index, bytes } of largestFirst) {
    const lightest = groups.reduce((min, group) => (group.bytes < min.bytes ? group : min));
    lightest.bytes += bytes;
    lightest.indexes.push(index);
  }
  return groups.map((group) => group.indexes.sort((a, b) => a - b)).filter((indexes) => indexes.length > 0);
}

/** This module's extension: `.js` when built, `.ts` when run from source (tests, `npm run sextant`). */
const EXTENSION = extname(fileURLToPath(import.meta.url));
const WORKER = new URL(`./read-worker${EXTENSION}`, import.meta.url);

function startWorker(workerData: { readonly inputs: readonly IngestInput[] }): Worker {
  if (EXTENSION !== '.ts') return new Worker(WORKER, { workerData });
  // From source the worker needs tsx, whose loader a worker thread does not inherit: it
  // registers tsx's require hook (tsx/cjs/api), then requires the worker's module through it.
  const tsx = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const boot = `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(fileURLToPath(WORKER))});`;
  return new Worker(boot, { eval: true, workerData });
}

function readOnWorker(inputs: readonly IngestInput[]): Promise<GroupRead> {
  return new Promise((resolve, reject) => {
    const worker = startWorker({ inputs });
    // Answered once its message is here: the thread's exit (its heap torn down) is not waited for.
    worker.once('message', (read: GroupRead) => resolve(read));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`an ingest read worker stopped (exit code ${code}) before it answered`)));
  });
}
