/**
 * A record as ingest keeps it once read (stream-read.ts): what placement needs, and the rest as
 * JSON text, which the spool stores and the writer stores as it is.
 */
import { createHash } from 'node:crypto';
import type { SourceName } from '../types.js';
import { matchKeysOf } from './merge-keys.js';
import type { IngestRecord, UpstreamServer } from './upstream.js';

/** A record as ingest keeps it once read; the server is parsed again when it is materialized (`serverOf`). */
export interface ReadRecord {
  readonly source: SourceName;
  readonly key: string;
  readonly name: string;
  readonly matchKeys: readonly string[];
  /** The normalized server, as stored in `sources.normalized`. */
  readonly serverJson: string;
  /** The scrubbed upstream document, as stored in `sources.record`. */
  readonly rawJson: string;
  /**
   * The hash of the record as it arrived, which tells an unchanged record on the next run:
   * `hashOf([server, raw])` (materialize.ts). Made where the record is read, on whichever thread
   * reads it (read-inputs.ts), not on the thread that writes.
   */
  readonly recordHash: string;
}

/** A read record from a normalized one. */
export function asRead({ server, raw }: IngestRecord): ReadRecord {
  const { source, key, name } = server;
  // JSON.stringify([server, raw]) writes an undefined raw as null: so does this.
  const serverJson = JSON.stringify(server);
  const rawJson = JSON.stringify(raw) ?? 'null';
  // The JSON of [server, raw], hashed in parts rather than joined first.
  const recordHash = createHash('sha256').update('[').update(serverJson).update(',').update(rawJson).update(']').digest('hex');
  return { source, key, name, matchKeys: matchKeysOf(server), serverJson, rawJson, recordHash };
}

/** The normalized server of a record, parsed from its JSON. */
export function serverOf(record: ReadRecord): UpstreamServer {
  return JSON.parse(record.serverJson) as UpstreamServer;
}

