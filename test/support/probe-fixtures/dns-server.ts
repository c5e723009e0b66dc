/**
 * A fixture DNS server (dns2, UDP on 127.0.0.1) answering from in-memory zones, and a
 * `node:dns/promises` Resolver pointed at it. Names not in the zones get NXDOMAIN; a record type a
 * zone lists under `silent` is never answered (to exercise time limits).
 */
import { Resolver } from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import dns2 from 'dns2';

const { Packet } = dns2;

export type RecordType = 'A' | 'AAAA' | 'NS' | 'MX' | 'TXT' | 'CAA';

export interface Zone {
  readonly a?: readonly string[];
  readonly aaaa?: readonly string[];
  readonly ns?: readonly string[];
  readonly mx?: ReadonlyArray<{ readonly priority: number; readonly exchange: string }>;
  /** Each record is a list of character-strings (joined by resolvers that read it). */
  readonly txt?: ReadonlyArray<readonly string[]>;
  readonly caa?: ReadonlyArray<{ readonly flags: number; readonly tag: string; readonly value: string }>;
  readonly silent?: readonly RecordType[];
}

export type Zones = Readonly<Record<string, Zone>>;

export interface FixtureDns {
  readonly port: number;
  /** Queries received, as 'TYPE name'. */
  readonly queries: string[];
  /** A Resolver that asks only this server. */
  readonly resolver: Resolver;
  /** A `resolve(host)` for the net client and `inspectTls`: A then AAAA, NXDOMAIN/ENODATA rethrown when both fail. */
  resolveHost(hostname: string): Promise<readonly string[]>;
  close(): Promise<void>;
}

const TYPE_NAMES = new Map<number, RecordType>([
  [Packet.TYPE.A, 'A'],
  [Packet.TYPE.AAAA, 'AAAA'],
  [Packet.TYPE.NS, 'NS'],
  [Packet.TYPE.MX, 'MX'],
  [Packet.TYPE.TXT, 'TXT'],
  [Packet.TYPE.CAA, 'CAA'],
]);

function records(zone: Zone, type: RecordType): Array<Partial<dns2.Packet.Resource>> {
  switch (type) {
    case 'A': return (zone.a ?? []).map((address) => ({ type: Packet.TYPE.A, address }));
    case 'AAAA': return (zone.aaaa ?? []).map((address) => ({ type: Packet.TYPE.AAAA, address }));
    case 'NS': return (zone.ns ?? []).map((ns) => ({ type: Packet.TYPE.NS, ns }));
    case 'MX': return (zone.mx ?? []).map((mx) => ({ type: Packet.TYPE.MX, priority: mx.priority, exchange: mx.exchange }));
    case 'TXT': return (zone.txt ?? []).map((data) => ({ type: Packet.TYPE.TXT, data: [...data] }));
    case 'CAA': return (zone.caa ?? []).map((caa) => ({ type: Packet.TYPE.CAA, ...caa }));
  }
}

export async function startFixtureDns(zones: Zones): Promise<FixtureDns> {
  const queries: string[] = [];
  const server = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    if (question === undefined) return void send(response);
    const name = question.name.toLowerCase().replace(/\.$/, '');
    const type = TYPE_NAMES.get(question.type);
    queries.push(`${type ?? question.type} ${name}`);
    const zone = zones[name];
    if (zone === undefined) {
      response.header.rcode = 3; // NXDOMAIN
      return void send(response);
    }
    if (type !== undefined && zone.silent?.includes(type)) return;
    for (const record of type === undefined ? [] : records(zone, type)) {
      response.answers.push(Packet.createResourceFromQuestion(question, { class: Packet.CLASS.IN, ttl: 60, ...record }));
    }
    void send(response);
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const resolver = new Resolver({ timeout: 1000, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  const resolveHost = async (hostname: string): Promise<readonly string[]> => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const found = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    if (found.length === 0 && v4.status === 'rejected') throw v4.reason;
    return found;
  };
  return {
    port,
    queries,
    resolver,
    resolveHost,
    close: async () => {
      resolver.cancel();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
