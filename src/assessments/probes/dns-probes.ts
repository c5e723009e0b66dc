/**
 * DNS observations: addresses (with whether each is globally routable), nameservers, MX (null MX
 * included), SPF, DMARC, CAA, DNSSEC and IPv6. Only the injected resolver is asked; nothing is
 * connected.
 */
import { createAddressPolicy, nonRoutableRange } from '../../net/index.js';
import { dnsFailure, isNoSuchAnswer, isNoSuchName } from './dns-answers.js';
import { DNSSEC_PROBE } from './dnssec-probe.js';
import { IPV6_PROBE } from './ipv6-probe.js';
import { observe } from './observation.js';
import type { Probe, ProbeContext } from './types.js';

function asking(what: string): (ctx: ProbeContext) => string {
  return (ctx) => `Asked the DNS resolver for ${what.replace('{domain}', ctx.domain)}`;
}

/** One address of the domain; `private` addresses are never connected to unless allow-listed. */
export interface ObservedAddress {
  readonly address: string;
  readonly family: 'IPv4' | 'IPv6';
  /** Not globally routable (loopback, private, link-local, documentation…). */
  readonly private: boolean;
  /** The special-purpose range, as the address policy names it (e.g. 'loopback 127.0.0.0/8'); null when routable. */
  readonly reason: string | null;
  /** Private, but let through by the operator's NET_ALLOW_PRIVATE list. */
  readonly allowListed: boolean;
}

async function settledList(lookup: Promise<string[]>): Promise<string[] | { readonly failed: unknown }> {
  return lookup.catch((err: unknown) => ({ failed: err }));
}

/** `addresses`: the A and AAAA records; TLS and HTTP are attempted only when there are some. */
export const ADDRESS_PROBE: Probe = {
  source: 'dns',
  names: ['addresses'],
  asked: asking('the A and AAAA records of {domain}'),
  async run(ctx, shared) {
    const asked = this.asked(ctx);
    const [v4, v6] = await Promise.all([settledList(ctx.dns.resolve4(ctx.domain)), settledList(ctx.dns.resolve6(ctx.domain))]);
    const failures = [v4, v6].flatMap((r) => (Array.isArray(r) ? [] : [r.failed]));
    const hardFailure = failures.find((err) => !isNoSuchAnswer(err));
    if (hardFailure !== undefined) return [await dnsFailure(ctx, shared, 'addresses', hardFailure, asked)];
    const policy = createAddressPolicy(ctx.allowPrivate);
    const entry = (family: ObservedAddress['family']) => (address: string): ObservedAddress => {
      const reason = nonRoutableRange(address);
      return { address, family, private: reason !== null, reason, allowListed: reason !== null && policy.refusal(address) === null };
    };
    const list = [...(Array.isArray(v4) ? v4.map(entry('IPv4')) : []), ...(Array.isArray(v6) ? v6.map(entry('IPv6')) : [])];
    if (list.length === 0) {
      const noSuchName = failures.find(isNoSuchName);
      if (noSuchName !== undefined) return [await dnsFailure(ctx, shared, 'addresses', noSuchName, asked)];
      return [observe(ctx, 'dns', 'addresses', 'not_found', null, `${asked}; the name exists and has none (NODATA).`)];
    }
    const said = list.map((a) => (a.reason === null ? a.address : `${a.address} (${a.reason}${a.allowListed ? ', allow-listed' : ''})`)).join(', ');
    const refused = list.filter((a) => a.private && !a.allowListed).length;
    const note = refused === 0 ? '' : `; ${refused} of them not globally routable, so never connected to`;
    return [observe(ctx, 'dns', 'addresses', 'observed', list, `${asked}; ${said}${note}.`)];
  },
};

const nameservers: Probe = {
  source: 'dns',
  names: ['nameservers'],
  asked: asking('the NS records of {domain}'),
  async run(ctx, shared) {
    const list = (await shared.nameservers()).map((ns) => ns.toLowerCase()).sort();
    if (list.length === 0) return [observe(ctx, 'dns', 'nameservers', 'not_found', [], `${this.asked(ctx)}; there are none.`)];
    return [observe(ctx, 'dns', 'nameservers', 'observed', list, `${this.asked(ctx)}; ${list.join(', ')}.`)];
  },
};

const mxRecords: Probe = {
  source: 'dns',
  names: ['mx_records'],
  asked: asking('the MX records of {domain}'),
  async run(ctx, shared) {
    const asked = this.asked(ctx);
    const records = (await shared.mx())
      .map((r) => ({ priority: r.priority, exchange: r.exchange === '' ? '.' : r.exchange.toLowerCase() }))
      .sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange));
    if (records.length === 0) return [observe(ctx, 'dns', 'mx_records', 'not_found', null, `${asked}; there are none.`)];
    const nullMx = records.length === 1 && records[0]?.exchange === '.';
    const said = nullMx ? 'a null MX (0 .): the domain accepts no mail (RFC 7505)' : records.map((r) => `${r.priority} ${r.exchange}`).join(', ');
    return [observe(ctx, 'dns', 'mx_records', 'observed', { nullMx, acceptsMail: !nullMx, records }, `${asked}; ${said}.`)];
  },
};

/** The TXT records of `name` that start with `prefix` (each record's strings joined). */
export async function txtRecords(ctx: ProbeContext, name: string, prefix: RegExp): Promise<string[]> {
  const all = await ctx.dns.resolveTxt(name);
  return all.map((chunks) => chunks.join('')).filter((text) => prefix.test(text));
}

/**
 * RFC 7208 §4.6.2: the result a qualifier gives a sender that matches `all` (no qualifier is `+`),
 * named for what it states of such senders (pass, fail, softfail, neutral), so no value reads as a grade.
 */
const SPF_RESULTS: Readonly<Record<string, string>> = { '+': 'authorized', '-': 'not_authorized', '~': 'probably_not_authorized', '?': 'no_statement' };

/**
 * The record, its `all` qualifier and the result it gives every other sender (`policy`, RFC 7208
 * results, by what they state; null without `all`), and the domain a `redirect=` hands evaluation to (§6.1).
 */
function spfValue(record: string): { record: string; allQualifier: string | null; policy: string | null; redirect: string | null } {
  const all = /(?:^|\s)([+?~-]?)all(?:\s|$)/i.exec(record);
  const qualifier = all === null ? null : all[1] || '+';
  const redirect = /(?:^|\s)redirect=(\S+)/i.exec(record)?.[1] ?? null;
  return { record, allQualifier: qualifier === null ? null : `${qualifier}all`, policy: qualifier === null ? null : (SPF_RESULTS[qualifier] ?? null), redirect };
}

const spf: Probe = {
  source: 'dns',
  names: ['spf'],
  asked: asking('the TXT records of {domain} (SPF)'),
  async run(ctx) {
    const asked = this.asked(ctx);
    const records = await txtRecords(ctx, ctx.domain, /^v=spf1(\s|$)/i);
    const [record] = records;
    if (record === undefined) return [observe(ctx, 'dns', 'spf', 'not_found', null, `${asked}; none starts with v=spf1.`)];
    if (records.length > 1) return [observe(ctx, 'dns', 'spf', 'error', { records }, `${asked}; multiple SPF records (${records.length}), which RFC 7208 treats as a permanent error.`)];
    return [observe(ctx, 'dns', 'spf', 'observed', spfValue(record), `${asked}; "${record}".`)];
  },
};

/** The `key=value; …` tags of a DMARC, MTA-STS or TLS-RPT record, keys lower-cased. */
export function recordTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const [key, ...rest] = part.split('=');
    if (key !== undefined && rest.length > 0) tags.set(key.trim().toLowerCase(), rest.join('=').trim());
  }
  return tags;
}

/** A percentage tag (0 to 100) as a number; null when absent or not one. */
function percent(tag: string | undefined): number | null {
  return tag !== undefined && /^\d{1,3}$/.test(tag) && Number(tag) <= 100 ? Number(tag) : null;
}

/**
 * The policies (`p`, `sp`), the share they apply to (`pct`), the report addresses (`rua`) and the
 * alignment modes (`adkim`, `aspf`: 'r' relaxed, 's' strict; null when not stated, which RFC 7489
 * §6.3 reads as relaxed), as the record states them.
 */
function dmarcValue(record: string): {
  record: string; policy: string | null; subdomainPolicy: string | null; pct: number | null; rua: string[]; adkim: string | null; aspf: string | null;
} {
  const tags = recordTags(record);
  const mode = (name: string): string | null => tags.get(name)?.toLowerCase() ?? null;
  const rua = tags.get('rua')?.split(',').map((uri) => uri.trim()).filter((uri) => uri !== '') ?? [];
  return { record, policy: tags.get('p') ?? null, subdomainPolicy: tags.get('sp') ?? null, pct: percent(tags.get('pct')), rua, adkim: mode('adkim'), aspf: mode('aspf') };
}

const dmarc: Probe = {
  source: 'dns',
  names: ['dmarc'],
  asked: asking('the TXT records of _dmarc.{domain}'),
  async run(ctx) {
    const asked = this.asked(ctx);
    const records = await txtRecords(ctx, `_dmarc.${ctx.domain}`, /^v=DMARC1(\s*;|\s*$)/i);
    const [record] = records;
    if (record === undefined) return [observe(ctx, 'dns', 'dmarc', 'not_found', null, `${asked}; none starts with v=DMARC1.`)];
    if (records.length > 1) return [observe(ctx, 'dns', 'dmarc', 'error', { records }, `${asked}; multiple DMARC records (${records.length}), which RFC 7489 says to ignore.`)];
    return [observe(ctx, 'dns', 'dmarc', 'observed', dmarcValue(record), `${asked}; "${record}".`)];
  },
};

const caa: Probe = {
  source: 'dns',
  names: ['caa'],
  asked: asking('the CAA records of {domain}'),
  async run(ctx) {
    const records = (await ctx.dns.resolveCaa(ctx.domain)).flatMap(({ critical, ...tags }) =>
      Object.entries(tags).map(([tag, value]) => ({ critical, tag, value: String(value) })),
    );
    if (records.length === 0) return [observe(ctx, 'dns', 'caa', 'not_found', null, `${this.asked(ctx)}; there are none.`)];
    const said = records.map((r) => `${r.tag} "${r.value}"`).join(', ');
    return [observe(ctx, 'dns', 'caa', 'observed', records, `${this.asked(ctx)}; ${said}.`)];
  },
};

/** The DNS probes, each run under its own time limit. */
export const DNS_PROBES: readonly Probe[] = [ADDRESS_PROBE, nameservers, mxRecords, spf, dmarc, caa, DNSSEC_PROBE, IPV6_PROBE];
