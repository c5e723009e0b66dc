/**
 * Snapshots of the in-memory search engine's indexes (src/search/index-snapshot.ts), kept in the
 * catalog's database for the content generation they were built at: on SQLite for
 * the next start, on PostgreSQL for every instance. A snapshot is a header (its sections, as
 * JSON) and its sections' bytes in pieces of at most 8 MiB, the header written last (on
 * PostgreSQL all in one transaction): a reader sees a whole snapshot or none. Keeping one lets
 * the others go.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { dialectOf, type Db } from './db.js';

/** One part of an index snapshot (src/search/index-snapshot.ts): a typed array's bytes, or JSON text. */
export interface SnapshotSection {
  readonly name: string;
  readonly kind: 'u8' | 'i32' | 'u32' | 'f64' | 'json';
  /** Elements of a typed array; bytes of JSON. */
  readonly length: number;
  readonly data: Uint8Array;
}

/**
 * A snapshot to keep: its sections, in the order they are written (they may be made as they are
 * asked for, each let go once written), then what they are (JSON), asked once all are written.
 */
export interface IndexSnapshot {
  readonly sections: Iterable<SnapshotSection> | AsyncIterable<SnapshotSection>;
  manifest(): string;
}

/** A kept snapshot, read a section at a time into memory the reader allocates. */
export interface StoredSnapshot {
  readonly manifest: string;
  /** Fills `into` with the section's bytes; it throws unless they are exactly as many. */
  readInto(section: string, into: Uint8Array): Promise<void>;
  /** Lets go of what reading it held (its connection); called once the sections are read. */
  close(): Promise<void>;
}

/** Where the in-memory engine keeps snapshots of its indexes, per content generation (the catalog's database). */
export interface IndexSnapshots {
  /** The snapshot made at `generation` by code of `fingerprint`, or null. */
  find(generation: string, fingerprint: string): Promise<StoredSnapshot | null>;
  /** Keeps `snapshot` for `generation`, and lets snapshots of other generations go. */
  save(generation: string, fingerprint: string, snapshot: IndexSnapshot): Promise<void>;
}

/** The largest piece of a section in one row. */
const PIECE_BYTES = 8 * 1024 * 1024;

/**
 * `schema` names the catalog's schema (its last migration): a migration may change what indexes
 * are built from without a catalog write, so snapshots made under another schema are not used.
 * `reader`, if given, opens the connection a snapshot is read on (closed when it has been read),
 * so its pieces do not queue behind the searches on SQLite's one connection.
 */
export function createSearchSnapshots(db: Db, schema: string, reader?: () => Db): IndexSnapshots {
  const keyOf = (fingerprint: string): string => `${fingerprint}:${schema}`;
  return {
    find: (generation, fingerprint) => findSnapshot(db, reader?.() ?? db, generation, keyOf(fingerprint)),
    async save(generation, fingerprint, snapshot) {
      const write = (on: Db | Knex.Transaction): Promise<void> => writeSnapshot(on, generation, keyOf(fingerprint), snapshot);
      // PostgreSQL writes it in one transaction, which blocks no reader. SQLite's one connection
      // would serve nothing else meanwhile, so there each piece is its own write and the header
      // comes last: a reader finds no snapshot until every piece is there. Inside a catalog
      // write's transaction (ingest, sync), that transaction is the one.
      if (dialectOf(db) === 'postgres' && !db.isTransaction) await db.transaction(write);
      else await write(db);
    },
  };
}

/** The newest snapshot saved for `generation` under `key`, read on `on` (closed after, unless it is `db`). */
async function findSnapshot(db: Db, on: Db, generation: string, key: string): Promise<StoredSnapshot | null> {
  const close = async (): Promise<void> => {
    if (on !== db) await on.destroy();
  };
  let header: { id: string; manifest: string } | undefined;
  try {
    header = await on('search_snapshots').where({ generation, fingerprint: key }).orderBy('created_at', 'desc').first('id', 'manifest');
  } catch (err) {
    await close();
    throw err;
  }
  if (!header) {
    await close();
    return null;
  }
  const { id } = header;
  return { manifest: header.manifest, close, readInto: (section, into) => readSection(on, id, section, into) };
}

/** Fills `into` with a section's pieces; throws unless they are exactly as many bytes. */
async function readSection(on: Db, snapshotId: string, section: string, into: Uint8Array): Promise<void> {
  let at = 0;
  for (let piece = 0; ; piece += 1) {
    const row: { bytes: Buffer } | undefined = await on('search_snapshot_parts').where({ snapshot_id: snapshotId, section, piece }).first('bytes');
    if (!row) break;
    if (at + row.bytes.length > into.length) throw new Error(`search index snapshot section ${section} is longer than its header says`);
    into.set(row.bytes, at);
    at += row.bytes.length;
  }
  if (at !== into.length) throw new Error(`search index snapshot section ${section} holds ${at} of its ${into.length} bytes`);
}

/** Writes a snapshot's pieces, then its header, then lets every other snapshot go. */
async function writeSnapshot(on: Db | Knex.Transaction, generation: string, key: string, snapshot: IndexSnapshot): Promise<void> {
  const id = randomUUID();
  for await (const section of snapshot.sections) {
    const { data } = section;
    for (let piece = 0, from = 0; from < data.length || piece === 0; piece += 1, from += PIECE_BYTES) {
      // A view of the section's own memory: nothing is copied to be written.
      const bytes = Buffer.from(data.buffer, data.byteOffset + from, Math.min(PIECE_BYTES, data.length - from));
      await on('search_snapshot_parts').insert({ snapshot_id: id, section: section.name, piece, bytes });
    }
  }
  await on('search_snapshots').insert({ id, generation, fingerprint: key, manifest: snapshot.manifest(), created_at: new Date().toISOString() });
  // The other snapshots will not be read again (this one is newer), nor pieces with no header
  // (a save cut off before its header).
  await on('search_snapshots').whereNot({ id }).delete();
  await on('search_snapshot_parts').whereNotIn('snapshot_id', on('search_snapshots').select('id')).delete();
}
