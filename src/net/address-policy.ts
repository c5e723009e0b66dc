/**
 * Which destination addresses `src/net` may connect to: only globally routable ones, unless an
 * operator allow list (NET_ALLOW_PRIVATE) names the range. Pure functions, no I/O.
 */
import { BlockList, isIP } from 'node:net';
import { embeddedIpv4, normalizeIpv6 } from './ipv6.js';
import { specialIpv4Range, specialIpv6Range } from './special-ranges.js';

/** One parsed allow-list entry; `address` is canonical, a bare address means a single host. */
export interface Cidr {
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

/** Decides whether an outbound connection to an address may be made. */
export interface AddressPolicy {
  /** null when allowed, else the reason (e.g. 'loopback 127.0.0.0/8'). */
  refusal(ip: string): string | null;
}

/**
 * Why an address is not globally routable (e.g. 'loopback 127.0.0.0/8'), or null when it is.
 * IPv4-mapped and NAT64 (64:ff9b::/96) IPv6 addresses are judged by the IPv4 address inside;
 * anything that is not an IP address is refused.
 */
export function nonRoutableRange(ip: string): string | null {
  if (isIP(ip) === 4) return specialIpv4Range(ip);
  const canonical = normalizeIpv6(ip);
  if (canonical === null) return 'not an IP address';
  const inner = embeddedIpv4(canonical);
  if (inner === null) return specialIpv6Range(canonical);
  const reason = specialIpv4Range(inner.ipv4);
  return reason === null ? null : `${reason} (${inner.kind} ${inner.ipv4})`;
}

function parseCidr(entry: string): Cidr | null {
  const [address = '', prefixText, ...rest] = entry.trim().split('/');
  if (rest.length > 0) return null;
  const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  const canonical = family === 'ipv4' ? address : normalizeIpv6(address);
  if (canonical === null || (family === 'ipv6' && address.includes('%'))) return null;
  const max = family === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return { address: canonical, prefix: max, family };
  if (!/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = Number(prefixText);
  return prefix <= max ? { address: canonical, prefix, family } : null;
}

/**
 * Parses NET_ALLOW_PRIVATE-style CIDR strings ('127.0.0.1/32', '::1/128', or a bare address
 * meaning that one host); throws an Error naming the first bad entry.
 */
export function parseCidrList(cidrs: readonly string[]): readonly Cidr[] {
  return cidrs.map((entry) => {
    const cidr = parseCidr(entry);
    if (cidr === null) throw new Error(`invalid CIDR "${entry}" (expected e.g. 10.0.0.0/8 or fd00::/8)`);
    return cidr;
  });
}

function isAllowed(allowed: BlockList, ip: string): boolean {
  if (isIP(ip) === 4) return allowed.check(ip, 'ipv4');
  const canonical = normalizeIpv6(ip);
  if (canonical === null) return false;
  const inner = embeddedIpv4(canonical);
  if (inner?.kind === 'IPv4-mapped' && allowed.check(inner.ipv4, 'ipv4')) return true;
  return allowed.check(canonical, 'ipv6');
}

/**
 * The policy every connection of `src/net` is checked against: globally routable addresses, plus
 * those inside a CIDR of `allowPrivate` (operator opt-in, e.g. for loopback test fixtures).
 * Throws like `parseCidrList` on a bad entry.
 */
export function createAddressPolicy(allowPrivate: readonly string[]): AddressPolicy {
  const allowed = new BlockList();
  for (const cidr of parseCidrList(allowPrivate)) allowed.addSubnet(cidr.address, cidr.prefix, cidr.family);
  return {
    refusal(ip: string): string | null {
      const reason = nonRoutableRange(ip);
      if (reason === null || isAllowed(allowed, ip)) return null;
      return reason;
    },
  };
}
