/**
 * Upstream documents read as streams, record by record: the text goes through
 * @streamparser/json a chunk at a time and each record is normalized, scrubbed and handed on as
 * soon as its closing brace is read, so a document of any size is never held whole. The format
 * is told from the content: the first character (an array or an object) and the
 * first record. A document that is no list (a single `server.json`) is one record: read whole.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { JSONParser } from '@streamparser/json';
import { scrubValue } from '../catalog/secrets.js';
import type { SourceName } from '../types.js';
import { readDocument, type IngestInput } from './detect.js';
import { isDockerDocument, readDocker } from './docker.js';
import { isObject } from './upstream-fields.js';
import { entryName, listEntry, officialRecord, type OfficialEntry } from './official.js';
import { asRead, type ReadRecord } from './read.js';
import { isToolsdkDocument, readToolsdk } from './toolsdk.js';
import { fitRecord, IngestError, type IngestRecord } from './upstream.js';

/** Bytes (or characters of an in-memory text) handed to the parser at a time. */
const CHUNK = 1 << 20;

/** The text of an input, a chunk at a time: from its file, or from its text in memory. */
async function* chunksOf(input: IngestInput): AsyncGenerator<Uint8Array | string> {
  if (input.text !== undefined) {
    for (let at = 0; at < input.text.length; at += CHUNK) yield input.text.slice(at, at + CHUNK);
    return;
  }
  try {
    for await (const chunk of createReadStream(input.path, { highWaterMark: CHUNK })) yield chunk as Buffer;
  } catch (error) {
    throw new IngestError(input.file, 'document', `cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The first character that is not white space (or a byte order mark), or '' for an empty text. */
function firstCharacter(chunk: Uint8Array | string): string {
  const text = typeof chunk === 'string' ? chunk.slice(0, 64) : Buffer.from(chunk.subarray(0, 64)).toString('utf8');
  return /^[\s\uFEFF]*(.?)/.exec(text)?.[1] ?? '';
}

/** One record at a time: what every format reader turns a streamed value into. */
type Reader = (value: unknown, index: number) => IngestRecord[];

/**
 * The records of one input, in document order, each as ingest keeps it (ReadRecord). A document
 * that cannot be read fails with an IngestError naming the file and the record (or the position
 * in the text where the JSON broke).
 */
export async function* streamRecords(input: IngestInput): AsyncGenerator<ReadRecord> {
  const file = input.file;
  const chunks = chunksOf(input);
  const head = await chunks.next();
  const first = head.done ? '' : firstCharacter(head.value);
  if (first !== '[' && first !== '{') {
    if (first === '') throw notAnyFormat(file);
    throw new IngestError(file, 'document', `not valid JSON (it starts with "${first}")`);
  }
  const values = new ListValues(first === '[' ? '$.*' : '$.servers.*');
  const official = new OfficialGroups(file, input.source ?? 'official');
  let reader: Reader | null = first === '{' ? (value, index) => official.add(listEntry(value, index, file)) : null;
  let count = 0;
  const drain = function* (): Generator<ReadRecord> {
    for (const { value, index } of values.take()) {
      reader ??= readerFor(value, file);
      for (const record of reader(value, index)) yield readRecordOf(record, file);
      count += 1;
    }
  };
  if (!head.done) values.write(head.value);
  yield* drain();
  for await (const chunk of chunks) {
    values.write(chunk);
    yield* drain();
    if (values.failure !== null) break;
  }
  values.end();
  yield* drain();
  if (values.failure !== null) throw new IngestError(file, count === 0 ? 'document' : `document after record #${count - 1}`, `not valid JSON (${values.failure.message})`);
  if (first === '[' && count === 0) throw notAnyFormat(file);
  for (const record of official.flush()) yield readRecordOf(record, file);
  // An object without a `servers` list: a single server.json (or no upstream document), read whole.
  if (first === '{' && count === 0) {
    const text = input.text ?? (await readFile(input.path, 'utf8'));
    yield* readDocument({ file, text, ...(input.source ? { source: input.source } : {}) }).map(asRead);
  }
}

/** The elements of a JSON list at `path`, parsed as chunks of the text arrive; the first failure stops it. */
class ListValues {
  private readonly parser: JSONParser;
  private values: Array<{ value: unknown; index: number }> = [];
  failure: Error | null = null;

  constructor(path: string) {
    this.parser = new JSONParser({ paths: [path], keepStack: false, stringBufferSize: 0 });
    this.parser.onValue = ({ value, key }) => {
      this.values.push({ value, index: typeof key === 'number' ? key : this.values.length });
    };
    this.parser.onError = (error) => {
      this.failure ??= error;
    };
  }

  write(chunk: Uint8Array | string): void {
    if (this.failure === null) this.attempt(() => this.parser.write(chunk));
  }

  /** Ends the text: a list left open is a failure. */
  end(): void {
    if (this.failure === null && !this.parser.isEnded) this.attempt(() => this.parser.end());
  }

  /** The elements parsed since the last call. */
  take(): Array<{ value: unknown; index: number }> {
    const taken = this.values;
    this.values = [];
    return taken;
  }

  private attempt(step: () => void): void {
    try {
      step();
    } catch (error) {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
    }
  }
}

/** A record fitted to the catalog, its upstream document scrubbed, as ingest keeps it. */
function readRecordOf(record: IngestRecord, file: string): ReadRecord {
  return asRead(fitRecord({ server: record.server, raw: scrubValue(record.raw) }, file));
}

function notAnyFormat(file: string): IngestError {
  return new IngestError(file, 'document', 'not an official registry, Docker catalog or toolsdk document');
}

/** The reader of a list whose first element is `value` (the toolsdk export or the Docker catalog). */
function readerFor(value: unknown, file: string): Reader {
  if (isToolsdkDocument([value])) return (item, index) => readToolsdk([item], file, index);
  if (isDockerDocument([value])) return (item, index) => readDocker([item], file, index);
  throw notAnyFormat(file);
}

/**
 * The versions of one name arrive one after another (the registry lists them so): they are kept
 * until another name starts, then become one record. A name that comes back later in the same
 * document is a second record of it: the later one wins, as when a record comes in two files.
 */
class OfficialGroups {
  private name: string | null = null;
  private entries: OfficialEntry[] = [];

  constructor(
    private readonly file: string,
    private readonly source: SourceName,
  ) {}

  add(entry: OfficialEntry): IngestRecord[] {
    const name = entryName(entry, this.file);
    if (name === this.name) {
      this.entries.push(entry);
      return [];
    }
    const done = [...this.flush()];
    this.name = name;
    this.entries = [entry];
    return done;
  }

  *flush(): Generator<IngestRecord> {
    const record = this.name !== null && this.entries.length > 0 ? officialRecord(this.name, this.entries, this.file, this.source) : null;
    if (record) yield record;
    this.name = null;
    this.entries = [];
  }
}
