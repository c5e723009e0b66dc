/**
 * The web interface in Debian's Chromium (issue 24): what a person sees and can do, with
 * axe-core on every page and no console error anywhere (a CSP violation is one).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { SCREENSHOTS, axeViolations, open, standInObservations, startSuite, type Suite, type Visit } from './browser-support.js';

describe('web pages in Chromium', function () {
  this.timeout(60_000);
  let suite: Suite;
  const visits: Visit[] = [];

  before(async () => {
    suite = await startSuite();
  });
  after(async () => {
    for (const visit of visits) await visit.page.close();
    await suite?.close();
  });

  const visit = async (path: string): Promise<Visit> => {
    const opened = await open(suite, path);
    visits.push(opened);
    return opened;
  };
  const noErrors = (v: Visit) => expect(v.errors, `console errors on ${v.page.url()}`).to.deep.equal([]);

  it('searches from the home page and opens a result', async () => {
    const v = await visit('/');
    await v.page.getByLabel('Search servers').fill('notion');
    await v.page.keyboard.press('Enter');
    await v.page.waitForURL(/\/servers\?q=notion/);
    const first = v.page.locator('.server-card .card-title a').first();
    expect(await first.textContent()).to.match(/notion/i);
    await first.click();
    await v.page.waitForURL(/\/servers\/com\.notion~mcp$/);
    expect(await v.page.locator('h1').textContent()).to.match(/notion/i);
    expect(await v.page.title()).to.match(/notion/i);
    noErrors(v);
  });

  it('shows install sections for every client, with copy buttons', async () => {
    const v = await visit('/servers/com.notion~mcp');
    for (const client of ['Claude Desktop', 'Claude Code', 'Cursor', 'Visual Studio Code', 'Windsurf', 'Gemini CLI']) {
      expect(await v.page.getByRole('heading', { name: client, exact: true }).count(), client).to.equal(1);
    }
    expect(await v.page.locator('#command-claude-code').textContent()).to.match(/^claude mcp add/);
    expect(await v.page.locator('#install a.button[href^="cursor://"]').count()).to.equal(1);
    expect(await v.page.locator('button.copy:visible').count()).to.be.greaterThan(3);
    noErrors(v);
  });

  it('filters test and template records with the search form, any category and any tool check', async () => {
    const v = await visit('/servers?q=notion');
    await v.page.getByLabel('Test and template records').selectOption({ label: 'Hidden' });
    await v.page.getByRole('button', { name: 'Search', exact: true }).click();
    await v.page.waitForURL(/quality=unflagged/);
    expect(await v.page.locator('h1').textContent()).to.match(/notion/i);
    expect(await v.page.getByLabel('Test and template records').inputValue()).to.equal('unflagged');
    expect(await v.page.locator('.server-card').count()).to.be.greaterThan(0);
    noErrors(v);
  });

  it('compares two ticked results side by side', async () => {
    const v = await visit('/servers?sort=a-z');
    await v.page.locator('input[type="checkbox"][name="ids"]').nth(0).check();
    await v.page.locator('input[type="checkbox"][name="ids"]').nth(1).check();
    await v.page.getByRole('button', { name: 'Compare ticked servers' }).click();
    await v.page.waitForURL(/\/compare\?ids=/);
    expect(await v.page.locator('table.compare thead th').count()).to.equal(2);
    expect(await v.page.getByRole('rowheader', { name: 'Trust checks' }).count()).to.equal(1);
    noErrors(v);
  });

  it('adds to compare from a server page, then picks a second server', async () => {
    const v = await visit('/servers/com.notion~mcp');
    await v.page.getByRole('link', { name: 'Add to compare' }).click();
    await v.page.waitForURL(/compare=com\.notion~mcp/);
    await v.page.locator('input[type="checkbox"][name="ids"]:not([value="com.notion~mcp"])').first().check();
    await v.page.getByRole('button', { name: 'Compare ticked servers' }).click();
    await v.page.waitForURL(/\/compare\?/);
    expect(await v.page.locator('table.compare thead th').allTextContents()).to.include('Notion');
    noErrors(v);
  });

  it('tries a server: connects through the proxy, fills the tool form, calls it, sends the header once and stores nothing', async () => {
    const v = await visit('/servers/com.fixture~echo');
    await v.page.getByLabel(/X-Api-Key/).fill('typed-key-123');
    await v.page.getByRole('button', { name: /Try it/ }).click();
    await v.page.getByText(/Connected to fixture/).waitFor();
    await v.page.getByLabel('Tool', { exact: true }).selectOption({ label: 'echo' });
    await v.page.locator('.try-form [name="text"]').fill('hello from the browser');
    await v.page.getByRole('button', { name: 'Call' }).click();
    await v.page.locator('.try-result').waitFor();
    expect(await v.page.locator('.try-result').textContent()).to.equal('echo: hello from the browser');
    const withKey = suite.mcp.requests.filter((r) => r.headers['x-api-key'] === 'typed-key-123');
    expect(withKey.length, 'the typed header reached the server').to.be.greaterThan(0);
    const stored = await v.page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length, cookie: document.cookie }));
    expect(stored).to.deep.equal({ local: 0, session: 0, cookie: '' });
    noErrors(v);
  });

  it('says in a plain sentence when the proxy refuses a private destination', async () => {
    const v = await visit('/servers/com.fixture~private');
    v.errors.length = 0;
    await v.page.getByRole('button', { name: /Try it/ }).click();
    const alert = v.page.locator('.try-error');
    await alert.waitFor();
    expect(await alert.textContent()).to.match(/will not connect to this endpoint: it resolves to a private/);
    // The browser itself logs the 403 response; nothing else may fail.
    expect(v.errors.filter((e) => !/status of 403/.test(e))).to.deep.equal([]);
  });

  it('shows hostile catalog text as text: nothing runs, no javascript: link', async () => {
    for (const path of ['/servers/io.github.hostile~xss-probe', '/servers?q=hostile', '/tools?q=query', '/compare?ids=io.github.hostile~xss-probe,com.notion~mcp']) {
      const v = await visit(path);
      const state = await v.page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: number }).__pwned ?? null,
        badLinks: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? '').filter((href) => /^\s*(javascript|data|vbscript):/i.test(href)),
        injected: document.querySelectorAll('main script, main img, main svg[onload], [onerror], [onload]').length,
      }));
      expect(state, path).to.deep.equal({ pwned: null, badLinks: [], injected: 0 });
      noErrors(v);
    }
    const v = await visit('/servers/io.github.hostile~xss-probe');
    expect(await v.page.locator('h1').textContent()).to.equal('Hostile <script>window.__pwned=1</script>');
    expect(await v.page.locator('.server-head .lead').textContent()).to.contain('<img src=x onerror="window.__pwned=2">');
    expect(await v.page.locator('.server-head').textContent()).to.contain('Not listed');
    expect(await v.page.locator('[id="tool-<svg onload=window.__pwned=5>"] h3 code').textContent()).to.equal('<svg onload=window.__pwned=5>');
  });

  it('shows why a bad domain is refused, and takes a good one to its assessment page, which fills in', async () => {
    const v = await visit('/assess');
    await v.page.getByLabel('Business domain').fill('https://acme-widgets.co.uk/about');
    await v.page.getByRole('button', { name: 'Start the assessment' }).click();
    await v.page.locator('#assess-domain-error').waitFor();
    expect(await v.page.locator('#assess-domain-error').textContent()).to.match(/URL|scheme|domain/i);
    expect(await v.page.getByLabel('Business domain').getAttribute('aria-invalid')).to.equal('true');
    v.errors.length = 0; // the 400 page load itself is logged by the browser
    await v.page.getByLabel('Business domain').fill('acme-widgets.co.uk');
    await v.page.getByLabel('Exposure (optional)').fill('25000');
    await v.page.getByRole('button', { name: 'Start the assessment' }).click();
    await v.page.waitForURL(/\/assessments\/[^/]+$/);
    await v.page.locator('[data-finished="yes"]').waitFor({ timeout: 20_000 });
    expect(await v.page.locator('.notice-strong').textContent()).to.match(/not a score, rating, recommendation or credit decision/);
    expect(await v.page.locator('.observation-list .observation').count()).to.equal(standInObservations('').length);
    expect(await v.page.locator('[data-observation="mx_records"] .observation-summary').textContent()).to.equal('E-mail for the domain goes to 1 mail server: acmewidgets-co-uk.mail.protection.outlook.com.');
    noErrors(v);
  });

  it('lays an assessment out for reading at 360, 1280 and 1920 px: no column narrower than its longest word, nothing wider than the screen', async () => {
    const created = await fetch(`${suite.harness.baseUrl}/api/v1/assessments`, { method: 'POST', headers: { 'content-type': 'application/json', prefer: 'wait=10' }, body: JSON.stringify({ domain: 'acme-widgets.co.uk' }) });
    const { id } = (await created.json()) as { id: string };
    const v = await visit(`/assessments/${id}`);
    for (const width of [360, 1280, 1920]) {
      await v.page.setViewportSize({ width, height: 900 });
      const layout = await v.page.evaluate(() => {
        const measure = document.createElement('canvas').getContext('2d')!;
        const crushed: string[] = [];
        for (const el of document.querySelectorAll<HTMLElement>('.observation-label, .observation-evidence dt, .answer, .facts-list dt')) {
          measure.font = getComputedStyle(el).font;
          const longest = Math.max(...(el.textContent ?? '').split(/\s+/).map((word) => measure.measureText(word).width));
          if (el.clientWidth + 1 < longest) crushed.push(`${el.textContent} (${el.clientWidth} < ${Math.ceil(longest)})`);
        }
        return { crushed, overflow: document.documentElement.scrollWidth - window.innerWidth };
      });
      expect(layout.crushed, `at ${width} px`).to.deep.equal([]);
      expect(layout.overflow, `at ${width} px`).to.be.at.most(0);
      if (SCREENSHOTS) await v.page.screenshot({ path: join(SCREENSHOTS, `assessment-${width}.png`), fullPage: true });
    }
    noErrors(v);
  });

  it('shows what changed since the last assessment of the domain, both sides in words', async () => {
    const created = await fetch(`${suite.harness.baseUrl}/api/v1/assessments`, { method: 'POST', headers: { 'content-type': 'application/json', prefer: 'wait=10' }, body: JSON.stringify({ domain: 'changing-widgets.co.uk' }) });
    const first = await visit(`/assessments/${((await created.json()) as { id: string }).id}`);
    expect(await first.page.locator('#changes-title').count()).to.equal(0);
    await first.page.getByRole('button', { name: /Assess changing-widgets\.co\.uk again and compare/ }).click();
    await first.page.waitForURL(/\/assessments\/[^/]+$/);
    await first.page.locator('[data-finished="yes"]').waitFor({ timeout: 20_000 });
    const v = await visit(first.page.url().replace(suite.harness.baseUrl, ''));
    expect(await v.page.locator('#changes-title').textContent()).to.match(/^Since \d/);
    expect(await v.page.locator('.change-list li').evaluateAll((items) => items.map((item) => item.getAttribute('data-change')))).to.deep.equal(['mx_records', 'tls_certificate']);
    expect(await v.page.locator('[data-change="mx_records"]').textContent()).to.contain('Now: The domain lists no mail servers.');
    if (SCREENSHOTS) await v.page.locator('.changes').screenshot({ path: join(SCREENSHOTS, 'assessment-changes.png') });
    noErrors(v);
  });

  it('prints an assessment as a clean report: the notice, the domain, the time and every observation, without the site around it', async () => {
    const created = await fetch(`${suite.harness.baseUrl}/api/v1/assessments`, { method: 'POST', headers: { 'content-type': 'application/json', prefer: 'wait=10' }, body: JSON.stringify({ domain: 'acme-widgets.co.uk' }) });
    const { id } = (await created.json()) as { id: string };
    const v = await visit(`/assessments/${id}`);
    await v.page.emulateMedia({ media: 'print' });
    expect(await v.page.locator('.site-header').isVisible()).to.equal(false);
    expect(await v.page.locator('.site-footer').isVisible()).to.equal(false);
    expect(await v.page.locator('.page-actions').evaluateAll((items) => items.map((item) => (item as HTMLElement).offsetHeight))).to.deep.equal([0, 0]);
    expect(await v.page.locator('.notice-strong').isVisible()).to.equal(true);
    expect(await v.page.locator('h1').textContent()).to.contain('acme-widgets.co.uk');
    expect(await v.page.locator('.facts-list').textContent()).to.match(/Finished.*\d{4}/);
    const shown = await v.page.locator('.observation').evaluateAll((items) => items.filter((item) => (item as HTMLElement).offsetHeight > 0).length);
    expect(shown).to.equal(standInObservations('').length);
    const pdf = await v.page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
    if (SCREENSHOTS) await v.page.screenshot({ path: join(SCREENSHOTS, 'assessment-print.png'), fullPage: true });
    noErrors(v);
  });

  it('reads a CSV file into the list form, queues the list and shows each domain and why one was refused, at 360 and 1280 px', async () => {
    const v = await visit('/assess');
    const csv = 'Domain,Exposure\r\nportfolio-widgets.co.uk,25000\r\nhttps://not-a-domain.example\r\nsecond-widgets.de,300\r\n';
    await v.page.locator('#assess-csv').setInputFiles({ name: 'portfolio.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await v.page.waitForFunction(() => (document.getElementById('assess-domains') as HTMLTextAreaElement).value.includes('portfolio-widgets'));
    await v.page.getByRole('button', { name: 'Assess the list' }).click();
    await v.page.waitForURL(/\/assessments\/batches\/[^/]+$/);
    // The page reloads itself until every assessment has finished.
    await v.page.getByText('Every assessment has finished.').waitFor({ timeout: 20_000 });
    expect(await v.page.locator('.batch-list li').allTextContents()).to.have.length(3);
    expect(await v.page.locator('.batch-refused').textContent()).to.match(/^Not assessed: "https:\/\/not-a-domain\.example" is a web address/);
    const violations = await axeViolations(v.page);
    expect(violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')).to.deep.equal([]);
    for (const width of [360, 1280]) {
      await v.page.setViewportSize({ width, height: 800 });
      expect(await v.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `at ${width} px`).to.be.at.most(0);
      if (SCREENSHOTS) await v.page.screenshot({ path: join(SCREENSHOTS, `batch-${width}.png`), fullPage: true });
    }
    await v.page.locator('.batch-list a').first().click();
    await v.page.getByRole('link', { name: /Every assessment of portfolio-widgets\.co\.uk/ }).click();
    await v.page.waitForURL(/\/assessments\?domain=portfolio-widgets\.co\.uk$/);
    expect(await v.page.locator('h1').textContent()).to.equal('Assessments of portfolio-widgets.co.uk');
    noErrors(v);
  });

  it('renders the API reference from /openapi.json with our own files, under the CSP', async () => {
    const v = await visit('/docs');
    await v.page.locator('.swagger-ui .info .title').waitFor();
    expect(await v.page.locator('.swagger-ui .info .title').textContent()).to.contain('Sextant');
    expect(await v.page.locator('.opblock-tag-section').count()).to.be.greaterThan(5);
    noErrors(v);
  });

  it('keeps the home page under 100 KiB with everything it loads', async () => {
    const v = await visit('/');
    const bytes = await v.page.evaluate(() => {
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return navigation.decodedBodySize + resources.reduce((sum, r) => sum + r.decodedBodySize, 0);
    });
    console.log(`      home page with everything it loads: ${(bytes / 1024).toFixed(1)} KiB`);
    expect(bytes).to.be.below(100 * 1024);
  });

  it('shows what the tool scan found, as text, beside the install section, and draws the README badges', async () => {
    const v = await visit('/servers/inbox-helper');
    const section = v.page.locator('#tool-checks');
    expect(await section.locator('h2').textContent()).to.equal('What its tools tell an AI model');
    const text = (await section.textContent()) ?? '';
    expect(text).to.match(/found \d+ things in its tool descriptions/);
    expect(text).to.contain('<IMPORTANT>').and.contain('\\u{E0073}');
    expect(await v.page.locator('#tool-checks important, #tool-checks script').count()).to.equal(0);
    const order = await v.page.locator('section.panel').evaluateAll((sections) => sections.map((s) => s.id));
    expect(order.indexOf('tool-checks')).to.equal(order.indexOf('install') + 1);
    await v.page.setViewportSize({ width: 360, height: 800 });
    expect(await v.page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360);
    if (SCREENSHOTS) {
      mkdirSync(SCREENSHOTS, { recursive: true });
      await section.screenshot({ path: join(SCREENSHOTS, 'tool-checks-phone.png') });
      await v.page.setViewportSize({ width: 1280, height: 800 });
      await section.screenshot({ path: join(SCREENSHOTS, 'tool-checks.png') });
    }
    noErrors(v);
    const badges = await visit('/servers/inbox-helper');
    const base = `${suite.harness.baseUrl}/api/v1/servers/inbox-helper/badge.svg`;
    await badges.page.setContent(`<p>${['status', 'trust', 'tools'].map((kind) => `<img alt="${kind}" src="${base}?kind=${kind}">`).join(' ')}</p>`);
    await badges.page.waitForFunction(() => [...document.images].every((img) => img.complete));
    const widths = await badges.page.locator('img').evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth));
    expect(widths.every((w) => w > 40)).to.equal(true, String(widths));
    if (SCREENSHOTS) await badges.page.locator('p').screenshot({ path: join(SCREENSHOTS, 'badges.png') });
  });

  it('says "tools not listed" for a server no source lists the tools of, never "0 tools", at 360 and 1280 px', async () => {
    const v = await visit('/servers/com.fixture~private');
    expect(await v.page.locator('.server-head .facts').textContent()).to.contain('tools not listed');
    expect(await v.page.locator('#tools h2').textContent()).to.equal('Tools not listed');
    expect(await v.page.locator('#tool-checks').textContent()).to.contain('No source lists this server’s tools');
    expect(await v.page.locator('main').textContent()).not.to.match(/(^|[^0-9,])0 tools/);
    for (const width of [360, 1280]) {
      await v.page.setViewportSize({ width, height: 900 });
      expect(await v.page.evaluate(() => document.documentElement.scrollWidth), `at ${width} px`).to.be.at.most(width);
      if (SCREENSHOTS) {
        mkdirSync(SCREENSHOTS, { recursive: true });
        // The head with its facts, then the tools section: what the page says of the tools.
        await v.page.locator('.server-head').screenshot({ path: join(SCREENSHOTS, `unknown-tools-${width}.png`) });
        await v.page.locator('#tools').screenshot({ path: join(SCREENSHOTS, `unknown-tools-section-${width}.png`) });
      }
    }
    noErrors(v);
    // A tool its source names without arguments: not "takes no arguments".
    const named = await visit('/servers/inbox-helper');
    expect(await named.page.locator('#tools').textContent()).to.contain('Arguments not listed by its source').and.not.contain('Takes no arguments');
    noErrors(named);
  });

  const PAGES = ['/', '/servers', '/servers?q=github', '/tools?q=issue', '/servers/com.notion~mcp', '/servers/com.fixture~echo', '/servers/inbox-helper', '/compare?ids=com.notion~mcp,app.linear~linear', '/compare', '/assess', '/docs', '/no-such-page'];

  it('has no serious or critical axe-core violation on any page', async () => {
    const report: string[] = [];
    for (const path of PAGES) {
      const v = await visit(path);
      if (path === '/docs') await v.page.locator('.swagger-ui .info .title').waitFor();
      const violations = await axeViolations(v.page);
      const serious = violations.filter((x) => x.impact === 'serious' || x.impact === 'critical');
      report.push(`${path}: ${violations.length} violations (${serious.length} serious or critical)${violations.length ? `: ${violations.map((x) => `${x.id}/${x.impact}`).join(', ')}` : ''}`);
      expect(serious, `${path}: ${JSON.stringify(serious, null, 1)}`).to.deep.equal([]);
    }
    // An assessment's page, once its (stand-in) probes have finished.
    const created = await fetch(`${suite.harness.baseUrl}/api/v1/assessments`, { method: 'POST', headers: { 'content-type': 'application/json', prefer: 'wait=10' }, body: JSON.stringify({ domain: 'acme-widgets.co.uk' }) });
    const { id } = (await created.json()) as { id: string };
    const v = await visit(`/assessments/${id}`);
    const violations = await axeViolations(v.page);
    report.push(`/assessments/{id}: ${violations.length} violations${violations.length ? `: ${violations.map((x) => `${x.id}/${x.impact}`).join(', ')}` : ''}`);
    expect(violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')).to.deep.equal([]);
    console.log(report.map((line) => `      ${line}`).join('\n'));
  });

  it('answers an unknown page with a 404 page, and keeps the API in JSON', async () => {
    const v = await visit('/no-such-page');
    expect(await v.page.locator('h1').textContent()).to.equal('Page not found');
    const api = await fetch(`${suite.harness.baseUrl}/api/no-such-route`);
    expect(api.headers.get('content-type')).to.match(/^application\/problem\+json/);
  });

  if (SCREENSHOTS) {
    it('takes a screenshot of each page', async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const shots: Array<[string, string, (page: Page) => Promise<void>]> = [
        ['home', '/', async () => undefined],
        ['servers', '/servers', async () => undefined],
        ['tools', '/tools?q=issue', async () => undefined],
        ['server', '/servers/com.notion~mcp', async () => undefined],
        ['try-it', '/servers/com.fixture~echo', async (page) => {
          await page.getByRole('button', { name: /Try it/ }).click();
          await page.locator('.try-form [name="text"]').fill('hello');
          await page.getByRole('button', { name: 'Call' }).click();
          await page.locator('.try-result').waitFor();
        }],
        ['compare', '/compare?ids=com.notion~mcp,app.linear~linear', async () => undefined],
        ['assess', '/assess', async () => undefined],
        ['assessment', '/assess', async (page) => {
          await page.getByLabel('Business domain').fill('acme-widgets.co.uk');
          await page.getByRole('button', { name: 'Start the assessment' }).click();
          await page.locator('[data-finished="yes"]').waitFor({ timeout: 20_000 });
        }],
        ['hostile', '/servers/io.github.hostile~xss-probe', async () => undefined],
        ['docs', '/docs', async (page) => void (await page.locator('.swagger-ui .info .title').waitFor())],
        ['not-found', '/no-such-page', async () => undefined],
      ];
      for (const [name, path, prepare] of shots) {
        const v = await visit(path);
        await prepare(v.page);
        const file = join(SCREENSHOTS, `${name}.png`);
        // Try it: the panel alone; every other page whole.
        if (name === 'try-it') await v.page.locator('#try').screenshot({ path: file });
        else await v.page.screenshot({ path: file, fullPage: true });
      }
    });
  }
});
