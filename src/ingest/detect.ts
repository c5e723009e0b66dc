/** Reads one upstream document, detecting its format from the content (not the file name). */
import type { SourceName } from '../types.js';
import { scrubValue } from '../catalog/secrets.js';
import { isDockerDocument, readDocker } from './docker.js';
import { isOfficialDocument, readOfficial } from './official.js';
import { isToolsdkDocument, readToolsdk } from './toolsdk.js';
import { fitRecord, IngestError, type IngestRecord } from './upstream.js';

/** An upstream document: its text in memory, or the path of a file read as a stream. */
export type IngestInput = {
  /** Where the text came from, for messages. */
  readonly file: string;
  /** Overrides the source of official-format documents (the bundled demo catalog is `demo`, a server published here `publisher`). */
  readonly source?: Extract<SourceName, 'official' | 'demo' | 'publisher'>;
} & ({ readonly text: string; readonly path?: undefined } | { readonly path: string; readonly text?: undefined });

/** A document whose text is in memory. */
export type TextInput = Extract<IngestInput, { readonly text: string }>;

export type UpstreamFormat = 'official' | 'docker' | 'toolsdk';

export function detectFormat(doc: unknown): UpstreamFormat | null {
  if (isOfficialDocument(doc)) return 'official';
  if (isToolsdkDocument(doc)) return 'toolsdk';
  if (isDockerDocument(doc)) return 'docker';
  return null;
}

/** Parses, detects and reads a document; every record comes back with its raw form scrubbed. */
export function readDocument(input: TextInput): IngestRecord[] {
  let doc: unknown;
  try {
    doc = JSON.parse(input.text);
  } catch (err) {
    throw new IngestError(input.file, 'document', `not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const format = detectFormat(doc);
  const records = (() => {
    switch (format) {
      case 'official':
        return readOfficial(doc, input.file, input.source ?? 'official');
      case 'docker':
        return readDocker(Array.isArray(doc) ? doc : [], input.file);
      case 'toolsdk':
        return readToolsdk(Array.isArray(doc) ? doc : [], input.file);
      default:
        throw new IngestError(input.file, 'document', 'not an official registry, Docker catalog or toolsdk document');
    }
  })();
  return records.map((record) => fitRecord({ server: record.server, raw: scrubValue(record.raw) }, input.file));
}
