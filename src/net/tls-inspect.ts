/**
 * Guarded TLS inspection: the certificate a host presents, observed rather than trusted. The
 * destination is checked exactly like the HTTP connector's (`checked-address.ts`); the handshake
 * does not reject invalid certificates, and nothing is sent after it.
 */
import { isIP } from 'node:net';
import { checkServerIdentity, connect, type DetailedPeerCertificate, type TLSSocket } from 'node:tls';
import { createAddressPolicy } from './address-policy.js';
import { checkedAddress, lookupAll, refusedPeer, type Resolve } from './checked-address.js';
import { toNetError } from './error-mapping.js';
import { NetError } from './errors.js';

/** What `inspectTls` connects to and how. */
export interface TlsInspectOptions {
  readonly host: string;
  /** Default 443. */
  readonly port?: number;
  /** CIDRs allowed although not globally routable; empty in production. */
  readonly allowPrivate: readonly string[];
  /** Injectable DNS; default `dns.promises.lookup(host, { all: true, verbatim: true })`. */
  readonly resolve?: Resolve;
  /** Bound on the lookup plus the handshake; default 10 000 ms. */
  readonly timeoutMs?: number;
  /** Trust used to compute `authorized` (tests pass a generated CA); default the system store. */
  readonly ca?: string | readonly string[];
  /** Clock for `daysToExpiry`; default `new Date()`. */
  readonly now?: () => Date;
}

/** What the handshake showed. Dates are ISO 8601; `daysToExpiry` is negative once expired. */
export interface TlsFacts {
  /** The checked peer address that answered. */
  readonly remoteAddress: string;
  /** Whether the chain verifies against the trust used and the name matches. */
  readonly authorized: boolean;
  /** OpenSSL/Node code of the first verification failure (e.g. 'CERT_HAS_EXPIRED'), null when authorized. */
  readonly authorizationError: string | null;
  /** Negotiated protocol, e.g. 'TLSv1.3'. */
  readonly protocol: string | null;
  readonly subjectCommonName: string | null;
  readonly issuerCommonName: string | null;
  readonly issuerOrganization: string | null;
  /** DNS names and IP addresses from the subjectAltName extension. */
  readonly subjectAltNames: readonly string[];
  readonly validFrom: string;
  readonly validTo: string;
  readonly daysToExpiry: number;
  readonly selfSigned: boolean;
  /** `tls.checkServerIdentity(host, certificate)` found no mismatch. */
  readonly hostnameMatches: boolean;
}

const DAY_MS = 86_400_000;

function firstText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return firstText(value[0]);
  return null;
}

function altNames(raw: string | undefined): string[] {
  if (raw === undefined || raw === '') return [];
  return raw
    .split(', ')
    .map((entry) => /^(?:DNS|IP Address):(.*)$/.exec(entry)?.[1])
    .filter((name): name is string => name !== undefined && name !== '');
}

function sameName(a: object, b: object): boolean {
  const canonical = (name: object): string => JSON.stringify(Object.entries(name).sort(([x], [y]) => x.localeCompare(y)));
  return canonical(a) === canonical(b);
}

function isSelfSigned(cert: DetailedPeerCertificate): boolean {
  const issuer: DetailedPeerCertificate | undefined = cert.issuerCertificate;
  if (issuer !== undefined && issuer.fingerprint256 === cert.fingerprint256) return true;
  return sameName(cert.subject, cert.issuer);
}

function authorizationCode(socket: TLSSocket): string | null {
  if (socket.authorized) return null;
  const raw: unknown = socket.authorizationError;
  if (typeof raw === 'string') return raw;
  if (raw instanceof Error) return raw.message;
  return 'unknown verification failure';
}

function factsOf(socket: TLSSocket, host: string, now: Date): TlsFacts {
  const cert = socket.getPeerCertificate(true);
  if (typeof cert.valid_to !== 'string') throw new NetError('connect_failed', `${host} presented no certificate`);
  const validTo = new Date(cert.valid_to);
  return {
    remoteAddress: socket.remoteAddress ?? '',
    authorized: socket.authorized,
    authorizationError: authorizationCode(socket),
    protocol: socket.getProtocol(),
    subjectCommonName: firstText(cert.subject.CN),
    issuerCommonName: firstText(cert.issuer.CN),
    issuerOrganization: firstText(cert.issuer.O),
    subjectAltNames: altNames(cert.subjectaltname),
    validFrom: new Date(cert.valid_from).toISOString(),
    validTo: validTo.toISOString(),
    daysToExpiry: Math.floor((validTo.getTime() - now.getTime()) / DAY_MS),
    selfSigned: isSelfSigned(cert),
    hostnameMatches: checkServerIdentity(host, cert) === undefined,
  };
}

interface HandshakeTarget {
  readonly address: string;
  readonly port: number;
  readonly host: string;
  readonly ca: string | string[] | undefined;
  readonly timeoutMs: number;
}

function handshake(target: HandshakeTarget): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const servername = isIP(target.host) === 0 ? target.host : undefined;
    const socket = connect({ host: target.address, port: target.port, servername, ca: target.ca, rejectUnauthorized: false });
    let settled = false;
    const settle = (err: NetError | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err === null) return resolve(socket);
      socket.destroy();
      reject(err);
    };
    const timer = setTimeout(() => settle(new NetError('timeout', `no TLS handshake with ${target.host} within ${target.timeoutMs} ms`)), target.timeoutMs);
    socket.once('secureConnect', () => settle(null));
    socket.on('error', (err: unknown) => settle(toNetError(err)));
    socket.once('close', () => settle(new NetError('connect_failed', `${target.host} closed the connection during the TLS handshake`)));
  });
}

/**
 * Connects to `host` (checked against the address policy after resolution, like every `src/net`
 * connection; a refused destination rejects with `blocked_destination` and no connection is
 * made), completes a TLS handshake with SNI = host without rejecting invalid certificates,
 * re-checks the peer address, reads the certificate and closes. Rejects only with `NetError`.
 */
export async function inspectTls(options: TlsInspectOptions): Promise<TlsFacts> {
  const policy = createAddressPolicy(options.allowPrivate);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const started = Date.now();
  const host = options.host.replace(/^\[(.*)\]$/, '$1');
  const address = await checkedAddress(host, { policy, resolve: options.resolve ?? lookupAll, connectTimeoutMs: timeoutMs });
  const ca = typeof options.ca === 'string' || options.ca === undefined ? options.ca : [...options.ca];
  const remaining = Math.max(0, timeoutMs - (Date.now() - started));
  const socket = await handshake({ address, port: options.port ?? 443, host, ca, timeoutMs: remaining });
  try {
    const refused = refusedPeer(socket.remoteAddress, policy);
    if (refused !== null) throw refused;
    return factsOf(socket, host, options.now?.() ?? new Date());
  } finally {
    socket.destroy();
  }
}
