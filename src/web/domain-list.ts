/**
 * The domains a person pastes or uploads: one per line, optionally followed by an exposure, as a
 * spreadsheet exports them (commas, semicolons or tabs; quoted cells; a header row).
 */
import { CsvError, parse } from 'csv-parse/sync';

export interface ListedDomain {
  readonly domain: string;
  readonly exposure?: number;
}

export type DomainList = { readonly ok: true; readonly domains: ListedDomain[] } | { readonly ok: false; readonly message: string };

/** Header cells a spreadsheet's first row may name the domain column with. */
const HEADERS: ReadonlySet<string> = new Set(['domain', 'domains', 'website', 'web site', 'url', 'company domain']);

export function parseDomainList(text: string, maxDomains: number): DomainList {
  let rows: string[][];
  try {
    rows = parse(text, { delimiter: [',', ';', '\t'], relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (err) {
    if (err instanceof CsvError) return { ok: false, message: `The list could not be read as lines or CSV: ${err.message}` };
    throw err;
  }
  const listed = rows.filter((row) => (row[0] ?? '') !== '');
  const body = HEADERS.has((listed[0]?.[0] ?? '').toLowerCase()) ? listed.slice(1) : listed;
  if (body.length === 0) return { ok: false, message: 'Enter at least one domain, one per line.' };
  if (body.length > maxDomains) return { ok: false, message: `A list may hold at most ${maxDomains} domains; this one has ${body.length}.` };
  const domains: ListedDomain[] = [];
  for (const [index, [domain = '', exposureText = '']] of body.entries()) {
    if (exposureText === '') {
      domains.push({ domain });
      continue;
    }
    const exposure = Number(exposureText.replace(/[,_\s]/g, ''));
    if (!Number.isFinite(exposure) || exposure < 0) return { ok: false, message: `Line ${index + 1} (${domain}): the exposure "${exposureText}" is not a number of zero or more.` };
    domains.push({ domain, exposure });
  }
  return { ok: true, domains };
}
