/**
 * The company numbers, VAT IDs and registered addresses a page states, found in its visible text
 * by the patterns below, and the links to the pages that usually state them (imprint, legal,
 * about). Page text is hostile: values and their context are capped and never hold markup.
 */
import { pageLinks, visibleText } from './html.js';

/** One identifier as the page states it. */
export interface LegalIdentifier {
  readonly kind: string;
  readonly value: string;
  /** The URL of the page that states it. */
  readonly foundAt: string;
  /** The words around it on that page (visible text only). */
  readonly context: string;
}

interface IdentifierPattern {
  readonly kind: string;
  /** Global; group 1 holds the value. */
  readonly pattern: RegExp;
  /** The value as reported, or null when the match is not one after all. */
  readonly clean: (raw: string) => string | null;
}

const MAX_VALUE_CHARS = 40;
const MAX_ADDRESS_CHARS = 160;
const CONTEXT_CHARS = 40;
const MAX_IDENTIFIERS = 20;

/** Page text may hold decoded markup (`&lt;b&gt;`): angle brackets are dropped from what is kept. */
const collapse = (raw: string): string => raw.replace(/[<>]/g, ' ').replace(/\s+/g, ' ').trim();
const digitsOnly = (raw: string): string => raw.replace(/[\s.-]/g, '');
const upper = (raw: string): string => collapse(raw).toUpperCase();
/** EU VAT IDs: a country prefix in capitals (Austria's ATU, Greece's EL), then 8 to 14 digits or capitals. */
const vatId = (raw: string): string | null => {
  const id = digitsOnly(raw);
  return /^(?:ATU|[A-Z]{2})[0-9A-Z]{8,14}$/.test(id) && /\d{6}/.test(id) ? id : null;
};
const address = (raw: string): string | null => {
  const text = collapse(raw).replace(/[\s,;:–-]+$/, '');
  return text.length < 2 ? null : text.slice(0, MAX_ADDRESS_CHARS);
};

const NUMBER_WORD = String.raw`(?:no\b\.?|nr\b\.?|number|n[°º]\.?)`;
const EU_PREFIX = 'ATU|AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI';
const VAT_LABEL = String.raw`(?:VAT|USt\.?[\s-]*Id(?:ent)?\.?[\s-]*Nr\.?|Umsatzsteuer[\s-]*Identifikationsnummer|UID(?:[\s-]*Nr\.?)?|TVA(?:\s+intracommunautaire)?|BTW|P\.?\s?IVA|IVA|NIF)`;
/** Where a stated address ends: the line's end, a separator, a sentence's end (not an abbreviation's) or the next label; else it is cut. */
const ADDRESS_END = String.raw`(?:$|\s[|•·]\s|(?<!\b(?:St|Str|Rd|Ave|No|Nr|Co|Ltd|Inc|Ste|Mt|Pl|Sq|Blvd|Dr))\.\s|\s(?:company|registered|vat|tel|telephone|phone|e-?mail|fax|handelsregister|registergericht|amtsgericht|ust|gesch[äa]ftsf[üu]hrer|directors?|siret|siren|rcs|capital)\b)`;

/** The identifiers looked for, each with the words that must introduce it; matched line by line. */
const IDENTIFIER_PATTERNS: readonly IdentifierPattern[] = [
  // UK Companies House: "Company No. 12345678", "Registered in England and Wales no. 12345678", "SC123456".
  {
    kind: 'uk_company_number',
    pattern: new RegExp(String.raw`\b(?:company\s+(?:registration\s+)?${NUMBER_WORD}|registered\s+in\s+(?:england(?:\s*(?:and|&)\s*wales)?|wales|scotland|northern\s+ireland)(?:[\s,]+(?:under\s+|with\s+)?(?:company\s+)?(?:registration\s+)?${NUMBER_WORD})?)[\s:#.,]*([a-z]{2}\d{6}|\d{6,8})\b`, 'gi'),
    clean: upper,
  },
  // German Handelsregister: "HRB 12345", "HRA 1234", "HRB 123456 B" (Berlin); the abbreviation is always in capitals.
  { kind: 'de_commercial_register', pattern: /\b(HR[AB]\s*\d{1,6}(?:\s?[A-Z]\b)?)/g, clean: (raw) => collapse(raw).replace(/^(HR[AB])\s*/, '$1 ') },
  // EU VAT IDs after "VAT", "USt-IdNr.", "TVA", "BTW", "IVA"…: "DE123456789", "GB 123 4567 89", "NL123456789B01".
  {
    kind: 'vat_id',
    pattern: new RegExp(String.raw`\b${VAT_LABEL}(?:[\s-]*(?:reg(?:istration)?\.?\s*)?(?:id\b|identification|nummer|${NUMBER_WORD}))*[\s:#.]*((?:${EU_PREFIX})(?:[\s.-]?\d[0-9A-Z]*){1,5})`, 'gi'),
    clean: vatId,
  },
  // French SIRET (14 digits) and SIREN (9 digits, also after "RCS <town>").
  { kind: 'fr_siret', pattern: /\bSIRET\b[\s:#.]*(?:n[°º]\.?\s*)?(\d{3}\s?\d{3}\s?\d{3}\s?\d{5})\b/gi, clean: digitsOnly },
  { kind: 'fr_siren', pattern: /\b(?:SIREN|RCS\b[^\d]{1,40}?)[\s:#.]*(?:n[°º]\.?\s*)?(\d{3}\s?\d{3}\s?\d{3})\b(?!\s?\d)/gi, clean: digitsOnly },
  // Dutch Kamer van Koophandel: "KvK 12345678", "KvK-nummer: 12345678".
  { kind: 'nl_kvk', pattern: /\b(?:KvK|Kamer\s+van\s+Koophandel)(?:[\s-]*(?:nummer|nr\b\.?|no\b\.?|number))?[\s:#.]*(\d{8})\b/gi, clean: digitsOnly },
  // Australian Business Number: "ABN 51 824 753 556".
  { kind: 'au_abn', pattern: /\bABN\b[\s:#.]*(\d{2}\s?\d{3}\s?\d{3}\s?\d{3})\b/g, clean: digitsOnly },
  // US Employer Identification Number, only when labelled so ("EIN 12-3456789"): nine digits alone could be anything.
  { kind: 'us_ein', pattern: /\b(?:EIN|Employer Identification Number)\b[\s:#.]*(\d{2}-\d{7})\b/g, clean: collapse },
  // The registered address, after "Registered office:", "Registered address:", "Sitz:", "Siège social :".
  {
    kind: 'registered_address',
    pattern: new RegExp(String.raw`\b(?:registered\s+(?:office|address)(?:\s+address)?|sitz(?:\s+der\s+gesellschaft)?|si[èe]ge\s+social)\s*(?:[:–-]|\bis\b|\bat\b)\s*(.{2,200}?(?=${ADDRESS_END})|.{200})`, 'gi'),
    clean: address,
  },
];

/** Tags that end a line of visible text; marked before the text is flattened, so lines survive. */
const LINE_BREAK_TAGS = /<(?:br|hr|\/?(?:p|div|li|ul|ol|tr|td|th|table|h[1-6]|address|section|article|footer|header|nav|dd|dt|dl|blockquote|main|aside))\b[^>]*>/gi;
const LINE_MARK = '\uE000';

/** The visible text of a page (no scripts, styles or tags), one string per line or block. */
export function textLines(html: string): string[] {
  return visibleText(html.replace(LINE_BREAK_TAGS, `${LINE_MARK}$&`))
    .split(LINE_MARK)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

function around(line: string, start: number, end: number): string {
  const from = Math.max(0, start - CONTEXT_CHARS);
  const to = Math.min(line.length, end + CONTEXT_CHARS);
  return `${from > 0 ? '…' : ''}${collapse(line.slice(from, to))}${to < line.length ? '…' : ''}`;
}

/** The identifiers stated in a page's lines, each kind and value once, at most 20. */
export function findIdentifiers(lines: readonly string[], foundAt: string): LegalIdentifier[] {
  const found: LegalIdentifier[] = [];
  for (const line of lines) {
    for (const { kind, pattern, clean } of IDENTIFIER_PATTERNS) {
      for (const match of line.matchAll(pattern)) {
        const value = clean(match[1] ?? '')?.slice(0, kind === 'registered_address' ? MAX_ADDRESS_CHARS : MAX_VALUE_CHARS);
        if (value === undefined || value === null || found.some((f) => f.kind === kind && f.value === value)) continue;
        found.push({ kind, value, foundAt, context: around(line, match.index, match.index + match[0].length) });
        if (found.length >= MAX_IDENTIFIERS) return found;
      }
    }
  }
  return found;
}

/** Link words, most telling first: an imprint or legal notice before an about or terms page. */
const LEGAL_LINK_WORDS: readonly RegExp[] = [
  /impressum|imprint|legal[\s_-]*notice|mentions[\s_-]*l[ée]gales|aviso[\s_-]*legal|colofon/i,
  /\blegal\b|company[\s_-]*info|about|[uü]ber[\s_-]*uns|qui[\s_-]*sommes|\bterms\b|\bagb\b/i,
];

/** Up to `max` links of the page to other pages of the same host that may state the company's details. */
export function legalLinks(html: string, pageUrl: string, max: number): string[] {
  const page = new URL(pageUrl);
  const links = pageLinks(html);
  const urls: string[] = [];
  for (const words of LEGAL_LINK_WORDS) {
    for (const link of links) {
      if (!words.test(link.href) && !words.test(link.text)) continue;
      const url = sameSite(link.href, page);
      if (url !== null && !urls.includes(url)) urls.push(url);
      if (urls.length >= max) return urls;
    }
  }
  return urls;
}

function sameSite(href: string, page: URL): string | null {
  try {
    const url = new URL(href, page);
    url.hash = '';
    if (!['http:', 'https:'].includes(url.protocol) || url.hostname !== page.hostname || url.href === page.href) return null;
    return url.href;
  } catch {
    return null;
  }
}
