/**
 * Which `Host` headers Sextant answers (DESIGN.md "Host and Origin"; the MCP specification's
 * "Security Warning" on DNS rebinding). A rebinding page makes the browser send the attacker's
 * name as Host, never a loopback name or an IP literal, so these are what a request must carry:
 * - a loopback name or address (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`) with the
 *   port the request arrived on, always;
 * - a host of `PUBLIC_URL` or `ALLOWED_HOSTS` (with its port, when one is given);
 * - any IP literal with the port the request arrived on, only when bound to a non-loopback
 *   address: a server reachable by address answers by address; by name only once named.
 */
import { BlockList, isIP } from 'node:net';
import { LRUCache } from 'lru-cache';

export interface HostCheckOptions {
  /** The address the server binds (`HOST`). */
  readonly host: string;
  /** The origin the deployment answers as (`PUBLIC_URL`), or null. */
  readonly publicUrl: string | null;
  /** More hosts it answers to (`ALLOWED_HOSTS`): `name` (any port) or `name:port`. */
  readonly allowedHosts: readonly string[];
}

/** A Host header as URL would read it. */
interface HostParts {
  /** Lower case; IPv6 without brackets; IPv4 in dotted-quad form. */
  readonly hostname: string;
  /** The port, null when the header names none. */
  readonly port: number | null;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** `localhost`, a name under it (RFC 6761), or a loopback address. */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const family = isIP(name);
  return family !== 0 && LOOPBACK.check(name, family === 4 ? 'ipv4' : 'ipv6');
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

interface Named {
  readonly hostname: string;
  /** The ports a Host may name (null in the list: no port at all); null: any port. */
  readonly ports: readonly (number | null)[] | null;
}

function namedHosts(options: HostCheckOptions): Named[] {
  const named: Named[] = [];
  if (options.publicUrl !== null) {
    const url = new URL(options.publicUrl);
    const ports = url.port === '' ? [null, url.protocol === 'https:' ? 443 : 80] : [Number(url.port)];
    named.push({ hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'), ports });
  }
  for (const entry of options.allowedHosts) {
    const parts = parseHost(entry);
    if (parts !== null) named.push({ hostname: parts.hostname, ports: parts.port === null ? null : [parts.port] });
  }
  return named;
}

/**
 * Decides, per request, whether its `Host` is one this deployment answers to. `localPort` is
 * the port of the socket the request arrived on (the bound port, also when bound to port 0).
 */
export function createHostCheck(options: HostCheckOptions): (host: string | undefined, localPort: number | undefined) => boolean {
  const named = namedHosts(options);
  const boundToLoopback = isLoopbackHost(options.host);
  const decide = (host: string | undefined, localPort: number | undefined): boolean => {
    const parts = host === undefined ? null : parseHost(host);
    if (parts === null) return false;
    if (named.some((n) => n.hostname === parts.hostname && (n.ports === null || n.ports.includes(parts.port)))) return true;
    if ((parts.port ?? 80) !== localPort) return false;
    if (isLoopbackHost(parts.hostname)) return true;
    return !boundToLoopback && isIP(parts.hostname) !== 0;
  };
  // The decision depends on the header and the port alone, and parsing the header (URL, a
  // BlockList check) was a tenth of a warm MCP call's time: decisions are remembered, for the
  // few Host values a deployment sees (bounded, whatever a caller sends).
  const decided = new LRUCache<string, boolean>({ max: HOSTS_REMEMBERED });
  return (host, localPort) => {
    if (host === undefined) return false;
    const key = `${localPort ?? ''} ${host}`;
    let answer = decided.get(key);
    if (answer === undefined) decided.set(key, (answer = decide(host, localPort)));
    return answer;
  };
}

/** Host decisions remembered at most. */
const HOSTS_REMEMBERED = 256;
