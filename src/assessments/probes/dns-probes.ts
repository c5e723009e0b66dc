/**
 * DNS observations: addresses (with whether each is globally routable), nameservers, MX (null MX
 * included), SPF, DMARC and CAA. Only the injected resolver is asked; nothing is connected.
 */
import { createAddressPolicy, nonRoutableRange } from '../../net/index.js';
import { dnsFailure, isNoSuchAnswer, isNoSuchName } from './dns-answers.js';
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
  async run(ctx) {
    const asked = this.asked(ctx);
    const records = (await ctx.dns.resolveMx(ctx.domain))
      .map((r) => ({ priority: r.priority, exchange: r.exchange === '' ? '.' : r.exchange.toLowerCase() }))
      .sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange));
    if (records.length === 0) return [observe(ctx, 'dns', 'mx_records', 'not_found', null, `${asked}; there are none.`)];
    const nullMx = records.length === 1 && records[0]?.exchange === '.';
    const said = nullMx ? 'a null MX (0 .): the domain accepts no mail (RFC 7505)' : records.map((r) => `${r.priority} ${r.exchange}`).join(', ');
    return [observe(ctx, 'dns', 'mx_records', 'observed', { nullMx, acceptsMail: !nullMx, records }, `${asked}; ${said}.`)];
  },
};

async function txtRecords(ctx: ProbeContext, name: string, prefix: RegExp): Promise<string[]> {
  const all = await ctx.dns.resolveTxt(name);
  return all.map((chunks) => chunks.join('')).filter((text) => prefix.test(text));
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
    const all = /(?:^|\s)([+?~-]?)all(?:\s|$)/i.exec(record);
    const allQualifier = all === null ? null : `${all[1] === '' ? '+' : all[1]}all`;
    return [observe(ctx, 'dns', 'spf', 'observed', { record, allQualifier }, `${asked}; "${record}".`)];
  },
};

function dmarcTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const [key, ...rest] = part.split('=');
    if (key !== undefined && rest.length > 0) tags.set(key.trim().toLowerCase(), rest.join('=').trim());
  }
  return tags;
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
    const tags = dmarcTags(record);
    const rua = tags.get('rua')?.split(',').map((uri) => uri.trim()) ?? [];
    const value = { record, policy: tags.get('p') ?? null, subdomainPolicy: tags.get('sp') ?? null, pct: tags.get('pct') ?? null, rua };
    return [observe(ctx, 'dns', 'dmarc', 'observed', value, `${asked}; "${record}".`)];
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
export const DNS_PROBES: readonly Probe[] = [ADDRESS_PROBE, nameservers, mxRecords, spf, dmarc, caa];
