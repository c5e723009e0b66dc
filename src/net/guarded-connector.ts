/**
 * The undici connector that makes `src/net` SSRF-safe: it resolves the hostname itself, refuses
 * unless every address passes the policy, connects to the checked address (no second lookup, so
 * no DNS-rebinding window) and checks the connected socket's remote address once more.
 */
import { isIP, type Socket } from 'node:net';
import { buildConnector } from 'undici';
import type { AddressPolicy } from './address-policy.js';
import { NetError } from './errors.js';

/** Resolves a hostname to all of its addresses (IPv4 and IPv6 text). */
export type Resolve = (hostname: string) => Promise<readonly string[]>;

/** What `createGuardedConnector` needs. */
export interface GuardedConnectorOptions {
  readonly policy: AddressPolicy;
  readonly resolve: Resolve;
  /** Bounds the lookup and, separately, the TCP/TLS handshake. */
  readonly connectTimeoutMs: number;
  /** Told the checked remote address of every new connection, keyed by origin ('http://host:port'). */
  readonly onConnected?: (origin: string, remoteAddress: string) => void;
}

async function resolveWithin(hostname: string, options: GuardedConnectorOptions): Promise<readonly string[]> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new NetError('timeout', `lookup of ${hostname} took over ${options.connectTimeoutMs} ms`)), options.connectTimeoutMs);
  });
  const lookup = Promise.resolve()
    .then(() => options.resolve(hostname))
    .catch((err: unknown) => {
      throw new NetError('dns_failure', `lookup of ${hostname} failed`, { cause: err });
    });
  try {
    return await Promise.race([lookup, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** The address to connect to: the hostname itself if it is an IP literal, else the first resolved one. */
async function checkedAddress(hostname: string, options: GuardedConnectorOptions): Promise<string> {
  const literal = isIP(hostname) !== 0;
  const addresses = literal ? [hostname] : await resolveWithin(hostname, options);
  for (const address of addresses) {
    const reason = options.policy.refusal(address);
    if (reason === null) continue;
    const what = literal ? `${hostname} is` : `${hostname} resolves to ${address},`;
    throw new NetError('blocked_destination', `${what} ${reason}`);
  }
  const [first] = addresses;
  if (first === undefined) throw new NetError('dns_failure', `${hostname} has no addresses`);
  return first;
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
  const remote = socket.remoteAddress ?? '';
  const reason = options.policy.refusal(remote);
  if (reason !== null) {
    socket.destroy();
    throw new NetError('blocked_destination', `connected peer ${remote || '(unknown)'} is ${reason}`);
  }
  options.onConnected?.(`${opts.protocol}//${opts.host ?? hostname}`, remote);
  return socket;
}

/**
 * An undici `connect` function guarding every new connection with `options.policy`. A refused
 * destination never gets a TCP connection; TLS still uses the original hostname for SNI and
 * certificate checks.
 */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const base = buildConnector({ timeout: options.connectTimeoutMs });
  return (opts, callback) => {
    guardedConnect(base, options, opts).then(
      (socket) => callback(null, socket),
      (err: unknown) => callback(err instanceof Error ? err : new NetError('connect_failed', String(err)), null),
    );
  };
}
