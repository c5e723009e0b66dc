/**
 * The shapes the assessment probes share: what they are given (`ProbeContext`), what they produce
 * (`Observation`, the contract's without its words) and the unit run under one timeout (`Probe`).
 */
import type { CaaRecord } from 'node:dns';
import type { DsAnswer } from '../../net/dns-records.js';
import type { NetClient, NetResponse } from '../../net/index.js';
import type { Observation } from '../../store/index.js';

/** One observation as the probes make it and the store keeps it; its words are made when it is read (observation-words.ts). */
export type { Observation };

/** Which protocol an observation came from. */
export type ObservationSource = Observation['source'];

/** The DNS questions the probes ask; `DnssecResolver` (a `node:dns/promises` Resolver that also asks DS) satisfies it. */
export interface DnsLookup {
  resolve4(hostname: string): Promise<string[]>;
  resolve6(hostname: string): Promise<string[]>;
  resolveNs(hostname: string): Promise<string[]>;
  resolveMx(hostname: string): Promise<Array<{ exchange: string; priority: number }>>;
  resolveTxt(hostname: string): Promise<string[][]>;
  resolveCaa(hostname: string): Promise<CaaRecord[]>;
  /** DS records, which `node:dns` cannot ask; rejects with the same c-ares codes (ENOTFOUND, ENODATA…). */
  resolveDs(hostname: string): Promise<DsAnswer>;
}

/** Everything a probe run needs; the network is reached only through `net` and `inspectTls`. */
export interface ProbeContext {
  /** ASCII (punycode) domain, already validated. */
  readonly domain: string;
  /** The guarded HTTP client (website and RDAP). */
  readonly net: NetClient;
  readonly dns: DnsLookup;
  /** The same CIDRs the net client allows (for the address observation and `inspectTls`). */
  readonly allowPrivate: readonly string[];
  /** Resolver handed to `inspectTls`; default the system lookup. Tests point it at a fixture DNS. */
  readonly resolveHost?: (hostname: string) => Promise<readonly string[]>;
  /** Trust for the TLS observation's `authorized` fact; tests only. */
  readonly tlsCa?: string | readonly string[];
  /** Website ports; tests only, default 80 and 443. */
  readonly ports?: { readonly http: number; readonly https: number };
  /** Base URL (ending in '/') of the RDAP service for a TLD, null when none is known. */
  readonly rdapBaseUrl: (tld: string) => Promise<string | null>;
  /** Time limit of each probe, in milliseconds. */
  readonly timeoutMs: number;
  readonly now: () => Date;
}

/** Lookups several probes need, each made at most once per run (see `shared.ts`). */
export interface SharedLookups {
  /** NS records of the domain (rejects like `DnsLookup.resolveNs`). */
  nameservers(): Promise<string[]>;
  /** MX records of the domain (rejects like `DnsLookup.resolveMx`). */
  mx(): Promise<Array<{ exchange: string; priority: number }>>;
  /** The TLD when the resolver answers NXDOMAIN for it (so its NXDOMAINs prove nothing), else null. */
  deniedTld(): Promise<string | null>;
  /** GET https://domain/ (redirects on the same host followed). */
  httpsHome(): Promise<NetResponse>;
  /** The home page the content probes read: the HTTPS one, or http://domain/ when HTTPS failed to connect. */
  contentPage(): Promise<NetResponse>;
}

/**
 * A unit of probing run under its own timeout; `run` yields one observation per name, in order.
 * A probe that throws yields one failure per name: for a `dns` probe the resolver's answer about
 * the domain's records (`dns-answers.ts`), for any other a failure to reach the host.
 */
export interface Probe {
  readonly source: ObservationSource;
  readonly names: readonly string[];
  /** Needs the domain's addresses (TLS and HTTP): not attempted when there are none. */
  readonly needsAddresses?: boolean;
  /** What is asked of whom, for the evidence of a timeout: 'Asked the DNS resolver for …'. */
  asked(ctx: ProbeContext): string;
  run(ctx: ProbeContext, shared: SharedLookups): Promise<Observation[]>;
}
