/**
 * The `registration` observation from RDAP (RFC 9083): registration, expiration and last-changed
 * dates, the registrar and the domain's age, from the registry's domain object; and
 * `registration_expiry`, its expiration event alone.
 */
import { arrayOf, isObject, parseJson, stringAt, stringsOf, type JsonObject } from './json.js';
import { NetError, type NetResponse } from '../../net/index.js';
import { failure, hostOf, observe } from './observation.js';
import { IANA_RDAP_BOOTSTRAP, RdapBootstrapUnavailable } from './rdap-bootstrap.js';
import type { Observation, Probe, ProbeContext } from './types.js';

const DAY_MS = 86_400_000;
const TIMEOUT_MARGIN_MS = 50;

/** What the registry says about the domain; dates are ISO 8601, null when not published. */
export interface Registration {
  readonly url: string;
  readonly registered: string | null;
  readonly expires: string | null;
  readonly lastChanged: string | null;
  readonly registrar: string | null;
  readonly registrarIanaId: string | null;
  readonly ageDays: number | null;
  readonly status: string[];
}

function isoDate(text: string | null): string | null {
  if (text === null) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function eventDate(domain: JsonObject, action: string): string | null {
  const event = arrayOf(domain.events).find((e) => stringAt(e, 'eventAction')?.toLowerCase() === action);
  return isoDate(stringAt(event, 'eventDate'));
}

/** The `fn` of a jCard (`["vcard", [["fn", {}, "text", "Name"], …]]`). */
function vcardName(entity: JsonObject): string | null {
  const [, properties] = arrayOf(entity.vcardArray);
  const fn = arrayOf(properties).map(arrayOf).find((property) => property[0] === 'fn');
  const name = fn?.[3];
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : null;
}

function registrarEntity(domain: JsonObject): JsonObject | undefined {
  return arrayOf(domain.entities).filter(isObject).find((entity) => stringsOf(entity.roles).includes('registrar'));
}

function ianaId(entity: JsonObject | undefined): string | null {
  if (entity === undefined) return null;
  const id = arrayOf(entity.publicIds).find((p) => stringAt(p, 'type')?.toLowerCase() === 'iana registrar id');
  return stringAt(id, 'identifier');
}

/** The registration facts of an RDAP domain object. */
export function registrationOf(domain: JsonObject, url: string, now: Date): Registration {
  const registered = eventDate(domain, 'registration');
  const entity = registrarEntity(domain);
  return {
    url,
    registered,
    expires: eventDate(domain, 'expiration'),
    lastChanged: eventDate(domain, 'last changed'),
    registrar: entity === undefined ? null : (vcardName(entity) ?? stringAt(entity, 'handle')),
    registrarIanaId: ianaId(entity),
    ageDays: registered === null ? null : Math.floor((now.getTime() - Date.parse(registered)) / DAY_MS),
    status: stringsOf(domain.status),
  };
}

function tldOf(domain: string): string {
  return domain.replace(/\.$/, '').split('.').pop() ?? '';
}

/** When the registration runs out, from the `expiration` event; `expires` null when the registry publishes none. */
export interface RegistrationExpiry {
  readonly expires: string | null;
  readonly daysToExpiry: number | null;
}

/** One answer said of both names: a failure or a 404 tells as much of the expiry as of the registration. */
function forBoth(observation: Observation): Observation[] {
  return [observation, { ...observation, name: 'registration_expiry' }];
}

/** `registration_expiry` from the registration facts; no expiration event is unknown, not absence. */
function expiryObservation(ctx: ProbeContext, asked: string, facts: Registration): Observation {
  const now = ctx.now().getTime();
  const value: RegistrationExpiry = {
    expires: facts.expires,
    daysToExpiry: facts.expires === null ? null : Math.floor((Date.parse(facts.expires) - now) / DAY_MS),
  };
  const said = facts.expires === null ? 'the domain object has no expiration event' : `its expiration event is dated ${facts.expires}`;
  return observe(ctx, 'rdap', 'registration_expiry', 'observed', value, `${asked}; ${said}.`);
}

/** The observation when the bootstrap could not tell which RDAP server to ask. */
function bootstrapFailure(ctx: ProbeContext, tld: string, err: unknown): Observation {
  const asked = `Looked up the RDAP server for .${tld} in the IANA bootstrap`;
  if (!(err instanceof RdapBootstrapUnavailable)) return failure(ctx, 'rdap', 'registration', err, asked, 'the RDAP bootstrap');
  // IANA's is named; a copy the operator configured is the service's own infrastructure: said of,
  // never named (nor are the words of its network errors, which may name its host).
  const configured = err.url !== IANA_RDAP_BOOTSTRAP;
  const whom = configured ? 'the configured RDAP bootstrap' : `the RDAP bootstrap ${hostOf(err.url)}`;
  const where = configured ? asked : `${asked} (${err.url})`;
  if (err.cause instanceof NetError) {
    const failed = failure(ctx, 'rdap', 'registration', err.cause, where, whom);
    if (!configured) return failed;
    const said = failed.outcome === 'timeout' ? 'gave no answer in time' : 'could not be reached';
    return observe(ctx, 'rdap', 'registration', failed.outcome, null, `${where}; ${whom} ${said}; the registry was not asked.`);
  }
  const why = err.cause instanceof Error ? err.cause.message : String(err.cause);
  return observe(ctx, 'rdap', 'registration', 'error', null, `${where}; ${whom} gave no usable bootstrap document: ${why}; the registry was not asked.`);
}

/**
 * `registration` and `registration_expiry`: GET {base}domain/{domain} from the TLD's RDAP server.
 * Only that server's 404 is `not_found`; a bootstrap or server that cannot be reached is `error`
 * or `timeout`, naming it. Every answer yields both names.
 */
export const RDAP_PROBE: Probe = {
  source: 'rdap',
  names: ['registration', 'registration_expiry'],
  asked: (ctx) => `Asked the RDAP server of .${tldOf(ctx.domain)} for the domain object of ${ctx.domain}`,
  async run(ctx) {
    const started = Date.now();
    const tld = tldOf(ctx.domain);
    let base: string | null;
    try {
      base = await ctx.rdapBaseUrl(tld);
    } catch (err) {
      return forBoth(bootstrapFailure(ctx, tld, err));
    }
    if (base === null) return forBoth(observe(ctx, 'rdap', 'registration', 'error', null, `Looked up the RDAP server for .${tld} in the IANA bootstrap; none is listed, so no registry was asked.`));
    const url = new URL(`domain/${ctx.domain}`, base.endsWith('/') ? base : `${base}/`).href;
    const asked = `Asked for ${url} (Accept: application/rdap+json)`;
    let res: NetResponse;
    try {
      // Ends just before the probe's own limit, so a slow server is named in the evidence.
      const timeoutMs = Math.max(1, ctx.timeoutMs - (Date.now() - started) - TIMEOUT_MARGIN_MS);
      res = await ctx.net.request({ method: 'GET', url, headers: { accept: 'application/rdap+json, application/json' }, timeoutMs });
    } catch (err) {
      return forBoth(failure(ctx, 'rdap', 'registration', err, asked, `the RDAP server ${hostOf(url)}`));
    }
    if (res.status === 404) return forBoth(observe(ctx, 'rdap', 'registration', 'not_found', null, `${asked}; the RDAP server ${hostOf(url)} answered 404 (no such domain object).`));
    const domain = parseJson(res.body.toString('utf8'));
    if (res.status !== 200 || !isObject(domain)) {
      return forBoth(observe(ctx, 'rdap', 'registration', 'error', { status: res.status }, `${asked}; the RDAP server ${hostOf(url)} answered ${res.status} without an RDAP domain object.`));
    }
    const facts = registrationOf(domain, res.url, ctx.now());
    const registrar = facts.registrar === null ? 'no registrar named' : `registrar "${facts.registrar}"`;
    const said = `registered ${facts.registered ?? 'on an unpublished date'}, expires ${facts.expires ?? 'on an unpublished date'}, ${registrar}`;
    return [observe(ctx, 'rdap', 'registration', 'observed', facts, `${asked}; ${said}.`), expiryObservation(ctx, asked, facts)];
  },
};
