/**
 * A fixture DNS server (dns2, UDP on 127.0.0.1) answering from in-memory zones, and a
 * resolver pointed at it (`DnssecResolver`: `node:dns/promises` plus DS). Names not in the zones get
 * NXDOMAIN; a record type a zone lists under `silent` is never answered (to exercise time limits),
 * one listed under `refused` is answered REFUSED.
 */
import type { AddressInfo } from 'node:net';
import dns2 from 'dns2';
import { DnssecResolver } from '../../../src/net/dns-records.js';

const { Packet } = dns2;

export type RecordType = 'A' | 'AAAA' | 'NS' | 'MX' | 'TXT' | 'CAA' | 'DS';

/** dns2 has no DS type (RFC 4034 §5): its records are sent as raw RDATA. */
const TYPE_DS = 43;

/** A DS record as a zone lists it; `digest` in hexadecimal. */
export interface DsFixture {
  readonly keyTag: number;
  readonly algorithm: number;
  readonly digestType: number;
  readonly digest: string;
}

export interface Zone {
  readonly a?: readonly string[];
  readonly aaaa?: readonly string[];
  readonly ns?: readonly string[];
  readonly mx?: ReadonlyArray<{ readonly priority: number; readonly exchange: string }>;
  /** Each record is a list of character-strings (joined by resolvers that read it). */
  readonly txt?: ReadonlyArray<readonly string[]>;
  readonly caa?: ReadonlyArray<{ readonly flags: number; readonly tag: string; readonly value: string }>;
  readonly ds?: readonly DsFixture[];
  /** Set the AD flag on answers, as a validating resolver does for a signed zone. */
  readonly authenticated?: boolean;
  readonly silent?: readonly RecordType[];
  readonly refused?: readonly RecordType[];
}

export type Zones = Readonly<Record<string, Zone>>;

export interface FixtureDns {
  readonly port: number;
  /** Queries received, as 'TYPE name'. */
  readonly queries: string[];
  /** A Resolver (with DS) that asks only this server. */
  readonly resolver: DnssecResolver;
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
  [TYPE_DS, 'DS'],
]);

function dsRdata(ds: DsFixture): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(ds.keyTag, 0);
  head.writeUInt8(ds.algorithm, 2);
  head.writeUInt8(ds.digestType, 3);
  return Buffer.concat([head, Buffer.from(ds.digest, 'hex')]);
}

function records(zone: Zone, type: RecordType): Array<Partial<dns2.Packet.Resource>> {
  switch (type) {
    case 'A': return (zone.a ?? []).map((address) => ({ type: Packet.TYPE.A, address }));
    case 'AAAA': return (zone.aaaa ?? []).map((address) => ({ type: Packet.TYPE.AAAA, address }));
    case 'NS': return (zone.ns ?? []).map((ns) => ({ type: Packet.TYPE.NS, ns }));
    case 'MX': return (zone.mx ?? []).map((mx) => ({ type: Packet.TYPE.MX, priority: mx.priority, exchange: mx.exchange }));
    case 'TXT': return (zone.txt ?? []).map((data) => ({ type: Packet.TYPE.TXT, data: [...data] }));
    case 'CAA': return (zone.caa ?? []).map((caa) => ({ type: Packet.TYPE.CAA, ...caa }));
    // dns2 writes a Buffer `data` as the raw RDATA of a type it cannot encode; its types allow only text.
    case 'DS': return (zone.ds ?? []).map((ds) => ({ type: TYPE_DS, data: dsRdata(ds) as unknown as string }));
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
    if (type !== undefined && zone.refused?.includes(type)) {
      response.header.rcode = 5; // REFUSED
      return void send(response);
    }
    // dns2 encodes the AD bit (RFC 4035 §3.2.3) though its types do not name it.
    if (zone.authenticated === true) Object.assign(response.header, { ad: 1 });
    for (const record of type === undefined ? [] : records(zone, type)) {
      response.answers.push(Packet.createResourceFromQuestion(question, { class: Packet.CLASS.IN, ttl: 60, ...record }));
    }
    void send(response);
  });
  await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const resolver = new DnssecResolver({ timeout: 1000, tries: 1 });
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
