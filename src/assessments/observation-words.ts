/**
 * What a credit professional reads of each observation: a label for what was looked at, and one
 * plain sentence that says what came back. Both are made from the observation itself (its name,
 * outcome and value) when it is read, so every stored assessment reads the same. The sentences say
 * only what the value holds: no judgement, no advice, no score. The technical evidence stays
 * beside them.
 */
import type { components } from '../../generated/openapi.js';
import { plural } from '../plural.js';
import type { Observation } from './probes/types.js';

/** An observation as the contract sends it: with its label and its sentence. */
export type ObservationInWords = components['schemas']['Observation'];

type Value = Readonly<Record<string, unknown>>;

interface Words {
  readonly label: string;
  /** The sentence for `observed`, from the value. */
  readonly observed: (value: Value, list: readonly unknown[]) => string;
  /** The sentence for `not_found`: the domain's own authority said there is none. */
  readonly notFound: string;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
const isValue = (item: unknown): item is Value => typeof item === 'object' && item !== null && !Array.isArray(item);
const day = (value: unknown): string | null => text(value)?.slice(0, 10) ?? null;

/** Each observation, in report order: its label, and what each answer reads as. */
export const OBSERVATION_WORDS: Readonly<Record<string, Words>> = {
  addresses: { label: 'Internet addresses', observed: (_, list) => addressesSaid(list), notFound: 'The name exists but points to no internet address.' },
  nameservers: {
    label: 'Name servers',
    observed: (_, list) => `${plural(list.length, 'name server')} ${list.length === 1 ? 'answers' : 'answer'} for the domain: ${strings(list).join(', ')}.`,
    notFound: 'The domain lists no name servers.',
  },
  mx_records: { label: 'Mail servers', observed: (v) => mailSaid(v), notFound: 'The domain lists no mail servers.' },
  spf: { label: 'Who may send its e-mail (SPF)', observed: (v) => spfSaid(text(v.allQualifier)), notFound: 'The domain publishes no SPF record saying who may send its e-mail.' },
  dmarc: { label: 'What receivers do with forged e-mail (DMARC)', observed: (v) => dmarcSaid(text(v.policy)), notFound: 'The domain publishes no DMARC record.' },
  caa: { label: 'Who may issue certificates (CAA)', observed: (_, list) => caaSaid(list), notFound: 'The domain does not limit which certificate authorities may issue its certificates.' },
  tls_certificate: { label: 'Website certificate', observed: (v) => certificateSaid(v), notFound: 'No certificate was found.' },
  https_reachable: {
    label: 'Secure website (HTTPS)',
    observed: (v) => `The secure website, ${text(v.url) ?? 'its home page'}, answered with status ${String(v.status)}.`,
    notFound: 'No secure website answered.',
  },
  hsts: { label: 'Secure connections required (HSTS)', observed: (v) => hstsSaid(v.maxAge), notFound: 'The website does not tell browsers to use only secure connections.' },
  security_headers: { label: 'Browser protections', observed: (v) => headersSaid(strings(v.present), strings(v.missing)), notFound: 'No browser protections were found.' },
  http_to_https_redirect: { label: 'Plain address leads to the secure site', observed: (v) => redirectSaid(v), notFound: 'The plain (http) address did not answer.' },
  page_title: { label: 'Home page title', observed: (v) => `The home page's title is "${text(v.title) ?? ''}".`, notFound: 'The home page has no title.' },
  contact_page: {
    label: 'Contact page',
    observed: (v) => (v.via === 'home_page_link' ? `The home page links to a contact page, ${text(v.url) ?? ''}.` : `A contact page answers at ${text(v.url) ?? ''}.`),
    notFound: 'No contact page was found: the home page links to none, and none answers at /contact.',
  },
  robots_txt: {
    label: 'Instructions for search engines (robots.txt)',
    observed: (v) => `The site publishes a robots.txt, which names ${plural(strings(v.sitemaps).length, 'site map')}.`,
    notFound: 'The site publishes no robots.txt.',
  },
  sitemap: { label: 'Site map', observed: (v) => `The site publishes a site map: ${strings(v.urls).join(', ')}.`, notFound: 'No site map was found.' },
  parked_domain: { label: 'Signs of a parked domain', observed: (v) => parkedSaid(v.signs), notFound: 'No sign of a parked domain was found in the home page or the name servers.' },
  registration: { label: 'Domain registration', observed: (v) => registrationSaid(v), notFound: 'The registry has no record of the domain.' },
};

/** The observation with its label and its sentence. */
export function inWords(observation: Observation): ObservationInWords {
  const words = OBSERVATION_WORDS[observation.name];
  const label = words?.label ?? observation.name.replace(/_/g, ' ');
  return { ...observation, label, summary: summaryOf(observation, words) };
}

function summaryOf(o: Observation, words: Words | undefined): string {
  const value = o.value;
  switch (o.outcome) {
    case 'observed': {
      const record: Value = isValue(value) ? value : {};
      return words ? words.observed(record, Array.isArray(value) ? value : []) : 'Observed: see the evidence.';
    }
    case 'not_found':
      // Only the domain's own DNS answers "no such name"; the evidence names the code it gave.
      if (o.source === 'dns' && o.evidence.includes('(NXDOMAIN)')) return 'The name does not exist in the DNS.';
      return words?.notFound ?? 'Not found.';
    case 'timeout':
      return 'No complete answer came within the time limit, so nothing is known of this.';
    default: {
      const records = isValue(value) ? strings(value.records) : [];
      if (records.length > 1) return `The domain publishes ${records.length} such records; the standard treats more than one as an error, so none of them applies.`;
      return 'No answer could be had, so nothing is known of this: the evidence says which host failed.';
    }
  }
}

function addressesSaid(list: readonly unknown[]): string {
  const entries = list.filter(isValue);
  const shown = entries.map((a) => String(a.address)).join(', ');
  const closed = entries.filter((a) => a.private === true && a.allowListed !== true).length;
  const note = closed === 0 ? '' : closed === 1 ? '; 1 of them is not a public internet address and was not contacted' : `; ${closed} of them are not public internet addresses and were not contacted`;
  return `The name points to ${plural(entries.length, 'address', 'addresses')}: ${shown}${note}.`;
}

function mailSaid(v: Value): string {
  if (v.nullMx === true) return 'The domain states that it accepts no e-mail (a null MX record).';
  const records = Array.isArray(v.records) ? v.records.filter(isValue) : [];
  return `E-mail for the domain goes to ${plural(records.length, 'mail server')}: ${records.map((r) => String(r.exchange)).join(', ')}.`;
}

const SPF_ALL: Readonly<Record<string, string>> = {
  '-all': 'and asks receivers to reject mail from any other sender (-all)',
  '~all': 'and asks receivers to treat mail from any other sender as suspect (~all)',
  '?all': 'and says nothing of mail from any other sender (?all)',
  '+all': 'but allows any sender at all (+all)',
};

function spfSaid(all: string | null): string {
  const rest = all === null ? undefined : SPF_ALL[all];
  return `The domain lists who may send its e-mail ${rest ?? 'without a rule for any other sender'}.`;
}

const DMARC_POLICY: Readonly<Record<string, string>> = {
  reject: 'The domain asks receivers to reject e-mail sent in its name that cannot be confirmed as its own (p=reject).',
  quarantine: 'The domain asks receivers to treat e-mail sent in its name that cannot be confirmed as its own as spam (p=quarantine).',
  none: 'The domain asks receivers only to report e-mail sent in its name that cannot be confirmed as its own, not to stop it (p=none).',
};

function dmarcSaid(policy: string | null): string {
  return (policy === null ? undefined : DMARC_POLICY[policy.toLowerCase()]) ?? `The domain publishes a DMARC record with the policy "${policy ?? 'none given'}".`;
}

function caaSaid(list: readonly unknown[]): string {
  const issuers = list.filter(isValue).filter((r) => r.tag === 'issue' || r.tag === 'issuewild').map((r) => String(r.value));
  if (issuers.length === 0) return 'The domain publishes CAA records, none of which names who may issue certificates.';
  const named = [...new Set(issuers.map((issuer) => issuer.split(';')[0]?.trim() || 'no one'))];
  return `Only these may issue certificates for the domain: ${named.join(', ')}.`;
}

function certificateSaid(v: Value): string {
  const issuer = text(v.issuerOrganization) ?? text(v.issuerCommonName) ?? 'an unnamed issuer';
  const trusted = v.authorized === true ? 'can be verified' : 'cannot be verified';
  const covers = v.hostnameMatches === true ? 'covers the name' : 'does not cover the name';
  const days = typeof v.daysToExpiry === 'number' ? v.daysToExpiry : null;
  const expiry = days === null ? 'has no readable expiry' : days < 0 ? `expired ${plural(-days, 'day')} ago` : `expires in ${plural(days, 'day')}`;
  return `The certificate, issued by ${issuer}${v.selfSigned === true ? ' (self-signed)' : ''}, ${trusted}, ${covers} and ${expiry}.`;
}

function hstsSaid(maxAge: unknown): string {
  if (typeof maxAge !== 'number') return 'The website sends an HSTS header without a duration.';
  if (maxAge === 0) return 'The website tells browsers to stop requiring secure connections (max-age=0).';
  return `The website tells browsers to use only secure connections to it for ${plural(Math.floor(maxAge / 86_400), 'day')}.`;
}

function headersSaid(present: readonly string[], missing: readonly string[]): string {
  const all = present.length + missing.length;
  if (present.length === 0) return `The home page sends none of the ${all} browser protections looked for.`;
  return `The home page sends ${present.length} of the ${all} browser protections looked for: ${present.join(', ')}.`;
}

function redirectSaid(v: Value): string {
  const location = text(v.location);
  if (v.redirects !== true) return `The plain (http) address answers with status ${String(v.status)} and does not send visitors to the secure site.`;
  if (v.toHttps === true) return `The plain (http) address sends visitors to the secure site, ${location ?? ''}.`;
  return `The plain (http) address sends visitors to ${location === null ? 'an address that could not be read' : location}, which is not a secure address.`;
}

function parkedSaid(signs: unknown): string {
  const list = Array.isArray(signs) ? signs.filter(isValue) : [];
  return `Signs that the domain is parked were found: ${list.map((s) => `"${String(s.match)}"`).join(', ')}.`;
}

function registrationSaid(v: Value): string {
  const registered = day(v.registered);
  const expires = day(v.expires);
  const registrar = text(v.registrar);
  const when = registered === null ? 'The registry does not say when the domain was registered' : `The domain was registered on ${registered}`;
  const until = expires === null ? 'no expiry date is published' : `it expires on ${expires}`;
  return `${when}; ${until}; ${registrar === null ? 'no registrar is named' : `the registrar is ${registrar}`}.`;
}
