/**
 * What a credit professional reads of each observation: a label for what was looked at, and one
 * plain sentence that says what came back. Both are made from the observation itself (its name,
 * outcome and value) when it is read, so every stored assessment reads the same. The sentences say
 * only what the value holds: no judgement, no advice, no score. The technical evidence stays
 * beside them.
 */
import type { components } from '../../generated/openapi.js';
import { plural } from '../plural.js';
import { expiredAgo } from './probes/expiry-days.js';
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
  /** Asked of a name below the domain (`_dmarc.…`): that name's NXDOMAIN means only that there is no such record. */
  readonly belowDomain?: true;
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
  spf: { label: 'Who may send its e-mail (SPF)', observed: (v) => spfSaid(text(v.allQualifier), text(v.redirect)), notFound: 'The domain publishes no SPF record saying who may send its e-mail.' },
  dmarc: { label: 'What receivers do with forged e-mail (DMARC)', observed: (v) => dmarcSaid(text(v.policy), v.pct), notFound: 'The domain publishes no DMARC record.', belowDomain: true },
  caa: { label: 'Who may issue certificates (CAA)', observed: (_, list) => caaSaid(list), notFound: 'The domain does not limit which certificate authorities may issue its certificates.' },
  dnssec: { label: 'Signed DNS answers (DNSSEC)', observed: (v) => dnssecSaid(v), notFound: 'The domain\'s DNS answers are not signed: its parent zone publishes no DNSSEC key record (DS) for it.' },
  ipv6: { label: 'IPv6 addresses', observed: (v) => ipv6Said(v), notFound: 'Neither the domain nor its name servers or mail servers have an IPv6 address.' },
  mta_sts: { label: 'Encrypted delivery of its e-mail (MTA-STS)', observed: (v) => mtaStsSaid(v), notFound: 'The domain publishes no MTA-STS policy for e-mail sent to it.', belowDomain: true },
  tls_rpt: {
    label: 'Reports on encrypted delivery (TLS-RPT)',
    observed: (v) => (strings(v.rua).length === 0 ? 'The domain publishes a TLS-RPT record that names no address for reports.' : `The domain asks sending servers to report problems with encrypted delivery of its e-mail to ${strings(v.rua).join(', ')}.`),
    notFound: 'The domain publishes no TLS-RPT record asking for reports on encrypted delivery of its e-mail.',
    belowDomain: true,
  },
  mail_provider: { label: 'E-mail provider', observed: (v) => mailProviderSaid(v), notFound: 'The domain lists no mail servers, so no e-mail provider could be recognised.' },
  tls_certificate: { label: 'Website certificate', observed: (v) => certificateSaid(v), notFound: 'No certificate was found.' },
  certificate_expiry: { label: 'Website certificate expiry', observed: (v) => expirySaid('The website certificate', day(v.notAfter), v.daysToExpiry), notFound: 'No certificate was found.' },
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
  legal_identity: { label: 'Company details stated on the website', observed: (v) => legalSaid(v.identifiers), notFound: 'The website pages read state no company number, VAT ID or registered address.' },
  site_activity: {
    label: 'Dates the website states about itself',
    observed: (v) => activitySaid(v),
    notFound: 'The home page states no copyright year and sends no Last-Modified date, and no site map date was found.',
  },
  registration: { label: 'Domain registration', observed: (v) => registrationSaid(v), notFound: 'The registry has no record of the domain.' },
  registration_expiry: {
    label: 'Domain registration expiry',
    observed: (v) => (day(v.expires) === null ? 'The registry publishes no expiry date for the domain.' : expirySaid("The domain's registration", day(v.expires), v.daysToExpiry)),
    notFound: 'The registry has no record of the domain.',
  },
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
      if (o.source === 'dns' && words?.belowDomain !== true && o.evidence.includes('(NXDOMAIN)')) return 'The name does not exist in the DNS.';
      return words?.notFound ?? 'Not found.';
    case 'timeout':
      return 'No complete answer came within the time limit, so nothing is known of this.';
    default: {
      const records = isValue(value) ? strings(value.records) : [];
      if (records.length > 1) return `The domain publishes ${records.length} such records; the standard treats more than one as an error, so none of them applies.`;
      return 'No answer could be had, so nothing is known of this: the evidence says which host gave none.';
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

function spfSaid(all: string | null, redirect: string | null): string {
  const rest = all === null ? undefined : SPF_ALL[all];
  const other = redirect === null ? 'without a rule for any other sender' : `and leaves the rest to the record of ${redirect} (redirect)`;
  return `The domain lists who may send its e-mail ${rest ?? other}.`;
}

const DMARC_POLICY: Readonly<Record<string, string>> = {
  reject: 'The domain asks receivers to reject e-mail sent in its name that cannot be confirmed as its own (p=reject).',
  quarantine: 'The domain asks receivers to treat e-mail sent in its name that cannot be confirmed as its own as spam (p=quarantine).',
  none: 'The domain asks receivers only to report e-mail sent in its name that cannot be confirmed as its own, not to stop it (p=none).',
};

function dmarcSaid(policy: string | null, pct: unknown): string {
  const said = (policy === null ? undefined : DMARC_POLICY[policy.toLowerCase()]) ?? `The domain publishes a DMARC record with the policy "${policy ?? 'none given'}".`;
  // pct below 100 limits the policy to a share of such e-mail (RFC 7489 §6.3).
  return typeof pct === 'number' && pct < 100 ? `${said.slice(0, -1)}, for ${pct}% of such e-mail.` : said;
}

function caaSaid(list: readonly unknown[]): string {
  const issuers = list.filter(isValue).filter((r) => r.tag === 'issue' || r.tag === 'issuewild').map((r) => String(r.value));
  if (issuers.length === 0) return 'The domain publishes CAA records, none of which names who may issue certificates.';
  const named = [...new Set(issuers.map((issuer) => issuer.split(';')[0]?.trim() || 'no one'))];
  return `Only these may issue certificates for the domain: ${named.join(', ')}.`;
}

function dnssecSaid(v: Value): string {
  const ds = Array.isArray(v.ds) ? v.ds.filter(isValue) : [];
  const algorithms = [...new Set(ds.map((r) => text(r.algorithmName) ?? `algorithm ${String(r.algorithm)}`))];
  const checked = v.validatedByResolver === true ? ', and the resolver that was asked confirmed the signatures' : '';
  return `The domain's DNS answers are signed (DNSSEC): its parent zone publishes ${plural(ds.length, 'key record')} (DS) for it, using ${algorithms.join(', ')}${checked}.`;
}

function hostsWithIpv6(what: string, hosts: unknown): string {
  if (!Array.isArray(hosts)) return `its ${what}s could not be looked up`;
  const entries = hosts.filter(isValue);
  if (entries.length === 0) return `it lists no ${what}s`;
  const withOne = entries.filter((h) => strings(h.addresses).length > 0).length;
  const unknown = entries.filter((h) => !Array.isArray(h.addresses)).length;
  return `${plural(withOne, what)} of ${entries.length} ${withOne === 1 ? 'has' : 'have'} one${unknown === 0 ? '' : ` (${unknown} could not be looked up)`}`;
}

function ipv6Said(v: Value): string {
  const own = Array.isArray(v.domain) ? strings(v.domain) : null;
  const domain = own === null ? 'Whether the domain has an IPv6 address could not be looked up'
    : own.length === 0 ? 'The domain has no IPv6 address' : `The domain has ${plural(own.length, 'IPv6 address', 'IPv6 addresses')} (${own.join(', ')})`;
  return `${domain}; ${hostsWithIpv6('name server', v.nameservers)}; ${hostsWithIpv6('mail server', v.mailServers)}.`;
}

const MTA_STS_MODE: Readonly<Record<string, string>> = {
  enforce: 'asks sending servers to deliver its e-mail only over verified encrypted connections (mode enforce)',
  testing: 'asks sending servers to report, and still deliver, e-mail that cannot go over verified encrypted connections (mode testing)',
  none: 'withdraws any earlier policy (mode none)',
};

function mtaStsSaid(v: Value): string {
  const mode = text(v.mode);
  if (mode === null && typeof v.policyStatus === 'number' && v.policyStatus !== 200) {
    return `The domain announces an MTA-STS policy, but ${text(v.policyUrl) ?? 'its policy address'} answered with status ${v.policyStatus}, so there is no policy to read.`;
  }
  const said = mode === null ? 'states no mode' : (MTA_STS_MODE[mode] ?? `states the mode "${mode}"`);
  const mx = strings(v.mx);
  const servers = mx.length === 0 ? '' : `; it names ${mx.join(', ')} as its mail servers`;
  const kept = typeof v.maxAge === 'number' ? `; senders keep it for ${plural(Math.floor(v.maxAge / 86_400), 'day')}` : '';
  return `The domain publishes an MTA-STS policy that ${said}${servers}${kept}.`;
}

function mailProviderSaid(v: Value): string {
  if (v.nullMx === true) return 'The domain states that it accepts no e-mail (a null MX record), so no e-mail provider handles it.';
  const providers = Array.isArray(v.providers) ? v.providers.filter(isValue).map((p) => String(p.name)) : [];
  const others = strings(v.unrecognised);
  if (providers.length === 0) return `None of the domain's mail servers (${others.join(', ')}) belongs to a provider on the list looked for.`;
  const rest = others.length === 0 ? '' : `; ${plural(others.length, 'other mail server')} (${others.join(', ')}) ${others.length === 1 ? 'is' : 'are'} not on that list`;
  return `The domain's e-mail is handled by ${providers.join(' and ')}, recognised from its mail servers${rest}.`;
}

function certificateSaid(v: Value): string {
  const issuer = text(v.issuerOrganization) ?? text(v.issuerCommonName) ?? 'an unnamed issuer';
  const trusted = v.authorized === true ? 'can be verified' : 'cannot be verified';
  const covers = v.hostnameMatches === true ? 'covers the name' : 'does not cover the name';
  const days = typeof v.daysToExpiry === 'number' ? v.daysToExpiry : null;
  const expiry = days === null ? 'has no readable expiry' : days < 0 ? `expired ${expiredAgo(days)}` : `expires in ${plural(days, 'day')}`;
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

/** "… expires on 2027-01-03, in 36 days." or "… expired on 2026-11-18, 10 days ago." */
function expirySaid(subject: string, date: string | null, days: unknown): string {
  if (date === null) return `${subject} has no readable expiry date.`;
  if (typeof days !== 'number') return `${subject} expires on ${date}.`;
  if (days < 0) return `${subject} expired on ${date}, ${expiredAgo(days)}.`;
  return `${subject} expires on ${date}, ${days === 0 ? 'within a day' : `in ${plural(days, 'day')}`}.`;
}

const IDENTIFIER_WORDS: Readonly<Record<string, string>> = {
  uk_company_number: 'UK company number',
  de_commercial_register: 'German commercial register entry',
  vat_id: 'VAT ID',
  fr_siret: 'French SIRET',
  fr_siren: 'French SIREN',
  nl_kvk: 'Dutch KvK number',
  au_abn: 'Australian Business Number',
  us_ein: 'US employer identification number (EIN)',
  registered_address: 'registered address',
};

const IDENTIFIERS_SHOWN = 5;

function legalSaid(identifiers: unknown): string {
  const list = Array.isArray(identifiers) ? identifiers.filter(isValue) : [];
  const shown = list.slice(0, IDENTIFIERS_SHOWN).map((i) => {
    const kind = IDENTIFIER_WORDS[String(i.kind)] ?? String(i.kind).replace(/_/g, ' ');
    return i.kind === 'registered_address' ? `${kind} "${String(i.value)}"` : `${kind} ${String(i.value)}`;
  });
  const more = list.length > IDENTIFIERS_SHOWN ? `, and ${list.length - IDENTIFIERS_SHOWN} more` : '';
  return `The website states ${plural(list.length, 'company detail')}: ${shown.join(', ')}${more}.`;
}

function activitySaid(v: Value): string {
  const modified = day(v.lastModified);
  const newest = day(v.sitemapNewest);
  const parts = [
    typeof v.copyrightYear === 'number' ? `the home page's copyright notice gives the year ${v.copyrightYear}` : null,
    modified === null ? null : `the home page's Last-Modified date is ${modified}`,
    newest === null ? null : `the newest date in the site map is ${newest}`,
  ].filter((part): part is string => part !== null);
  const sentence = parts.length === 0 ? 'the website states no date about itself' : parts.join('; ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}
