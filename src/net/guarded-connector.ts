/**
 * The undici connector that makes `src/net` SSRF-safe: it resolves the hostname itself, refuses
 * unless every address passes the policy, connects to the checked address (no second lookup, so
 * no DNS-rebinding window) and checks the connected socket's remote address once more.
 */
import { isIP, type Socket } from 'node:net';
import { buildConnector } from 'undici';
import type { AddressPolicy } from './address-policy.js';
import { checkedAddress, refusedPeer, type Resolve } from './checked-address.js';
import { NetError } from './errors.js';

export type { Resolve } from './checked-address.js';

/** What `createGuardedConnector` needs. */
export interface GuardedConnectorOptions {
  readonly policy: AddressPolicy;
  readonly resolve: Resolve;
  /** Bounds the lookup and, separately, the TCP/TLS handshake. */
  readonly connectTimeoutMs: number;
  /** Told the checked remote address of every new connection, keyed by origin ('http://host:port'). */
  readonly onConnected?: (origin: string, remoteAddress: string) => void;
  /** Extra trust for TLS (tests pass a generated CA); absent means the system trust store. */
  readonly tls?: { readonly ca?: string | readonly string[] };
}

function connectTo(base: buildConnector.connector, opts: buildConnector.Options): Promise<Socket> {
  return new Promise((resolve, reject) => {
    base(opts, (err, socket) => (err === null ? resolve(socket) : reject(err)));
  });
}

async function guardedConnect(
  base: buildConnector.connector,
  options: GuardedConnectorOptions,
  opts: buildConnector.Options,
): Promise<Socket> {
  const hostname = opts.hostname.replace(/^\[(.*)\]$/, '$1');
  const address = await checkedAddress(hostname, options);
  const servername = isIP(hostname) === 0 ? hostname : undefined;
  const socket = await connectTo(base, { ...opts, hostname: address, servername });
  const refused = refusedPeer(socket.remoteAddress, options.policy);
  if (refused !== null) {
    socket.destroy();
    throw refused;
  }
  const remote = socket.remoteAddress ?? '';
  options.onConnected?.(`${opts.protocol}//${opts.host ?? hostname}`, remote);
  return socket;
}

/**
 * An undici `connect` function guarding every new connection with `options.policy`. A refused
 * destination never gets a TCP connection; TLS still uses the original hostname for SNI and
 * certificate checks.
 */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const ca = options.tls?.ca;
  const trust = ca === undefined ? {} : { ca: typeof ca === 'string' ? ca : [...ca] };
  const base = buildConnector({ timeout: options.connectTimeoutMs, ...trust });
  return (opts, callback) => {
    guardedConnect(base, options, opts).then(
      (socket) => callback(null, socket),
      (err: unknown) => callback(err instanceof Error ? err : new NetError('connect_failed', String(err)), null),
    );
  };
}
