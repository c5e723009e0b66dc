/**
 * The domains a person pastes or uploads: one per line, optionally followed by an exposure, as a
 * spreadsheet exports them (commas, semicolons or tabs; quoted cells; a header row).
 */
import { CsvError, parse } from 'csv-parse/sync';

export interface ListedDomain {
  readonly domain: string;
  readonly exposure?: number;
}

/** What an exposure field typed by a person says: none (empty), an amount, or not a number of zero or more. */
export type ExposureText = { readonly ok: true; readonly exposure: number | undefined } | { readonly ok: false };

/** "25,000", "25 000" and "25_000" read as 25000; empty is no exposure. */
export function readExposure(text: string): ExposureText {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, exposure: undefined };
  const exposure = Number(trimmed.replace(/[,_\s]/g, ''));
  return Number.isFinite(exposure) && exposure >= 0 ? { ok: true, exposure } : { ok: false };
}

/** The sentence a form shows for an exposure it cannot read. */
export const EXPOSURE_REFUSED = 'Exposure must be a number of zero or more, such as 25000, or left empty.';

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
    const read = readExposure(exposureText);
    if (!read.ok || read.exposure === undefined) return { ok: false, message: `Line ${index + 1} (${domain}): the exposure "${exposureText}" is not a number of zero or more.` };
    domains.push({ domain, exposure: read.exposure });
  }
  return { ok: true, domains };
}
