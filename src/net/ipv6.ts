/** IPv6 normalization and the IPv4 addresses some IPv6 forms carry. */
import { isIP } from 'node:net';

/** An IPv4 address embedded in an IPv6 one, and how it is embedded. */
export interface EmbeddedIpv4 {
  readonly kind: 'IPv4-mapped' | 'NAT64';
  readonly ipv4: string;
}

/**
 * The canonical text of an IPv6 address (lower case, zeros compressed, no dotted tail, no zone
 * id), as the WHATWG URL serializer writes it; null when `address` is not IPv6.
 */
export function normalizeIpv6(address: string): string | null {
  const bare = address.split('%', 1)[0] ?? '';
  if (isIP(bare) !== 6) return null;
  try {
    return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/** The eight 16-bit groups of a canonical IPv6 address (output of `normalizeIpv6`). */
export function hextets(canonical: string): number[] {
  const [head = '', tail] = canonical.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros: string[] = new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16));
}

function dottedQuad(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * The IPv4 address inside an IPv4-mapped (`::ffff:0:0/96`) or NAT64 well-known prefix
 * (`64:ff9b::/96`, RFC 6052) address, or null for any other canonical IPv6 address.
 */
export function embeddedIpv4(canonical: string): EmbeddedIpv4 | null {
  const [a, b, c, d, e, f, g = 0, h = 0] = hextets(canonical);
  const middleZero = c === 0 && d === 0 && e === 0;
  if (a === 0 && b === 0 && middleZero && f === 0xffff) return { kind: 'IPv4-mapped', ipv4: dottedQuad(g, h) };
  if (a === 0x64 && b === 0xff9b && middleZero && f === 0) return { kind: 'NAT64', ipv4: dottedQuad(g, h) };
  return null;
}
