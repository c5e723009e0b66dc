/**
 * A snapshot of the in-memory engine's indexes, saved in the catalog's own database for the
 * content generation it was built from (src/store/search-snapshots.ts), so an instance that
 * starts, or that follows a write another instance has already indexed, loads the indexes
 * instead of reading and tokenizing the whole catalog again.
 *
 * The indexes are typed arrays and a few lists of strings: each is a section, written as its
 * bytes (typed arrays) or JSON (strings, maps), in this machine's byte order. A snapshot is only
 * ever read by the code that wrote it: its fingerprint is a hash of this folder's files, so any
 * change to how indexes are built or read makes older snapshots unused (the store adds its schema);
 * so does the catalog's search text (catalog/search-text.ts).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { NameTable, ServerDocs, ToolDocs } from './memory-index.js';
import type { IndexSnapshot, SnapshotSection, StoredSnapshot } from './search-source.js';
import { TextIndex } from './text-index.js';
import type { CharacterClass, Unicode61 } from './unicode61.js';

/** Bumped when the layout below changes in a way the fingerprint would not see. */
const FORMAT = 3;

type Kind = SnapshotSection['kind'];
type Typed = Uint8Array | Int32Array | Uint32Array | Float64Array;

const ARRAYS: Readonly<Record<Exclude<Kind, 'json'>, new (length: number) => Typed>> = {
  u8: Uint8Array,
  i32: Int32Array,
  u32: Uint32Array,
  f64: Float64Array,
};

function kindOf(array: Typed): Exclude<Kind, 'json'> {
  if (array instanceof Uint8Array) return 'u8';
  if (array instanceof Int32Array) return 'i32';
  if (array instanceof Uint32Array) return 'u32';
  return 'f64';
}

let fingerprintOfCode: string | null = null;

/** The hash of the code that builds and reads indexes (this folder's modules), and of the format. */
export function snapshotFingerprint(): string {
  if (fingerprintOfCode === null) {
    const folder = fileURLToPath(new URL('.', import.meta.url));
    const hash = createHash('sha256').update(`format ${FORMAT} ${endianness()}\n`);
    for (const file of readdirSync(folder).filter((f) => /\.(js|ts|tsx)$/.test(f) && !f.endsWith('.d.ts')).sort()) {
      hash.update(`${file}\n`).update(readFileSync(new URL(file, import.meta.url)));
    }
    // The text the indexes are built from is made there too.
    const own = fileURLToPath(import.meta.url);
    const searchText = new URL(`../catalog/search-text${own.slice(own.lastIndexOf('.'))}`, import.meta.url);
    hash.update('search-text\n').update(readFileSync(searchText));
    fingerprintOfCode = hash.digest('hex');
  }
  return fingerprintOfCode;
}

interface Manifest {
  readonly format: number;
  readonly sections: ReadonlyArray<{ readonly name: string; readonly kind: Kind; readonly length: number }>;
  readonly tokens: { readonly servers: number; readonly tools: number };
}

/** The snapshot of built indexes: views of their arrays (nothing copied) and their strings as JSON. */
export function snapshotOf(servers: ServerDocs, tools: ToolDocs, tokenizer: Unicode61): IndexSnapshot {
  return snapshotAsBuilt(async () => servers, async () => tools, tokenizer);
}

/**
 * The snapshot of indexes built as their sections are asked for: the servers' index first, its
 * sections written, then the tools' (each JSON section made just before it is written). Written
 * as they are made, the servers' index is let go before the tools' is built: a write that saves a
 * snapshot for the instances (ingest, sync) holds one index at a time, not both.
 */
export function snapshotAsBuilt(buildServers: () => Promise<ServerDocs>, buildTools: () => Promise<ToolDocs>, tokenizer: Unicode61): IndexSnapshot {
  const described: Array<Manifest['sections'][number]> = [];
  const tokens = { servers: 0, tools: 0 };
  const section = (name: string, kind: Kind, length: number, data: Uint8Array): SnapshotSection => {
    described.push({ name, kind, length });
    return { name, kind, length, data };
  };
  const typed = (name: string, array: Typed): SnapshotSection =>
    section(name, kindOf(array), array.length, new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  const json = (name: string, value: unknown): SnapshotSection => {
    const data = Buffer.from(JSON.stringify(value));
    return section(name, 'json', data.length, data);
  };
  function* text(prefix: string, index: TextIndex): Generator<SnapshotSection, number> {
    const parts = index.parts();
    yield json(`${prefix}.vocabulary`, parts.vocabulary);
    yield typed(`${prefix}.postings`, parts.postings);
    yield typed(`${prefix}.start`, parts.start);
    yield typed(`${prefix}.docLengths`, parts.docLengths);
    yield typed(`${prefix}.rowids`, parts.rowids);
    return parts.tokens;
  }
  function* names(prefix: string, table: NameTable): Generator<SnapshotSection> {
    yield json(`${prefix}.names`, table.names);
    yield typed(`${prefix}.start`, table.start);
    yield typed(`${prefix}.docs`, table.docs);
  }
  function* serverSections(servers: ServerDocs): Generator<SnapshotSection> {
    tokens.servers = yield* text('servers.text', servers.text);
    yield typed('servers.idRank', servers.idRank);
    yield typed('servers.sourceCount', servers.sourceCount);
    yield typed('servers.nameLength', servers.nameLength);
    yield typed('servers.categories', servers.categories);
    yield json('servers.categoryBits', [...servers.categoryBits]);
    yield typed('servers.clean', servers.clean);
    yield typed('servers.flagged', servers.flagged);
    yield* names('servers.names', servers.names);
  }
  function* toolSections(tools: ToolDocs): Generator<SnapshotSection> {
    tokens.tools = yield* text('tools.text', tools.text);
    yield typed('tools.idRank', tools.idRank);
    yield* names('tools.names', tools.names);
    yield typed('tools.authentication', tools.authentication);
    yield json('tools.authenticationCodes', [...tools.authenticationCodes]);
    yield json('tokenizer', tokenizer.classes());
  }
  async function* sections(): AsyncGenerator<SnapshotSection> {
    yield* serverSections(await buildServers());
    yield* toolSections(await buildTools());
  }
  return {
    sections: sections(),
    manifest: () => JSON.stringify({ format: FORMAT, sections: described, tokens } satisfies Manifest),
  };
}

/** The indexes a stored snapshot holds; it throws if the snapshot is not whole and consistent. */
export async function indexesFromSnapshot(stored: StoredSnapshot, tokenizer: Unicode61): Promise<{ servers: ServerDocs; tools: ToolDocs }> {
  const manifest = JSON.parse(stored.manifest) as Manifest;
  if (manifest.format !== FORMAT) throw new Error(`search index snapshot format ${manifest.format}, expected ${FORMAT}`);
  const reader = new SectionReader(stored, manifest, tokenizer);
  // The characters first: the text indexes tokenize queries with them.
  tokenizer.learnCodes(await reader.json<Array<[number, CharacterClass]>>('tokenizer'));
  const serverText = await reader.text('servers.text', manifest.tokens.servers);
  const servers: ServerDocs = {
    text: serverText,
    idRank: await reader.typed('servers.idRank', Int32Array),
    sourceCount: await reader.typed('servers.sourceCount', Int32Array),
    nameLength: await reader.typed('servers.nameLength', Int32Array),
    categories: await reader.typed('servers.categories', Uint32Array),
    categoryBits: new Map(await reader.json<Array<[string, number]>>('servers.categoryBits')),
    clean: await reader.typed('servers.clean', Uint8Array),
    flagged: await reader.typed('servers.flagged', Uint8Array),
    names: await reader.names('servers.names', serverText.size),
  };
  check([servers.idRank, servers.sourceCount, servers.nameLength, servers.categories, servers.clean, servers.flagged].every((a) => a.length === serverText.size), 'servers');
  const toolText = await reader.text('tools.text', manifest.tokens.tools);
  const tools: ToolDocs = {
    text: toolText,
    idRank: await reader.typed('tools.idRank', Int32Array),
    names: await reader.names('tools.names', toolText.size),
    authentication: await reader.typed('tools.authentication', Uint8Array),
    authenticationCodes: new Map(await reader.json<Array<[string, number]>>('tools.authenticationCodes')),
  };
  check(tools.idRank.length === toolText.size && tools.authentication.length === toolText.size, 'tools');
  return { servers, tools };
}

/** Reads a stored snapshot's sections by name, as the manifest describes them, into memory of their own. */
class SectionReader {
  private readonly described: Map<string, Manifest['sections'][number]>;

  constructor(
    private readonly stored: StoredSnapshot,
    manifest: Manifest,
    private readonly tokenizer: Unicode61,
  ) {
    this.described = new Map(manifest.sections.map((s) => [s.name, s]));
  }

  async typed<T extends Typed>(name: string, type: new (length: number) => T): Promise<T> {
    const array = await this.read(name);
    if (!(array instanceof type) || this.described.get(name)?.kind === 'json') throw new Error(`search index snapshot section ${name} has the wrong type`);
    return array;
  }

  async json<T>(name: string): Promise<T> {
    return JSON.parse(Buffer.from(await this.read(name)).toString('utf8')) as T;
  }

  async text(prefix: string, tokens: number): Promise<TextIndex> {
    const vocabulary = await this.json<string[]>(`${prefix}.vocabulary`);
    const postings = await this.typed(`${prefix}.postings`, Uint8Array);
    const start = await this.typed(`${prefix}.start`, Float64Array);
    const docLengths = await this.typed(`${prefix}.docLengths`, Uint32Array);
    const rowids = await this.typed(`${prefix}.rowids`, Uint32Array);
    check(start.length === vocabulary.length + 1 && start[vocabulary.length] === postings.length && docLengths.length === rowids.length, prefix);
    return TextIndex.of(this.tokenizer, { vocabulary, postings, start, docLengths, rowids, tokens });
  }

  async names(prefix: string, size: number): Promise<NameTable> {
    const table: NameTable = {
      names: await this.json<string[]>(`${prefix}.names`),
      start: await this.typed(`${prefix}.start`, Int32Array),
      docs: await this.typed(`${prefix}.docs`, Int32Array),
      tiers: new Uint8Array(size),
    };
    check(table.start.length === table.names.length + 1 && table.start[table.names.length] === table.docs.length, prefix);
    return table;
  }

  private async read(name: string): Promise<Typed | Uint8Array> {
    const section = this.described.get(name);
    if (!section) throw new Error(`the search index snapshot has no section ${name}`);
    if (section.kind === 'json') {
      const data = new Uint8Array(section.length);
      await this.stored.readInto(name, data);
      return data;
    }
    const array = new ARRAYS[section.kind](section.length);
    await this.stored.readInto(name, new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
    return array;
  }
}

function check(consistent: boolean, what: string): void {
  if (!consistent) throw new Error(`the search index snapshot's ${what} sections do not agree`);
}
