/**
 * The `registration` observation from RDAP (RFC 9083): registration, expiration and last-changed
 * dates, the registrar and the domain's age, from the registry's domain object.
 */
import { arrayOf, isObject, parseJson, stringAt, stringsOf, type JsonObject } from './json.js';
import { observe } from './observation.js';
import type { Probe } from './types.js';

const DAY_MS = 86_400_000;

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

/** `registration`: GET {base}domain/{domain} from the TLD's RDAP service. */
export const RDAP_PROBE: Probe = {
  source: 'rdap',
  names: ['registration'],
  asked: (ctx) => `Asked the RDAP service of .${ctx.domain.split('.').pop() ?? ''} for the domain object of ${ctx.domain}`,
  async run(ctx) {
    const tld = ctx.domain.split('.').pop() ?? '';
    const base = await ctx.rdapBaseUrl(tld);
    if (base === null) return [observe(ctx, 'rdap', 'registration', 'not_found', null, `Looked up the RDAP service for .${tld} in the IANA bootstrap; none is listed.`)];
    const url = new URL(`domain/${ctx.domain}`, base.endsWith('/') ? base : `${base}/`).href;
    const asked = `Asked for ${url} (Accept: application/rdap+json)`;
    const res = await ctx.net.request({ method: 'GET', url, headers: { accept: 'application/rdap+json, application/json' }, timeoutMs: ctx.timeoutMs });
    if (res.status === 404) return [observe(ctx, 'rdap', 'registration', 'not_found', null, `${asked}; the registry answered 404 (no such domain object).`)];
    const domain = parseJson(res.body.toString('utf8'));
    if (res.status !== 200 || !isObject(domain)) {
      return [observe(ctx, 'rdap', 'registration', 'error', { status: res.status }, `${asked}; it answered ${res.status} without an RDAP domain object.`)];
    }
    const facts = registrationOf(domain, res.url, ctx.now());
    const registrar = facts.registrar === null ? 'no registrar named' : `registrar "${facts.registrar}"`;
    const said = `registered ${facts.registered ?? 'on an unpublished date'}, expires ${facts.expires ?? 'on an unpublished date'}, ${registrar}`;
    return [observe(ctx, 'rdap', 'registration', 'observed', facts, `${asked}; ${said}.`)];
  },
};
