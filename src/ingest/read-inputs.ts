/**
 * The read phase of ingest: every input streamed, normalized and scrubbed into the run's spool.
 * Nothing else can run meanwhile (a bad record must stop the run before anything is written), so
 * a run of several large documents reads them on worker threads beside the main one: each thread
 * reads its share in input order, spools each input apart, and tells the main thread how many
 * records it has read as it goes (for progress). The spool is read back in input order and
 * the first failure in input order is thrown, so the run is the same whichever thread read what.
 */
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { IngestInput } from './detect.js';
import { InputSpool, type Spool, type SpoolPart } from './spool.js';
import { streamRecords } from './stream-read.js';
import { IngestError } from './upstream.js';
import type { ReadRecord } from './read.js';

/** An input to read, with its place in the run. */
export interface PlacedInput {
  readonly index: number;
  readonly input: IngestInput;
}

/** Why a share stopped: the failing input's place in the run, and the error as it can cross threads. */
interface ShareFailure {
  readonly index: number;
  readonly ingest: { readonly file: string; readonly record: string; readonly reason: string } | null;
  readonly message: string;
}

/** What a thread read of its share: the spooled parts of the inputs it read, and its first failure. */
export interface ShareRead {
  readonly parts: SpoolPart[];
  readonly failure: ShareFailure | null;
  /** The failure itself, when it happened on this thread. */
  readonly error?: unknown;
}

/** Records counted together before the count is handed on. */
const RECORDS_PER_MESSAGE = 1000;

/**
 * Reads a share of the inputs in order into `dir`, stopping at the first that fails (or when
 * `signal` aborts); hands on how many records it read, a run at a time. Runs on the main thread and in
 * read-worker.ts (a worker is stopped instead).
 */
export async function readShare(share: readonly PlacedInput[], dir: string, onRecords: (records: number) => void, signal?: AbortSignal): Promise<ShareRead> {
  const parts: SpoolPart[] = [];
  let records = 0;
  const handOn = (): void => {
    if (records === 0) return;
    onRecords(records);
    records = 0;
  };
  for (const { index, input } of share) {
    const spool = new InputSpool(dir, index);
    try {
      for await (const record of streamRecords(input)) {
        signal?.throwIfAborted();
        spool.append(record);
        records += 1;
        if (records === RECORDS_PER_MESSAGE) handOn();
      }
    } catch (error) {
      spool.close();
      handOn();
      const ingest = error instanceof IngestError ? { file: error.file, record: error.record, reason: error.reason } : null;
      return { parts, failure: { index, ingest, message: error instanceof Error ? error.message : String(error) }, error };
    }
    parts.push(...spool.close());
  }
  handOn();
  return { parts, failure: null };
}



export interface ReadOptions {
  /** Total text below which every input is read on the main thread (starting a worker costs more). */
  readonly parallelFromBytes?: number;
  /** Threads to read on at most, the main one included. */
  readonly threads?: number;
  /** Stops the read: the main thread at its next record, workers at once; the read throws the signal's reason. */
  readonly signal?: AbortSignal;
}

/** Below this much text a worker's start (its own module graph) outweighs what it saves. */
const PARALLEL_FROM_BYTES = 16 * 2 ** 20;
const MAX_THREADS = 4;

/**
 * Reads every input into `spool`, shared among threads by size; `onHashes` gets every record's
 * record counts (in no particular order across threads). Throws the first failure in input order.
 */
export async function readInputs(inputs: readonly IngestInput[], spool: Spool, onRecords: (records: number) => void, options: ReadOptions = {}): Promise<void> {
  const signal = options.signal;
  signal?.throwIfAborted();
  const sizes = inputs.map(sizeOf);
  const bytes = sizes.reduce((sum, size) => sum + size, 0);
  const threads = inputs.length < 2 || bytes < (options.parallelFromBytes ?? PARALLEL_FROM_BYTES) ? 1 : Math.min(options.threads ?? availableParallelism(), MAX_THREADS, inputs.length);
  const shares = shareBySize(sizes, threads).map((share) => share.map((index) => ({ index, input: inputs[index] as IngestInput })));
  // The workers start first, then the main thread reads its own share.
  const others = shares.slice(1).map((share) => readOnWorker(share, spool.dir, onRecords, signal));
  const own = await readShare(shares[0] ?? [], spool.dir, onRecords, signal).catch((error: unknown) => ({ parts: [], failure: { index: -1, ingest: null, message: String(error) }, error }));
  // Every thread is done with the spool's folder before the run goes on (or removes it).
  const settled = await Promise.allSettled(others);
  const reads: ShareRead[] = [own];
  for (const result of settled) {
    if (result.status === 'rejected') throw result.reason;
    reads.push(result.value);
  }
  const failed = reads.filter((read) => read.failure !== null).sort((a, b) => (a.failure?.index ?? 0) - (b.failure?.index ?? 0))[0];
  if (failed?.failure) throw failureOf(failed, failed.failure);
  for (const read of reads) spool.add(read.parts);
}

function failureOf(read: ShareRead, failure: ShareFailure): unknown {
  if ('error' in read) return read.error;
  return failure.ingest ? new IngestError(failure.ingest.file, failure.ingest.record, failure.ingest.reason) : new Error(failure.message);
}

/** An input's size: its file's, or its text's length. */
function sizeOf(input: IngestInput): number {
  if (input.text !== undefined) return input.text.length;
  try {
    return statSync(input.path).size;
  } catch {
    // Reading it fails, naming it, on whichever thread it falls to.
    return 0;
  }
}

/** Input indexes in `threads` shares of about equal size, each in input order. */
function shareBySize(sizes: readonly number[], threads: number): number[][] {
  const shares = Array.from({ length: Math.max(1, threads) }, () => ({ bytes: 0, indexes: [] as number[] }));
  const largestFirst = sizes.map((bytes, index) => ({ index, bytes })).sort((a, b) => b.bytes - a.bytes || a.index - b.index);
  for (const { index, bytes } of largestFirst) {
    const lightest = shares.reduce((min, share) => (share.bytes < min.bytes ? share : min));
    lightest.bytes += bytes;
    lightest.indexes.push(index);
  }
  return shares.map((share) => share.indexes.sort((a, b) => a - b)).filter((indexes) => indexes.length > 0);
}

/** The worker's module, built beside this one (from source, scripts/tsx-in-workers.mjs loads it through tsx). */
const READ_WORKER = new URL('./read-worker.js', import.meta.url);

/** What a read worker is given. */
export interface WorkerTask {
  readonly share: readonly PlacedInput[];
  readonly dir: string;
}

/** What a read worker posts: how many records it has read as it goes, then what it read. */
export type WorkerMessage = { readonly records: number } | { readonly done: ShareRead };

function readOnWorker(share: readonly PlacedInput[], dir: string, onRecords: (records: number) => void, signal: AbortSignal | undefined): Promise<ShareRead> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(READ_WORKER, { workerData: { share, dir } satisfies WorkerTask });
    // Settled only once the thread has exited, so nothing writes into the spool after it.
    const stop = (): void => void worker.terminate();
    signal?.addEventListener('abort', stop, { once: true });
    worker.on('message', (message: WorkerMessage) => {
      if ('done' in message) resolve(message.done);
      else onRecords(message.records);
    });
    worker.once('error', reject);
    // Its last message is handled before its exit is: a worker that answered has settled this already.
    worker.once('exit', (code) => {
      signal?.removeEventListener('abort', stop);
      reject(signal?.aborted ? signal.reason : new Error(`an ingest read worker stopped (exit code ${code}) before it answered`));
    });
  });
}
