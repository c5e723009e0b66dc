/**
 * An RDAP stub on 127.0.0.1: the IANA bootstrap document and one realistic domain object (RFC 9083),
 * optionally without its expiration event, or never answered (to exercise time limits).
 */
import { startHttp, type WebFixture } from './web-servers.js';

export interface RdapStub extends WebFixture {
  readonly bootstrapUrl: string;
  readonly baseUrl: string;
  /** How often the bootstrap document was fetched. */
  bootstrapFetches(): number;
}

/** Names served without the expiration event, and names whose domain object is never answered. */
export interface RdapStubOptions {
  readonly withoutExpiry?: readonly string[];
  readonly silent?: readonly string[];
}

function domainObject(name: string, withExpiry: boolean): Record<string, unknown> {
  const events = [
    { eventAction: 'registration', eventDate: '2015-03-10T14:22:05Z' },
    { eventAction: 'expiration', eventDate: '2027-03-10T14:22:05Z' },
    { eventAction: 'last changed', eventDate: '2024-02-01T09:00:00Z' },
    { eventAction: 'last update of RDAP database', eventDate: '2025-01-01T00:00:00Z' },
  ];
  return {
    objectClassName: 'domain',
    rdapConformance: ['rdap_level_0', 'icann_rdap_response_profile_1', 'icann_rdap_technical_implementation_guide_1'],
    handle: '2336799_DOMAIN_TEST-VRSN',
    ldhName: name.toUpperCase(),
    status: ['client transfer prohibited'],
    events: withExpiry ? events : events.filter((event) => event.eventAction !== 'expiration'),
    entities: [
      {
        objectClassName: 'entity',
        handle: '1234',
        roles: ['registrar'],
        publicIds: [{ type: 'IANA Registrar ID', identifier: '1234' }],
        vcardArray: ['vcard', [['version', {}, 'text', '4.0'], ['fn', {}, 'text', 'Example Registrar, Inc.']]],
        entities: [{ objectClassName: 'entity', roles: ['abuse'], vcardArray: ['vcard', [['version', {}, 'text', '4.0'], ['fn', {}, 'text', 'Abuse Desk']]] }],
      },
    ],
    nameservers: [
      { objectClassName: 'nameserver', ldhName: 'NS1.ACME-DNS.TEST' },
      { objectClassName: 'nameserver', ldhName: 'NS2.ACME-DNS.TEST' },
    ],
    secureDNS: { delegationSigned: false },
    notices: [{ title: 'Terms of Use', description: ['Fixture data.'] }],
  };
}

/** Serves `/bootstrap/dns.json` (listing .test at this stub) and `/rdap/domain/<name>` for `registered` names. */
export async function startRdapStub(registered: readonly string[], options: RdapStubOptions = {}): Promise<RdapStub> {
  let fetches = 0;
  let base = '';
  const fixture = await startHttp((req, res) => {
    const json = (status: number, body: unknown, type = 'application/rdap+json'): void => void res.writeHead(status, { 'content-type': type }).end(JSON.stringify(body));
    if (req.url === '/bootstrap/dns.json') {
      fetches += 1;
      return json(200, {
        version: '1.0',
        publication: '2025-01-01T00:00:00Z',
        description: 'Fixture RDAP bootstrap',
        services: [
          [['other'], ['http://127.0.0.1:1/other', 'https://rdap.other.invalid/v1']],
          [['test'], [`${base}rdap/`]],
        ],
      }, 'application/json');
    }
    const name = /^\/rdap\/domain\/([^/?]+)$/.exec(req.url ?? '')?.[1]?.toLowerCase();
    if (name !== undefined && options.silent?.includes(name)) return;
    if (name !== undefined && registered.includes(name)) return json(200, domainObject(name, !options.withoutExpiry?.includes(name)));
    return json(404, { errorCode: 404, title: 'Not Found', description: ['No such domain object.'] });
  });
  base = `http://127.0.0.1:${fixture.port}/`;
  return { ...fixture, bootstrapUrl: `${base}bootstrap/dns.json`, baseUrl: `${base}rdap/`, bootstrapFetches: () => fetches };
}
