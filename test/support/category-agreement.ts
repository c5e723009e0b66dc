/**
 * How far the category rules (src/catalog/taxonomy.ts) agree with a person: the hand-labelled
 * real servers of test/fixtures/categories/labelled.json, each categorised from its own record in
 * ../shared/data as ingest does it (read, then materialized), compared with its labels.
 *
 * A server **agrees** when its primary (first) category is among its labels and none of its
 * categories is one the labeller would reject (every category is among its labels). Precision:
 * the share of all categories given that are among the labels. Primary: the share of servers
 * whose first category is among the labels.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readDocument } from '../../src/ingest/detect.js';
import { materialize } from '../../src/ingest/materialize.js';
import type { UpstreamServer } from '../../src/ingest/upstream.js';

export const DATA_DIR = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
export const DATA_FILES = ['official-registry-v0.1-snapshot-2025-12.json', 'docker-mcp-catalog-servers.json', 'toolsdk-mcp-registry-servers.json'] as const;
const LABELLED = fileURLToPath(new URL('../fixtures/categories/labelled.json', import.meta.url));

export interface LabelledServer {
  readonly file: string;
  readonly key: string;
  readonly labels: readonly string[];
  readonly labelFrom: string;
  /** Labelled after the rules were written, and not used to tune them. */
  readonly heldOut?: boolean;
}

export interface Judged extends LabelledServer {
  readonly categories: readonly string[];
  readonly agrees: boolean;
}

export interface Agreement {
  readonly servers: readonly Judged[];
  /** Share of servers that agree (see the file header). */
  readonly rate: number;
  readonly precision: number;
  readonly primary: number;
}

/** Whether ../shared/data is next to the checkout. */
export function dataAvailable(): boolean {
  return DATA_FILES.every((file) => existsSync(`${DATA_DIR}${file}`));
}

export function labelledServers(): LabelledServer[] {
  const parsed = JSON.parse(readFileSync(LABELLED, 'utf8')) as { servers: LabelledServer[] };
  return parsed.servers;
}

/** Every record of each data file by its key (the last record of a key wins, as in ingest). */
export function recordsByKey(files: readonly string[] = DATA_FILES): Map<string, UpstreamServer> {
  const records = new Map<string, UpstreamServer>();
  for (const file of files) {
    for (const { server } of readDocument({ file, text: readFileSync(`${DATA_DIR}${file}`, 'utf8') })) records.set(`${file}\u0000${server.key}`, server);
  }
  return records;
}

/** Categorises each labelled server from its record and compares with its labels. */
export function measureAgreement(labelled: readonly LabelledServer[] = labelledServers(), records = recordsByKey()): Agreement {
  const servers = labelled.map((server): Judged => {
    const record = records.get(`${server.file}\u0000${server.key}`);
    if (!record) throw new Error(`labelled server ${server.key} is not in ${server.file}`);
    const categories = materialize('labelled', [record]).server.categories;
    const agrees = server.labels.includes(categories[0] ?? '') && categories.every((c) => server.labels.includes(c));
    return { ...server, categories, agrees };
  });
  const given = servers.flatMap((s) => s.categories.map((c) => s.labels.includes(c)));
  return {
    servers,
    rate: share(servers.filter((s) => s.agrees).length, servers.length),
    precision: share(given.filter(Boolean).length, given.length),
    primary: share(servers.filter((s) => s.labels.includes(s.categories[0] ?? '')).length, servers.length),
  };
}

function share(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}
