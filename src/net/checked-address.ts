/**
 * The destination check shared by every connection `src/net` makes (the HTTP connector and TLS
 * inspection): resolve the hostname once, refuse unless every address passes the policy, pick the
 * first, and after connecting check the socket's peer address again.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { AddressPolicy } from './address-policy.js';
import { NetError } from './errors.js';
import { specialUseName } from './special-names.js';

/** Resolves a hostname to all of its addresses (IPv4 and IPv6 text). */
export type Resolve = (hostname: string) => Promise<readonly string[]>;

/** The default `Resolve`: `dns.promises.lookup(hostname, { all: true, verbatim: true })`. */
export async function lookupAll(hostname: string): Promise<readonly string[]> {
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results.map((result) => result.address);
}

/** What `checkedAddress` needs; `GuardedConnectorOptions` satisfies it. */
export interface AddressCheckOptions {
  readonly policy: AddressPolicy;
  readonly resolve: Resolve;
  /** Bound on the lookup. */
  readonly connectTimeoutMs: number;
}

async function resolveWithin(hostname: string, options: AddressCheckOptions): Promise<readonly string[]> {
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

/**
 * The address to connect to: the hostname itself if it is an IP literal, else the first resolved
 * one. Rejects with `blocked_destination` when the name is special-use (before any lookup) or
 * any address is refused by the policy (nothing is connected), `dns_failure` when there is none,
 * `timeout` when the lookup is too slow.
 */
export async function checkedAddress(hostname: string, options: AddressCheckOptions): Promise<string> {
  const literal = isIP(hostname) !== 0;
  const special = literal ? null : specialUseName(hostname);
  if (special !== null) throw new NetError('blocked_destination', `${hostname} is ${special}, refused by name`);
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

/**
 * The `blocked_destination` error for a connected socket whose peer address the policy refuses,
 * or null when the peer is allowed. The caller destroys the socket before throwing it.
 */
export function refusedPeer(remoteAddress: string | undefined, policy: AddressPolicy): NetError | null {
  const remote = remoteAddress ?? '';
  const reason = policy.refusal(remote);
  return reason === null ? null : new NetError('blocked_destination', `connected peer ${remote || '(unknown)'} is ${reason}`);
}
