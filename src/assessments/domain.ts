/**
 * The business-domain rules of `createAssessment` (DESIGN.md "Invalid business domain"): what a
 * credit professional may post as the internet domain of a private business, and its normal form.
 */
import { isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';
import { parse } from 'tldts';
import type { components } from '../../generated/openapi.js';

/** Why a business domain was rejected; the contract's machine-readable reason. */
export type DomainRejection = components['schemas']['DomainRejection'];

/** The outcome of {@link checkBusinessDomain}: the normalized name, or a reason and a sentence for the caller. */
export type DomainCheck =
  | {
      readonly ok: true;
      /** ASCII, lower-case, punycode for IDNs, no trailing dot. */
      readonly domain: string;
      /** The Unicode form of `domain`. */
      readonly unicode: string;
    }
  | { readonly ok: false; readonly reason: DomainRejection; readonly message: string };

type Rejection = Extract<DomainCheck, { ok: false }>;

const MAX_NAME = 253;
const MAX_LABEL = 63;
/** Inputs longer than this cannot be a domain in any spelling; refused before the costly steps. */
const MAX_INPUT = 1024;
const ECHO_LIMIT = 100;

const INVISIBLE = /[\s\p{Default_Ignorable_Code_Point}]/u;
const UNPRINTABLE = /[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]/u;
/** The full stop and the three Unicode dots that IDNA maps to it. */
const DOT = /[.\u3002\uFF0E\uFF61]/u;
const TRAILING_DOT = /[.\u3002\uFF0E\uFF61]$/u;
const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:)?\/\/|:\/\/|^(?:https?|ftp|wss?):/i;
const PATH_START = /[/?#\\]/;
const NOT_LDH = /[^a-z0-9.-]/i;
const LDH_LABEL = /^[a-z0-9-]+$/;
/** WHATWG URL "ends in a number": such a host is parsed as IPv4 (or refused) by browsers. */
const ENDS_IN_NUMBER = /^(?:\d+|0x[0-9a-f]*)$/;
const EXAMPLE = '"example-bakery.co.uk"';

/** Special-use TLDs (RFC 6761, 6762, 7686, 9476, 8375's `.arpa`, ICANN's `.internal`). */
const RESERVED_TLDS: ReadonlySet<string> = new Set(['localhost', 'test', 'example', 'invalid', 'local', 'internal', 'onion', 'arpa', 'alt']);
/** RFC 2606 second-level example names; their subdomains are reserved too. */
const RESERVED_NAMES: readonly string[] = ['example.com', 'example.net', 'example.org'];

/**
 * Validates and normalizes a business domain (DESIGN.md "Invalid business domain").
 * Surrounding whitespace is trimmed; checks run in a fixed order and the first failure is reported:
 * empty, whitespace, (input over 1024 characters: too_long), url, email, path, ip_address, port,
 * then the name itself (empty labels, IDN conversion, lengths, LDH), reserved names and the public
 * suffix list.
 */
export function checkBusinessDomain(input: string): DomainCheck {
  return run(input.trim(), true);
}

function run(text: string, suggest: boolean): DomainCheck {
  return checkPresence(text) ?? checkShape(text, suggest) ?? checkName(text);
}

function reject(reason: DomainRejection, message: string): Rejection {
  return { ok: false, reason, message };
}

function checkPresence(text: string): Rejection | undefined {
  if (text === '') return reject('empty', `Send the business's domain name, for example ${EXAMPLE}.`);
  if (INVISIBLE.test(text)) {
    return reject('whitespace', `The domain ${quote(text)} contains a space, line break or invisible character; send the name without it.`);
  }
  if (text.length > MAX_INPUT) return reject('too_long', `The domain is longer than the ${MAX_NAME} characters a domain name may have.`);
  return undefined;
}

/** Things that are not a bare name at all: URLs, e-mail addresses, paths, IP literals, ports. */
function checkShape(text: string, suggest: boolean): Rejection | undefined {
  const hint = (candidate: string | undefined): string => (suggest ? suggestion(candidate) : '');
  const pathAt = text.search(PATH_START);
  const head = pathAt < 0 ? text : text.slice(0, pathAt);
  if (URL_LIKE.test(text) && !/^mailto:/i.test(text)) {
    return reject('url', `${quote(text)} is a web address; send only the domain name${hint(urlHost(text))}.`);
  }
  if (head.includes('@') || /^mailto:/i.test(text)) {
    return reject('email', `${quote(text)} is an e-mail address; send the business's domain name${hint(head.slice(head.lastIndexOf('@') + 1))}.`);
  }
  if (pathAt >= 0) {
    return reject('path', `${quote(text)} has a path, query or fragment after the name; send only the domain name${hint(head)}.`);
  }
  if (isIpLiteral(text)) {
    return reject('ip_address', `${quote(text)} is an IP address, or would be read as one; send the business's domain name instead.`);
  }
  const colons = text.split(':').length - 1;
  if (colons === 1) {
    return reject('port', `${quote(text)} includes a port number; send only the domain name${hint(text.slice(0, text.indexOf(':')))}.`);
  }
  if (colons > 1) return reject('invalid_characters', `${quote(text)} contains ":", which a domain name cannot contain.`);
  return undefined;
}

/** ", such as "x.com"" when the candidate is itself a valid business domain, else nothing. */
function suggestion(candidate: string | undefined): string {
  if (candidate === undefined) return '';
  const check = run(candidate, false);
  return check.ok ? `, such as ${quote(check.domain)}` : '';
}

function urlHost(text: string): string | undefined {
  try {
    return new URL(text.startsWith('//') ? `http:${text}` : text).hostname;
  } catch {
    return undefined;
  }
}

/**
 * IPv6 in any spelling (bracketed, with a zone, IPv4-mapped), and IPv4 as the WHATWG URL parser
 * reads it (decimal, hex, octal, short forms), optionally followed by a port.
 */
function isIpLiteral(text: string): boolean {
  if (isIP(text) !== 0) return true;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    return isIP(end < 0 ? text.slice(1) : text.slice(1, end)) !== 0;
  }
  const colon = text.indexOf(':');
  return looksLikeIpv4(colon < 0 ? text : text.slice(0, colon));
}

function looksLikeIpv4(host: string): boolean {
  const labels = host.normalize('NFKC').toLowerCase().split(DOT);
  if (labels.length > 1 && labels.at(-1) === '') labels.pop();
  if (ENDS_IN_NUMBER.test(labels.at(-1) ?? '')) return true;
  try {
    return isIP(new URL(`http://${host}`).hostname) === 4;
  } catch {
    return false;
  }
}

/** The name proper: labels, IDN conversion, lengths, LDH, then reserved names and the suffix list. */
function checkName(text: string): DomainCheck {
  const name = text.replace(TRAILING_DOT, '');
  if (name.split(DOT).some((label) => label === '')) {
    return reject('invalid_label', `${quote(text)} has an empty label: two dots in a row, or a leading or extra trailing dot.`);
  }
  const ascii = domainToASCII(name);
  if (ascii === '') return unconvertible(text, name);
  if (domainToASCII(domainToUnicode(ascii)) !== ascii) {
    return reject('invalid_label', `${quote(text)} has an "xn--" label that is not a valid internationalized label.`);
  }
  const labels = ascii.split('.');
  const rejection = checkLengths(text, ascii, labels) ?? checkLdh(text, name, labels) ?? checkRegistrable(text, ascii, labels);
  return rejection ?? { ok: true, domain: ascii, unicode: domainToUnicode(ascii) };
}

/** domainToASCII refused the name: bad characters if any are outside LDH, else a bad punycode label. */
function unconvertible(text: string, name: string): Rejection {
  if (NOT_LDH.test(name)) {
    return reject('invalid_characters', `${quote(text)} contains characters that are not allowed in a domain name, even an internationalized one.`);
  }
  return reject('invalid_label', `${quote(text)} has an "xn--" label that is not valid punycode.`);
}

function checkLengths(text: string, ascii: string, labels: readonly string[]): Rejection | undefined {
  if (ascii.length > MAX_NAME) {
    return reject('too_long', `${quote(text)} is ${ascii.length} characters long once encoded; a domain name may have at most ${MAX_NAME}.`);
  }
  const long = labels.find((label) => label.length > MAX_LABEL);
  if (long !== undefined) {
    return reject('label_too_long', `The label ${quote(long)} is ${long.length} characters long once encoded; a label may have at most ${MAX_LABEL}.`);
  }
  return undefined;
}

/** Letters, digits and hyphens only, checked on the input too: `%41` must not be decoded into a name. */
function checkLdh(text: string, name: string, labels: readonly string[]): Rejection | undefined {
  const rawAscii = name.replace(/[^\x00-\x7f]/g, '');
  if (NOT_LDH.test(rawAscii) || labels.some((label) => !LDH_LABEL.test(label))) {
    return reject('invalid_characters', `${quote(text)} contains characters other than letters, digits, hyphens and dots.`);
  }
  const hyphenated = labels.find((label) => label.startsWith('-') || label.endsWith('-'));
  if (hyphenated !== undefined) {
    return reject('invalid_label', `The label ${quote(hyphenated)} starts or ends with a hyphen, which domain names do not allow.`);
  }
  return undefined;
}

/** Reserved and special-use names, then an ICANN suffix with a registrable name under it. */
function checkRegistrable(text: string, ascii: string, labels: readonly string[]): Rejection | undefined {
  const tld = labels.at(-1) ?? '';
  const reserved = RESERVED_TLDS.has(tld) ? tld : RESERVED_NAMES.find((name) => ascii === name || ascii.endsWith(`.${name}`));
  if (reserved !== undefined) {
    const where = ascii === reserved ? 'is' : `is under "${RESERVED_TLDS.has(reserved) ? '.' : ''}${reserved}", which is`;
    return reject('reserved_name', `${quote(text)} ${where} a reserved or special-use name that no business can register.`);
  }
  const parsed = parse(ascii, { allowPrivateDomains: false });
  if (parsed.isIcann !== true) {
    return reject('unknown_tld', `${quote(text)} does not end in a known top-level domain; ".${tld}" is not in the public suffix list.`);
  }
  if (parsed.domain === null) {
    return reject('public_suffix', `${quote(text)} is a public suffix under which names are registered, not a business's own domain.`);
  }
  return undefined;
}

/** The value in double quotes, at most ECHO_LIMIT characters, with invisible characters escaped. */
function quote(value: string): string {
  const chars = Array.from(value.slice(0, ECHO_LIMIT * 2));
  const shown = chars.slice(0, ECHO_LIMIT).map((c) => {
    if (c === '"' || c === '\\') return `\\${c}`;
    if (c !== ' ' && UNPRINTABLE.test(c)) return `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`;
    return c;
  });
  return `"${shown.join('')}${chars.length > ECHO_LIMIT ? '…' : ''}"`;
}
