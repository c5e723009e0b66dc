/**
 * The browser suite's fixtures: the real service on loopback with the demo catalog, hostile
 * records and a fixture MCP server (let through NET_ALLOW_PRIVATE), assessments with stand-in
 * probes, and Debian's Chromium driven by playwright-core. Each visit collects console errors
 * and page errors (a CSP violation is one) and can run axe-core inside the page.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { catalog, mcpHandler, startFixture, type Fixture } from '../support/fixture-servers.js';
import { fixture, startHarness, type Harness } from '../support/harness.js';
import type { Observation } from '../../src/assessments/probes/types.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A report as the probes write one, with long names, URLs and values, for the assessment page. */
export function standInObservations(at: string, changed = false): Observation[] {
  const o = (name: string, source: Observation['source'], outcome: Observation['outcome'], value: unknown, evidence: string): Observation => ({ name, outcome, value, evidence, source, observedAt: at });
  const report = [
    o('addresses', 'dns', 'observed', [{ address: '192.0.2.10', family: 'IPv4', private: false, reason: null, allowListed: false }], 'Asked the configured DNS resolver for the A and AAAA records of acme-widgets.co.uk; 192.0.2.10.'),
    o('mx_records', 'dns', 'observed', { nullMx: false, acceptsMail: true, records: [{ exchange: 'acmewidgets-co-uk.mail.protection.outlook.com', priority: 0 }] }, 'Asked the configured DNS resolver for the MX records of acme-widgets.co.uk; acmewidgets-co-uk.mail.protection.outlook.com (priority 0).'),
    o('spf', 'dns', 'observed', { record: 'v=spf1 include:spf.protection.outlook.com -all', allQualifier: '-all' }, 'Asked the configured DNS resolver for the TXT records of acme-widgets.co.uk; "v=spf1 include:spf.protection.outlook.com -all".'),
    o('dmarc', 'dns', 'not_found', null, 'Asked the configured DNS resolver for the TXT records of _dmarc.acme-widgets.co.uk; none starts with v=DMARC1.'),
    o('tls_certificate', 'tls', 'observed', { issuerOrganization: "Let's Encrypt", authorized: true, hostnameMatches: true, daysToExpiry: 61, selfSigned: false, validTo: '2027-01-28T10:00:00.000Z' }, "Connected to acme-widgets.co.uk:443 (TLS, SNI acme-widgets.co.uk); issued by Let's Encrypt, covers the name, expires in 61 day(s); it verifies."),
    o('security_headers', 'http', 'observed', { present: ['strict-transport-security'], missing: ['content-security-policy', 'x-content-type-options', 'x-frame-options', 'referrer-policy', 'permissions-policy'], values: { 'strict-transport-security': 'max-age=31536000' } }, 'Asked for https://acme-widgets.co.uk/ (GET, redirects followed); present: strict-transport-security.'),
    o('registration', 'rdap', 'timeout', null, 'Asked the RDAP server of .uk for the domain object of acme-widgets.co.uk; no complete answer within 10000 ms.'),
  ];
  if (!changed) return report;
  return report.map((observation) => {
    if (observation.name === 'mx_records') return o('mx_records', 'dns', 'not_found', null, 'Asked the configured DNS resolver for the MX records of the domain; there are none.');
    if (observation.name !== 'tls_certificate') return observation;
    const value = { ...(observation.value as object), authorized: false, daysToExpiry: -3, validTo: '2026-11-25T10:00:00.000Z' };
    return { ...observation, value, evidence: "Connected to the domain on port 443; issued by Let's Encrypt, covers the name, expired 3 day(s) ago; it does not verify (CERT_HAS_EXPIRED)." };
  });
}

export interface Suite {
  readonly harness: Harness;
  readonly mcp: Fixture;
  readonly browser: Browser;
  close(): Promise<void>;
}

export async function startSuite(): Promise<Suite> {
  const seen = new Map<string, number>();
  const mcp = await startFixture(mcpHandler());
  const harness = await startHarness({
    demo: true,
    netAllowPrivate: ['127.0.0.1/32'],
    net: { timeoutMs: 2000, connectTimeoutMs: 1000 },
    inputs: [
      fixture('hostile-web.json'),
      fixture('toolsdk-poisoned.json'),
      catalog([
        { name: 'com.fixture/echo', url: `${mcp.url}/mcp`, headers: [{ name: 'X-Api-Key', description: 'Your key for the echo fixture', isRequired: false, isSecret: true }], tools: ['echo'] },
        { name: 'com.fixture/private', url: 'http://127.0.0.2:9/mcp' },
      ]),
    ],
    probe: async (domain) => {
      // A domain named changing-… loses its mail server and its certificate expires after its first assessment.
      const looks = (seen.get(domain) ?? 0) + 1;
      seen.set(domain, looks);
      return standInObservations(new Date().toISOString(), domain.startsWith('changing-') && looks > 1);
    },
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  return {
    harness,
    mcp,
    browser,
    async close() {
      await browser.close();
      await harness.close();
      await mcp.close();
    },
  };
}

export interface Visit {
  readonly page: Page;
  /** Console errors and uncaught page errors seen so far. */
  readonly errors: string[];
}

/** A new page in a fresh context (no storage carried over), with its errors collected. */
export async function open(suite: Suite, path: string): Promise<Visit> {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('close', () => void context.close());
  await page.goto(`${suite.harness.baseUrl}${path}`, { waitUntil: 'load' });
  return { page, errors };
}

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly targets: string[];
}

/** axe-core's violations on the page as it stands (evaluated by the debugger protocol, so the page's CSP does not apply to it). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
}

/** Where screenshots go when SCREENSHOTS names a folder (docs/screenshots); none are taken otherwise. */
export const SCREENSHOTS = process.env.SCREENSHOTS ?? '';
