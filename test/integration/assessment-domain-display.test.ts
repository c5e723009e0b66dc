/**
 * A homograph domain (`аррӏе.com`, Cyrillic letters that look like "apple") is shown in ASCII
 * with a plain warning, in the API record and on the assessment page; an ordinary IDN is shown
 * in Unicode. Both records are contract-checked.
 */
import { expect } from 'chai';
import type { ProbeRunner } from '../../src/assessments/worker.js';
import { startHarness, type Harness } from '../support/harness.js';

const probes: ProbeRunner = async () => [];

describe('how the assessment of an internationalized domain shows it', function () {
  this.timeout(30_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ demo: false, probe: probes });
  });
  after(async () => h.close());

  const assess = async (domain: string) => {
    const created = await h.request('/api/v1/assessments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ domain }) });
    expect(created.status).to.equal(201);
    return created.body;
  };
  const pageOf = async (id: string): Promise<string> => {
    const page = await h.request(`/assessments/${id}`);
    expect(page.status).to.equal(200);
    return String(page.body);
  };
  /** The page's title and main heading, as a person reads them. */
  const headings = (html: string): string[] => [/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '', /<h1>([^<]*)<\/h1>/.exec(html)?.[1] ?? ''];

  it('records a Cyrillic look-alike of apple.com in punycode, with the warning, and titles its page that way', async () => {
    const record = await assess('аррӏе.com');
    expect(record).to.include({ domain: 'xn--80ak6aa92e.com', domainUnicode: 'аррӏе.com', displayDomain: 'xn--80ak6aa92e.com' });
    expect(record.domainWarning).to.deep.equal({
      reason: 'latin_lookalike',
      message: 'Every letter of the label "аррӏе" is a Cyrillic letter that looks like a Latin one, so this domain may pass for another. It is shown as xn--80ak6aa92e.com; check that it is the business\'s own domain.',
    });
    const again = await h.request(`/api/v1/assessments/${record.id}`);
    expect(again.body).to.deep.include({ displayDomain: 'xn--80ak6aa92e.com', domainWarning: record.domainWarning });

    const html = await pageOf(record.id);
    expect(headings(html)).to.deep.equal(['Web estate of xn--80ak6aa92e.com · Sextant', 'Web estate of xn--80ak6aa92e.com']);
    expect(html).to.match(/<p class="notice notice-strong domain-warning" role="alert">Warning: Every letter of the label &quot;аррӏе&quot; is a Cyrillic letter/);
  });

  it('records a domain mixing Latin and Cyrillic in punycode, with the warning', async () => {
    const record = await assess('pаypal.com');
    expect(record).to.include({ domain: 'xn--pypal-4ve.com', displayDomain: 'xn--pypal-4ve.com' });
    expect(record.domainWarning.reason).to.equal('mixed_scripts');
    expect(headings(await pageOf(record.id))[1]).to.equal('Web estate of xn--pypal-4ve.com');
  });

  it('shows an ordinary internationalized domain in Unicode, without a warning', async () => {
    const record = await assess('bücher.de');
    expect(record).to.include({ domain: 'xn--bcher-kva.de', displayDomain: 'bücher.de', domainWarning: null });
    const html = await pageOf(record.id);
    expect(headings(html)[1]).to.equal('Web estate of bücher.de');
    expect(html).not.to.include('role="alert"');
  });
});
