/**
 * The DNS question `node:dns` cannot ask: the DS records of a name (DNSSEC delegation signer,
 * RFC 4034 §5). It is sent over UDP to the servers a `node:dns` Resolver is set to, encoded and
 * decoded by dns-packet. Failures carry the c-ares codes a Resolver's do (ENOTFOUND, ENODATA,
 * ESERVFAIL, EREFUSED, ETIMEOUT, ECONNREFUSED), so callers read both alike.
 */
import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import type { ResolverOptions } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import dnsPacket, { type DecodedPacket } from 'dns-packet';

/** One DS record: which key of the child zone it vouches for, and how (RFC 4034 §5.1). */
export interface DsRecord {
  readonly keyTag: number;
  readonly algorithm: number;
  readonly digestType: number;
  /** The digest, in hexadecimal. */
  readonly digest: string;
}

/** The DS records of a name, and whether the resolver says it validated them (the AD flag, RFC 4035 §3.2.3). */
export interface DsAnswer {
  readonly records: DsRecord[];
  readonly authenticated: boolean;
}

/** Response codes (RFC 1035 §4.1.1) as c-ares names them; NXDOMAIN is c-ares' ENOTFOUND. */
const RCODE_ERRORS: Readonly<Record<number, string>> = { 1: 'EFORMERR', 2: 'ESERVFAIL', 3: 'ENOTFOUND', 4: 'ENOTIMP', 5: 'EREFUSED' };

/** Failures after which the next server (or the next try) is asked, as c-ares does. */
const ASK_AGAIN: ReadonlySet<string> = new Set(['ETIMEOUT', 'ECONNREFUSED', 'ESERVFAIL', 'EREFUSED']);

/** Room for a few DS records and their signatures without truncation (the DNS flag day 2020 size). */
const UDP_PAYLOAD_SIZE = 1232;

function dnsError(code: string, hostname: string, detail = code): Error {
  return Object.assign(new Error(`queryDs ${detail} ${hostname}`), { code, hostname });
}

function codeOf(err: unknown): string {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : '';
}

/** '192.0.2.53', '192.0.2.53:5353', '2001:db8::53' or '[2001:db8::53]:5353', as `Resolver.getServers()` gives them. */
function endpoint(server: string): { address: string; port: number } {
  if (isIP(server) !== 0) return { address: server, port: 53 };
  const bracketed = /^\[(.+)\]:(\d+)$/.exec(server);
  if (bracketed !== null) return { address: bracketed[1] ?? '', port: Number(bracketed[2]) };
  const colon = server.lastIndexOf(':');
  return { address: server.slice(0, colon), port: Number(server.slice(colon + 1)) };
}

function dsQuery(id: number, name: string): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED | dnsPacket.AUTHENTIC_DATA,
    questions: [{ type: 'DS', name, class: 'IN' }],
    additionals: [{ type: 'OPT', name: '.', udpPayloadSize: UDP_PAYLOAD_SIZE, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }],
  });
}

/** One query to one server; a connected socket so that an ICMP "port unreachable" is ECONNREFUSED. */
function exchange(server: string, name: string, timeoutMs: number): Promise<DecodedPacket> {
  const { address, port } = endpoint(server);
  const id = randomInt(0x10000);
  const socket = createSocket(isIP(address) === 6 ? 'udp6' : 'udp4');
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.close();
      finish();
    };
    const timer = setTimeout(() => settle(() => reject(dnsError('ETIMEOUT', name))), timeoutMs);
    socket.on('error', (err) => settle(() => reject(err)));
    socket.on('message', (message) => {
      let packet: DecodedPacket;
      try {
        packet = dnsPacket.decode(message);
      } catch {
        return; // not a DNS message: keep waiting for the answer
      }
      if (packet.id === id && packet.type === 'response') settle(() => resolve(packet));
    });
    socket.connect(port, address, () => socket.send(dsQuery(id, name), (err) => err && settle(() => reject(err))));
  });
}

function dsAnswer(packet: DecodedPacket, name: string): DsAnswer {
  const code = RCODE_ERRORS[(packet.flags ?? 0) & 0xf];
  if (code !== undefined) throw dnsError(code, name);
  // DS records are small; an answer too large for the UDP payload is not expected, so not retried over TCP.
  if (packet.flag_tc) throw dnsError('EBADRESP', name, 'truncated answer');
  const records = (packet.answers ?? []).flatMap((answer) =>
    answer.type === 'DS' && answer.name.toLowerCase() === name.toLowerCase()
      ? [{ keyTag: answer.data.keyTag, algorithm: answer.data.algorithm, digestType: answer.data.digestType, digest: answer.data.digest.toString('hex') }]
      : [],
  );
  if (records.length === 0) throw dnsError('ENODATA', name);
  return { records, authenticated: packet.flag_ad };
}

/**
 * Asks `servers` in turn (`tries` rounds, `timeoutMs` each) for the DS records of `hostname`.
 * NXDOMAIN and NODATA reject at once (ENOTFOUND, ENODATA): they are answers, not failures.
 */
export async function queryDs(servers: readonly string[], hostname: string, options: { timeoutMs: number; tries: number }): Promise<DsAnswer> {
  const name = hostname.replace(/\.$/, '');
  let last: unknown = dnsError('ECONNREFUSED', name, 'no DNS server is configured:');
  for (let round = 0; round < Math.max(1, options.tries); round += 1) {
    for (const server of servers) {
      try {
        return dsAnswer(await exchange(server, name, options.timeoutMs), name);
      } catch (err) {
        if (!ASK_AGAIN.has(codeOf(err))) throw err;
        last = err;
      }
    }
  }
  throw last;
}

/** A `node:dns` Resolver that can also ask for DS records, of the same servers with the same limits. */
export class DnssecResolver extends Resolver {
  readonly #limits: { timeoutMs: number; tries: number };

  constructor(options: ResolverOptions = {}) {
    super(options);
    // c-ares' defaults when unset: 5 s and 4 tries (timeout -1 means the default).
    this.#limits = { timeoutMs: options.timeout === undefined || options.timeout < 0 ? 5000 : options.timeout, tries: options.tries ?? 4 };
  }

  /** The DS records of `hostname` (rejects like `resolveMx`: ENOTFOUND for NXDOMAIN, ENODATA for none). */
  resolveDs(hostname: string): Promise<DsAnswer> {
    return queryDs(this.getServers(), hostname, this.#limits);
  }
}
