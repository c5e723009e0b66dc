/**
 * Who a request counts against in every limit (discovery, pages, proxy, assessments): its
 * address (the socket's, or with trusted proxies the matching `X-Forwarded-For` hop), an IPv4
 * one as it is, an IPv6 one by its network prefix (a /64 by default): one host is commonly given
 * a whole /64, so its addresses are one client.
 */
import type Koa from 'koa';
import { embeddedIpv4, hextets, normalizeIpv6 } from '../net/ipv6.js';

export interface ClientKeyOptions {
  /** How many reverse proxies in front of us may set `X-Forwarded-For`. */
  readonly trustProxyHops: number;
  /** The prefix length an IPv6 address is counted by (`RATE_LIMIT_IPV6_PREFIX`). */
  readonly ipv6Prefix: number;
}

/** The caller's address: the socket's, or with trusted proxies the matching `X-Forwarded-For` hop. */
export function clientAddress(ctx: Koa.Context, trustProxyHops: number): string {
  const socket = ctx.req.socket.remoteAddress ?? 'unknown';
  if (trustProxyHops <= 0) return socket;
  const forwarded = (ctx.get('x-forwarded-for') || '').split(',').map((part) => part.trim()).filter(Boolean);
  const chain = [...forwarded, socket];
  return chain[Math.max(0, chain.length - 1 - trustProxyHops)] ?? socket;
}

/**
 * The key an address is counted under: an IPv6 address's network (`2001:db8:1:2::/64`), the
 * IPv4 address an IPv4-mapped one carries (a dual-stack socket reports IPv4 clients so), and
 * anything else as it is (an IPv4 address; whatever a trusted proxy sent that is no address).
 */
export function clientKey(address: string, ipv6Prefix: number): string {
  const canonical = normalizeIpv6(address);
  if (canonical === null) return address;
  const embedded = embeddedIpv4(canonical);
  if (embedded?.kind === 'IPv4-mapped') return embedded.ipv4;
  const network = hextets(canonical).map((group, i) => {
    const kept = Math.min(16, Math.max(0, ipv6Prefix - 16 * i));
    return (group & (0xffff << (16 - kept))) & 0xffff;
  });
  return `${normalizeIpv6(network.map((group) => group.toString(16)).join(':')) ?? canonical}/${ipv6Prefix}`;
}

/** The key of each request's client, for every limit. */
export function clientKeys(options: ClientKeyOptions): (ctx: Koa.Context) => string {
  return (ctx) => clientKey(clientAddress(ctx, options.trustProxyHops), options.ipv6Prefix);
}
