/**
 * IANA special-purpose address ranges that are not globally routable (RFC 6890 and successors),
 * each with the label a refusal reports. Matching uses `node:net` BlockList, one per range.
 */
import { BlockList } from 'node:net';

interface LabelledRange {
  readonly label: string;
  readonly list: BlockList;
}

function range(label: string, network: string, prefix: number, family: 'ipv4' | 'ipv6'): LabelledRange {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { label: `${label} ${network}/${prefix}`, list };
}

const IPV4_RANGES: readonly LabelledRange[] = [
  range('"this network"', '0.0.0.0', 8, 'ipv4'),
  range('private', '10.0.0.0', 8, 'ipv4'),
  range('shared address space (CGNAT)', '100.64.0.0', 10, 'ipv4'),
  range('loopback', '127.0.0.0', 8, 'ipv4'),
  range('link-local', '169.254.0.0', 16, 'ipv4'),
  range('private', '172.16.0.0', 12, 'ipv4'),
  range('IETF protocol assignments', '192.0.0.0', 24, 'ipv4'),
  range('documentation (TEST-NET-1)', '192.0.2.0', 24, 'ipv4'),
  range('6to4 relay anycast', '192.88.99.0', 24, 'ipv4'),
  range('private', '192.168.0.0', 16, 'ipv4'),
  range('benchmarking', '198.18.0.0', 15, 'ipv4'),
  range('documentation (TEST-NET-2)', '198.51.100.0', 24, 'ipv4'),
  range('documentation (TEST-NET-3)', '203.0.113.0', 24, 'ipv4'),
  range('multicast', '224.0.0.0', 4, 'ipv4'),
  range('limited broadcast', '255.255.255.255', 32, 'ipv4'),
  range('reserved', '240.0.0.0', 4, 'ipv4'),
];

/** Named ranges outside 2000::/3 (for a precise label) and the exceptions inside it. */
const IPV6_RANGES: readonly LabelledRange[] = [
  range('unspecified', '::', 128, 'ipv6'),
  range('loopback', '::1', 128, 'ipv6'),
  range('link-local', 'fe80::', 10, 'ipv6'),
  range('unique local', 'fc00::', 7, 'ipv6'),
  range('multicast', 'ff00::', 8, 'ipv6'),
  range('IETF protocol assignments (incl. Teredo)', '2001::', 23, 'ipv6'),
  range('documentation', '2001:db8::', 32, 'ipv6'),
  range('6to4', '2002::', 16, 'ipv6'),
  range('documentation', '3fff::', 20, 'ipv6'),
];

const GLOBAL_UNICAST = range('global unicast', '2000::', 3, 'ipv6');

/** The label of the special-purpose range holding a dotted-quad IPv4 address, or null. */
export function specialIpv4Range(address: string): string | null {
  return IPV4_RANGES.find((r) => r.list.check(address, 'ipv4'))?.label ?? null;
}

/** The reason a (zone-free) IPv6 address is not global unicast, or null when it is. */
export function specialIpv6Range(address: string): string | null {
  const named = IPV6_RANGES.find((r) => r.list.check(address, 'ipv6'));
  if (named !== undefined) return named.label;
  return GLOBAL_UNICAST.list.check(address, 'ipv6') ? null : 'not global unicast (outside 2000::/3)';
}
