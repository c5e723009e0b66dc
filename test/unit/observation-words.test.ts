/**
 * The words of each observation, rule by rule: a label for every observation the probes make,
 * and for each answer one sentence that says what the value holds and nothing more.
 */
import { expect } from 'chai';
import { inWords, OBSERVATION_WORDS } from '../../src/assessments/observation-words.js';
import { OBSERVATION_NAMES } from '../../src/assessments/probes/run-probes.js';
import type { Observation } from '../../src/assessments/probes/types.js';

const SOURCE: Readonly<Record<string, Observation['source']>> = {
  addresses: 'dns', nameservers: 'dns', mx_records: 'dns', spf: 'dns', dmarc: 'dns', caa: 'dns', tls_certificate: 'tls', registration: 'rdap',
};

function said(name: string, outcome: Observation['outcome'], value: unknown, evidence = 'Asked.'): string {
  return inWords({ name, outcome, value, evidence, source: SOURCE[name] ?? 'http', observedAt: '2026-11-28T00:00:00.000Z' }).summary;
}

/** [name, value, sentence] for an `observed` answer. */
const OBSERVED: ReadonlyArray<readonly [string, unknown, string]> = [
  ['addresses', [{ address: '192.0.2.1', family: 'IPv4', private: false, reason: null, allowListed: false }], 'The name points to 1 address: 192.0.2.1.'],
  ['addresses', [{ address: '192.0.2.1', private: false }, { address: '10.0.0.1', private: true, allowListed: false }], 'The name points to 2 addresses: 192.0.2.1, 10.0.0.1; 1 of them is not a public internet address and was not contacted.'],
  ['nameservers', ['ns1.example.net', 'ns2.example.net'], '2 name servers answer for the domain: ns1.example.net, ns2.example.net.'],
  ['mx_records', { nullMx: false, acceptsMail: true, records: [{ exchange: 'mx1.example.com', priority: 10 }, { exchange: 'mx2.example.com', priority: 20 }] }, 'E-mail for the domain goes to 2 mail servers: mx1.example.com, mx2.example.com.'],
  ['mx_records', { nullMx: true, acceptsMail: false, records: [{ exchange: '', priority: 0 }] }, 'The domain states that it accepts no e-mail (a null MX record).'],
  ['spf', { record: 'v=spf1 mx -all', allQualifier: '-all' }, 'The domain lists who may send its e-mail and asks receivers to reject mail from any other sender (-all).'],
  ['spf', { record: 'v=spf1 mx ~all', allQualifier: '~all' }, 'The domain lists who may send its e-mail and asks receivers to treat mail from any other sender as suspect (~all).'],
  ['spf', { record: 'v=spf1 +all', allQualifier: '+all' }, 'The domain lists who may send its e-mail but allows any sender at all (+all).'],
  ['spf', { record: 'v=spf1 mx', allQualifier: null }, 'The domain lists who may send its e-mail without a rule for any other sender.'],
  ['dmarc', { record: 'v=DMARC1; p=reject', policy: 'reject', subdomainPolicy: null, pct: null, rua: [] }, 'The domain asks receivers to reject e-mail sent in its name that cannot be confirmed as its own (p=reject).'],
  ['dmarc', { record: 'v=DMARC1; p=none', policy: 'none', subdomainPolicy: null, pct: null, rua: [] }, 'The domain asks receivers only to report e-mail sent in its name that cannot be confirmed as its own, not to stop it (p=none).'],
  ['dmarc', { record: 'v=DMARC1', policy: null, subdomainPolicy: null, pct: null, rua: [] }, 'The domain publishes a DMARC record with the policy "none given".'],
  ['caa', [{ critical: 0, tag: 'issue', value: 'letsencrypt.org' }, { critical: 0, tag: 'iodef', value: 'mailto:x@example.com' }], 'Only these may issue certificates for the domain: letsencrypt.org.'],
  ['caa', [{ critical: 0, tag: 'iodef', value: 'mailto:x@example.com' }], 'The domain publishes CAA records, none of which names who may issue certificates.'],
  ['tls_certificate', { issuerOrganization: 'Example CA', authorized: true, hostnameMatches: true, daysToExpiry: 40, selfSigned: false }, 'The certificate, issued by Example CA, can be verified, covers the name and expires in 40 days.'],
  ['tls_certificate', { issuerCommonName: 'localhost', authorized: false, hostnameMatches: false, daysToExpiry: -1, selfSigned: true }, 'The certificate, issued by localhost (self-signed), cannot be verified, does not cover the name and expired less than a day ago.'],
  ['https_reachable', { url: 'https://example.com/', status: 200, remoteAddress: '192.0.2.1' }, 'The secure website, https://example.com/, answered with status 200.'],
  ['hsts', { header: 'max-age=31536000', maxAge: 31536000, includeSubDomains: false, preload: false }, 'The website tells browsers to use only secure connections to it for 365 days.'],
  ['hsts', { header: 'max-age=0', maxAge: 0, includeSubDomains: false, preload: false }, 'The website tells browsers to stop requiring secure connections (max-age=0).'],
  ['security_headers', { present: ['content-security-policy'], missing: ['x-frame-options', 'referrer-policy'], values: {} }, 'The home page sends 1 of the 3 browser protections looked for: content-security-policy.'],
  ['security_headers', { present: [], missing: ['x-frame-options'], values: {} }, 'The home page sends none of the 1 browser protections looked for.'],
  ['http_to_https_redirect', { status: 301, redirects: true, location: 'https://example.com/', toHttps: true, sameHost: true }, 'The plain (http) address sends visitors to the secure site, https://example.com/.'],
  ['http_to_https_redirect', { status: 200, redirects: false, location: null, toHttps: false, sameHost: null }, 'The plain (http) address answers with status 200 and does not send visitors to the secure site.'],
  ['http_to_https_redirect', { status: 302, redirects: true, location: 'http://other.example/', toHttps: false, sameHost: false }, 'The plain (http) address sends visitors to http://other.example/, which is not a secure address.'],
  ['page_title', { title: 'Acme Ltd', url: 'https://example.com/' }, 'The home page\'s title is "Acme Ltd".'],
  ['contact_page', { url: 'https://example.com/contact', text: 'Contact us', via: 'home_page_link' }, 'The home page links to a contact page, https://example.com/contact.'],
  ['contact_page', { url: 'https://example.com/contact', text: null, via: 'contact_path' }, 'A contact page answers at https://example.com/contact.'],
  ['robots_txt', { url: 'https://example.com/robots.txt', bytes: 40, sitemaps: ['https://example.com/sitemap.xml'] }, 'The site publishes a robots.txt, which names 1 site map.'],
  ['sitemap', { urls: ['https://example.com/sitemap.xml'], foundIn: '/sitemap.xml' }, 'The site publishes a site map: https://example.com/sitemap.xml.'],
  ['parked_domain', { signs: [{ kind: 'page_text', match: 'this domain is for sale' }] }, 'Signs that the domain is parked were found: "this domain is for sale".'],
  ['registration', { registered: '2001-05-04T00:00:00Z', expires: '2027-05-04T00:00:00Z', registrar: 'Example Registrar' }, 'The domain was registered on 2001-05-04; it expires on 2027-05-04; the registrar is Example Registrar.'],
  ['registration', { registered: null, expires: null, registrar: null }, 'The registry does not say when the domain was registered; no expiry date is published; no registrar is named.'],
];

/** Words that would read as a judgement, a grade or advice. */
const JUDGEMENT = /\b(good|bad|poor|weak|strong|risk\w*|safe|unsafe|score|grade|rating|recommend\w*|should|must|fail\w*|pass\w*|healthy|warning|excellent)\b/i;

describe('observation words', () => {
  it('labels every observation the probes make, and no other', () => {
    expect(Object.keys(OBSERVATION_WORDS)).to.deep.equal([...OBSERVATION_NAMES]);
  });

  for (const [name, value, sentence] of OBSERVED) {
    it(`says what ${name} holds: ${sentence}`, () => {
      expect(said(name, 'observed', value)).to.equal(sentence);
    });
  }

  it('says what the domain\'s authority answered for not_found, and tells a name that does not exist apart', () => {
    for (const name of OBSERVATION_NAMES) expect(said(name, 'not_found', null), name).to.equal(OBSERVATION_WORDS[name]!.notFound);
    expect(said('mx_records', 'not_found', null, 'Asked; the resolver answered that the name does not exist (NXDOMAIN).')).to.equal('The name does not exist in the DNS.');
    expect(said('page_title', 'not_found', null, 'Read a page about NXDOMAIN (NXDOMAIN).')).to.equal('The home page has no title.');
    // A name below the domain that does not exist says only that there is no such record.
    expect(said('dmarc', 'not_found', null, 'Asked for _dmarc.firm.com; the resolver answered that the name does not exist (NXDOMAIN).')).to.equal('The domain publishes no DMARC record.');
  });

  it('says that nothing is known when no answer could be had, and names two records that cancel each other', () => {
    expect(said('registration', 'timeout', null)).to.equal('No complete answer came within the time limit, so nothing is known of this.');
    expect(said('registration', 'error', null)).to.equal('No answer could be had, so nothing is known of this: the evidence says which host gave none.');
    expect(said('spf', 'error', { records: ['v=spf1 -all', 'v=spf1 ~all'] })).to.equal('The domain publishes 2 such records; the standard treats more than one as an error, so none of them applies.');
  });

  it('keeps the observation as it was and never words a judgement', () => {
    const observation: Observation = { name: 'spf', outcome: 'observed', value: { record: 'v=spf1 -all', allQualifier: '-all' }, evidence: 'Asked.', source: 'dns', observedAt: '2026-11-28T00:00:00.000Z' };
    expect(inWords(observation)).to.deep.equal({ ...observation, label: 'Who may send its e-mail (SPF)', summary: said('spf', 'observed', observation.value) });
    const all = [...OBSERVED.map(([, , s]) => s), ...Object.values(OBSERVATION_WORDS).flatMap((w) => [w.label, w.notFound])];
    expect(all.filter((s) => JUDGEMENT.test(s))).to.deep.equal([]);
  });
});
