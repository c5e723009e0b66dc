/**
 * Where a run keeps the records it has read until it writes them: files in a
 * temporary folder, a file per input and source, so the run's memory holds a buffer and not the records.
 * Reading first and writing afterwards keeps two guarantees: a bad record stops the run before
 * anything is written, and merging knows every merge key of the run before it places a record.
 * A record is a frame of three length-prefixed UTF-8 parts: its identity (JSON), the normalized
 * server's JSON and the upstream document's JSON, the last two handed on as they are.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SourceName } from '../types.js';
import type { ReadRecord } from './read.js';

/** Bytes buffered before a write or read of a spool file. */
const BUFFER = 4 << 20;

interface Identity {
  readonly source: SourceName;
  readonly key: string;
  readonly name: string;
  readonly matchKeys: readonly string[];
  readonly recordHash: string;
}

/** A spooled file of one source's records from one input. */
export interface SpoolPart {
  readonly source: SourceName;
  /** The input's place in the run: parts of a source are read back in input order. */
  readonly input: number;
  readonly path: string;
  readonly records: number;
}

class SpoolFile {
  private readonly fd: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  records = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  append(record: ReadRecord): void {
    const identity: Identity = { source: record.source, key: record.key, name: record.name, matchKeys: record.matchKeys, recordHash: record.recordHash };
    for (const part of [JSON.stringify(identity), record.serverJson, record.rawJson]) {
      const bytes = Buffer.from(part, 'utf8');
      const length = Buffer.allocUnsafe(4);
      length.writeUInt32LE(bytes.length);
      this.pending.push(length, bytes);
      this.pendingBytes += 4 + bytes.length;
    }
    this.records += 1;
    if (this.pendingBytes >= BUFFER) this.flush();
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    const all = Buffer.concat(this.pending, this.pendingBytes);
    for (let at = 0; at < all.length; ) at += writeSync(this.fd, all, at, all.length - at);
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Writes what is buffered and closes the file. */
  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/**
 * Where the records of one input go, a file per source (an input is of one format, so nearly
 * always one). Used on whichever thread reads the input (read-inputs.ts).
 */
export class InputSpool {
  private readonly files = new Map<SourceName, SpoolFile>();

  constructor(
    private readonly dir: string,
    private readonly input: number,
  ) {}

  append(record: ReadRecord): void {
    let file = this.files.get(record.source);
    if (!file) {
      file = new SpoolFile(join(this.dir, `${this.input}-${record.source}.spool`));
      this.files.set(record.source, file);
    }
    file.append(record);
  }

  /** Closes the input's files; their parts. */
  close(): SpoolPart[] {
    return [...this.files].map(([source, file]) => {
      file.close();
      return { source, input: this.input, path: file.path, records: file.records };
    });
  }
}

/** The records of a part in the order they were appended. */
function* readPart(part: SpoolPart): Generator<ReadRecord> {
  const fd = openSync(part.path, 'r');
  try {
    let buffer = Buffer.alloc(0);
    let at = 0;
    let position = 0;
    /** Makes sure `bytes` bytes are buffered from `at` on, reading more of the file when needed. */
    const need = (bytes: number): boolean => {
      if (buffer.length - at >= bytes) return true;
      const rest = buffer.subarray(at);
      const next = Buffer.allocUnsafe(Math.max(BUFFER, bytes) + rest.length);
      rest.copy(next);
      let filled = rest.length;
      while (filled < next.length) {
        const read = readSync(fd, next, filled, next.length - filled, position);
        if (read === 0) break;
        filled += read;
        position += read;
      }
      buffer = next.subarray(0, filled);
      at = 0;
      return filled >= bytes;
    };
    const text = (): string => {
      if (!need(4)) throw new Error(`${part.path}: a spooled record ends early`);
      const length = buffer.readUInt32LE(at);
      if (!need(4 + length)) throw new Error(`${part.path}: a spooled record ends early`);
      const out = buffer.toString('utf8', at + 4, at + 4 + length);
      at += 4 + length;
      return out;
    };
    while (need(1)) {
      const identity = JSON.parse(text()) as Identity;
      yield { ...identity, serverJson: text(), rawJson: text() };
    }
  } finally {
    closeSync(fd);
  }
}

/** Folders of spools not yet removed; whatever ends the process removes them (see `Spool`). */
const live = new Set<string>();

function removeLive(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

/**
 * A run's spool: a folder of parts, read back source by source, each source's in input order.
 * A run removes it when it ends; should the process end first (process.exit on a second
 * signal, say), the process's exit removes it: it is larger than the input.
 */
export class Spool {
  readonly dir: string;
  private readonly parts: SpoolPart[] = [];

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'sextant-ingest-'));
    if (live.size === 0) process.once('exit', removeLive);
    live.add(this.dir);
  }

  /** Takes the parts an input was spooled into. */
  add(parts: readonly SpoolPart[]): void {
    this.parts.push(...parts);
  }

  /** Records of these sources, source by source in the order given, each in the order read. */
  *read(order: readonly SourceName[]): Generator<ReadRecord> {
    for (const source of order) {
      const parts = this.parts.filter((p) => p.source === source).sort((a, b) => a.input - b.input);
      for (const part of parts) yield* readPart(part);
    }
  }

  get sources(): SourceName[] {
    return [...new Set(this.parts.map((p) => p.source))];
  }

  get records(): number {
    return this.parts.reduce((sum, part) => sum + part.records, 0);
  }

  remove(): void {
    // Retried: a read thread being stopped may still create a part while the folder goes.
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
    live.delete(this.dir);
    if (live.size === 0) process.off('exit', removeLive);
  }
}
