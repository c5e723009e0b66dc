/**
 * `ipv6`: whether the domain, its name servers and its mail servers have IPv6 addresses (AAAA).
 * A host whose authority answered that it has none (NXDOMAIN or NODATA) has `[]`; a lookup that
 * failed is `null`, unknown. Only the configured resolver is asked; nothing is connected.
 */
import { errorCode, observe } from './observation.js';
import { isNoSuchAnswer, isNoSuchName } from './dns-answers.js';
import type { Probe, ProbeContext } from './types.js';

/** What was learnt of one name: its addresses, or null with the error when the lookup failed. */
interface Lookup<T> {
  readonly value: T | null;
  readonly failed?: unknown;
}

/** A host and its IPv6 addresses (null when they could not be looked up). */
interface HostAddresses {
  readonly host: string;
  readonly addresses: string[] | null;
}

/** `none` when the authority answered that there is nothing; rethrows NXDOMAIN when the name must exist. */
async function settle<T>(lookup: Promise<T>, none: T, nameMustExist = false): Promise<Lookup<T>> {
  try {
    return { value: await lookup };
  } catch (err) {
    if (nameMustExist && isNoSuchName(err)) throw err;
    return isNoSuchAnswer(err) ? { value: none } : { value: null, failed: err };
  }
}

/** Why a part is unknown, naming the resolver that failed. */
function unknownSaid(failed: unknown): string {
  return `could not be looked up through the configured DNS resolver (${errorCode(failed) ?? 'no answer'})`;
}

async function hostsAaaa(ctx: ProbeContext, hosts: Promise<string[]>): Promise<Lookup<HostAddresses[]>> {
  const names = await settle(hosts, []);
  if (names.value === null) return { value: null, failed: names.failed };
  const unique = [...new Set(names.value.map((host) => host.toLowerCase()))].sort();
  const value = await Promise.all(unique.map(async (host) => ({ host, addresses: (await settle(ctx.dns.resolve6(host), [])).value })));
  return { value };
}

function listSaid(addresses: readonly string[] | null): string {
  if (addresses === null) return 'could not be looked up through the configured DNS resolver';
  return addresses.length === 0 ? 'none' : addresses.join(', ');
}

function partSaid(what: string, part: Lookup<HostAddresses[]>): string {
  if (part.value === null) return `${what}: ${unknownSaid(part.failed)}`;
  if (part.value.length === 0) return `${what}: there are none`;
  return `${what}: ${part.value.map((h) => `${h.host} ${listSaid(h.addresses)}`).join('; ')}`;
}

/** The mail hosts of MX records, without a null MX ('.'), which names no host. */
function mailHosts(records: ReadonlyArray<{ exchange: string }>): string[] {
  return records.map((r) => r.exchange).filter((host) => host !== '' && host !== '.');
}

/**
 * `ipv6`: observed when anything is known; `not_found` when every authority asked answered and
 * none named an IPv6 address; when nothing could be looked up, the domain's own lookup failure.
 */
export const IPV6_PROBE: Probe = {
  source: 'dns',
  names: ['ipv6'],
  asked: (ctx) => `Asked the DNS resolver for the AAAA records of ${ctx.domain}, of its name servers and of its mail servers`,
  async run(ctx, shared) {
    const [domain, nameservers, mailServers] = await Promise.all([
      // The domain itself not existing (or a resolver denying its TLD) is said like every other DNS answer.
      settle(ctx.dns.resolve6(ctx.domain).then((list) => list.sort()), [], true),
      hostsAaaa(ctx, shared.nameservers()),
      hostsAaaa(ctx, shared.mx().then(mailHosts)),
    ]);
    if (domain.value === null && nameservers.value === null && mailServers.value === null) throw domain.failed;
    const value = { domain: domain.value, nameservers: nameservers.value, mailServers: mailServers.value };
    const hosts = [...(nameservers.value ?? []), ...(mailServers.value ?? [])];
    const lists = [domain.value, ...hosts.map((h) => h.addresses)];
    const ownSaid = domain.value === null ? unknownSaid(domain.failed) : listSaid(domain.value);
    const said = `${ctx.domain}: ${ownSaid}; ${partSaid('name servers', nameservers)}; ${partSaid('mail servers', mailServers)}`;
    const noneAnywhere = nameservers.value !== null && mailServers.value !== null && lists.every((list) => list !== null && list.length === 0);
    return [observe(ctx, 'dns', 'ipv6', noneAnywhere ? 'not_found' : 'observed', value, `${this.asked(ctx)}; ${said}.`)];
  },
};
