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
import { isIP } from 'node:net';
import { isLoopbackHost, parseHost } from '../net/host-names.js';

export interface HostCheckOptions {
  /** The address the server binds (`HOST`). */
  readonly host: string;
  /** The origin the deployment answers as (`PUBLIC_URL`), or null. */
  readonly publicUrl: string | null;
  /** More hosts it answers to (`ALLOWED_HOSTS`): `name` (any port) or `name:port`. */
  readonly allowedHosts: readonly string[];
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
  return (host, localPort) => {
    const parts = host === undefined ? null : parseHost(host);
    if (parts === null) return false;
    if (named.some((n) => n.hostname === parts.hostname && (n.ports === null || n.ports.includes(parts.port)))) return true;
    if ((parts.port ?? 80) !== localPort) return false;
    if (isLoopbackHost(parts.hostname)) return true;
    return !boundToLoopback && isIP(parts.hostname) !== 0;
  };
}
