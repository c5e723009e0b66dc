/**
 * Host names as Sextant reads them: a `Host` header or an `ALLOWED_HOSTS` entry parsed as URL
 * would, and whether a name is a loopback one.
 */
import { BlockList, isIP } from 'node:net';

/** A Host header as URL would read it. */
export interface HostParts {
  /** Lower case; IPv6 without brackets; IPv4 in dotted-quad form. */
  readonly hostname: string;
  /** The port, null when the header names none. */
  readonly port: number | null;
}

const LOOPBACK = new BlockList();
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** `localhost`, a name under it (RFC 6761), or a loopback address. */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const family = isIP(name);
  // 127.0.0.0/8 by its first octet: BlockList's check builds an address object per call.
  if (family === 4) return /^127\./.test(name);
  return family === 6 && LOOPBACK.check(name, 'ipv6');
}

/** Parses a `Host` header (or an `ALLOWED_HOSTS` entry); null when it is not one. */
export function parseHost(value: string): HostParts | null {
  if (!/^[A-Za-z0-9._~:[\]-]+$/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return null;
  }
  if (url.username !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') return null;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // URL drops a port that is the scheme's default: read it from the text instead.
  const port = /:(\d+)$/.exec(value.replace(/^\[[^\]]*\]/, ''))?.[1];
  return { hostname, port: port === undefined ? null : Number(port) };
}
