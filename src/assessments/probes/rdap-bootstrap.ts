/**
 * Where to ask RDAP about a TLD: the IANA bootstrap registry for domain names (RFC 9224,
 * https://data.iana.org/rdap/dns.json), fetched once through the guarded client and cached.
 */
import type { NetClient } from '../../net/index.js';
import { arrayOf, isObject, parseJson, stringsOf } from './json.js';

/** IANA's public bootstrap (RDAP_BOOTSTRAP_URL's default): the one bootstrap evidence names. */
export const IANA_RDAP_BOOTSTRAP = 'https://data.iana.org/rdap/dns.json';

/** The bootstrap could not be read; `url` is the one fetched, `cause` says why. */
export class RdapBootstrapUnavailable extends Error {
  constructor(readonly url: string, options: { cause: unknown }) {
    super(`the RDAP bootstrap ${url} could not be read`, options);
    this.name = 'RdapBootstrapUnavailable';
  }
}

/** Well inside a probe's limit (10 s), so a slow bootstrap is named in the evidence. */
const BOOTSTRAP_TIMEOUT_MS = 5_000;

/** TLD (lower case) → RDAP base URLs, as the bootstrap lists them. */
export type RdapServices = ReadonlyMap<string, readonly string[]>;

/** Parses a bootstrap document (`{ services: [[["com", "net"], ["https://…/"]], …] }`); throws when it is not one. */
export function parseBootstrap(document: unknown): RdapServices {
  if (!isObject(document) || !Array.isArray(document.services)) throw new Error('not an RDAP bootstrap document (no "services" array)');
  const services = new Map<string, readonly string[]>();
  for (const service of arrayOf(document.services)) {
    const [tlds, urls] = arrayOf(service);
    const bases = stringsOf(urls);
    for (const tld of stringsOf(tlds)) services.set(tld.toLowerCase(), bases);
  }
  return services;
}

function preferred(bases: readonly string[] | undefined): string | null {
  if (bases === undefined) return null;
  const chosen = bases.find((url) => url.startsWith('https://')) ?? bases[0];
  if (chosen === undefined) return null;
  return chosen.endsWith('/') ? chosen : `${chosen}/`;
}

/**
 * A base-URL finder for `ProbeContext.rdapBaseUrl`: the bootstrap at `bootstrapUrl` is fetched
 * through `net` on first use (within `options.timeoutMs`, default 5 s) and cached; a failed fetch
 * is not cached, so the next call retries.
 * Returns the https base URL (ending in '/') for the TLD, or null when the bootstrap lists none;
 * rejects with `RdapBootstrapUnavailable` when the bootstrap cannot be fetched or read.
 */
export function rdapFromBootstrap(net: NetClient, bootstrapUrl: string, options: { readonly timeoutMs?: number } = {}): (tld: string) => Promise<string | null> {
  let services: Promise<RdapServices> | undefined;
  const load = async (): Promise<RdapServices> => {
    const res = await net.request({ method: 'GET', url: bootstrapUrl, headers: { accept: 'application/json' }, timeoutMs: options.timeoutMs ?? BOOTSTRAP_TIMEOUT_MS });
    if (res.status !== 200) throw new Error(`it answered ${res.status}`);
    return parseBootstrap(parseJson(res.body.toString('utf8')));
  };
  return async (tld) => {
    services ??= load().catch((err: unknown) => {
      services = undefined;
      throw new RdapBootstrapUnavailable(bootstrapUrl, { cause: err });
    });
    return preferred((await services).get(tld.toLowerCase().replace(/\.$/, '')));
  };
}
