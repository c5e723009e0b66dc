/**
 * The watchlist page in Debian's Chromium: a portfolio after two runs, each domain's latest
 * status with a link to its assessment and its changes in words, and the webhook's deliveries
 * (one retried); laid out at 360 and 1280 px, without JavaScript errors or serious axe findings.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startFixture, type Fixture } from '../support/fixture-servers.js';
import { startHarness, type Harness } from '../support/harness.js';
import { CHROMIUM, SCREENSHOTS, axeViolations, standInObservations } from './browser-support.js';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TOKEN = 'browser-watchlist-token-0123456789';
const HOUR = 3_600_000;

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the watchlist page in Chromium', function () {
  this.timeout(90_000);
  let offset = 0;
  const looks = new Map<string, number>();
  let harness: Harness;
  let receiver: Fixture;
  let browser: Browser;
  let id = '';
  let failedOnce = false;

  before(async () => {
    receiver = await startFixture((_req, res) => {
      // The first delivery meets a receiver that is down for a moment: the page shows the retry.
      res.writeHead(failedOnce ? 202 : 503).end();
      failedOnce = true;
    });
    harness = await startHarness({
      demo: false, watchlistToken: TOKEN, netAllowPrivate: ['127.0.0.1/32'],
      probe: async (domain) => {
        const seen = (looks.get(domain) ?? 0) + 1;
        looks.set(domain, seen);
        return standInObservations(new Date().toISOString(), domain.startsWith('changing-') && seen > 1);
      },
      watchlists: { tickMs: 100, recheckMs: 50, retryBaseMs: 200, now: () => new Date(Date.now() + offset) },
    });
    const api = (path: string, init: RequestInit = {}) => fetch(`${harness.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...init.headers } });
    const created = await api('/api/v1/watchlists', {
      method: 'POST',
      body: JSON.stringify({ name: 'Northern suppliers', domains: ['acme-widgets.co.uk', 'changing-bakery.co.uk', 'harbour-freight-and-storage-services.com'], intervalHours: 168, webhook: { url: `${receiver.url}/hooks/sextant` } }),
    });
    id = ((await created.json()) as { id: string }).id;
    const delivered = (runs: number) => async () => {
      const body = (await (await api(`/api/v1/watchlists/${id}`)).json()) as { runs: Array<{ delivery: { state: string } }> };
      return body.runs.length === runs && body.runs[0]?.delivery.state === 'delivered';
    };
    await until('the first run delivered', delivered(1));
    offset = 169 * HOUR;
    await until('the second run delivered', delivered(2));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
    await receiver?.close();
  });

  const open = async (width: number, path = `/watchlists/${id}`): Promise<{ page: Page; errors: string[] }> => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('close', () => void context.close());
    await page.goto(`${harness.baseUrl}${path}`, { waitUntil: 'load' });
    return { page, errors };
  };

  for (const width of [360, 1280]) {
    it(`shows each domain's status, a link to its assessment, its changes in words and the deliveries at ${width} px`, async () => {
      const { page, errors } = await open(width);
      try {
        expect(await page.locator('h1').textContent()).to.equal('Northern suppliers');
        const changing = page.locator('[data-domain="changing-bakery.co.uk"]');
        const text = (await changing.innerText()).replace(/\s+/g, ' ');
        expect(text).to.match(/Since \d{1,2} \w{3} \d{4}: 2 observations differ\./);
        expect(text).to.contain('Mail servers: no longer found.').and.to.contain('Now: The domain lists no mail servers.');
        expect((await page.locator('[data-domain="acme-widgets.co.uk"]').innerText()).replace(/\s+/g, ' ')).to.match(/Since .*: no observation differs\./);
        const deliveries = (await page.locator('.deliveries').innerText()).replace(/\s+/g, ' ');
        expect(deliveries).to.contain('The receiver answered HTTP 503.').and.to.contain('delivered (HTTP 202)');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `horizontal overflow at ${width} px`).to.be.at.most(0);
        const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(serious).to.deep.equal([]);
        if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `watchlist-${width}.png`), fullPage: true });
        await changing.getByRole('link', { name: 'The latest assessment' }).click();
        await page.waitForURL(/\/assessments\//);
        expect(await page.locator('h1').textContent()).to.contain('changing-bakery.co.uk');
        expect(errors).to.deep.equal([]);
      } finally {
        await page.close();
      }
    });
  }

  it('lists the watchlists once the token is typed into the form, each linking to its page', async () => {
    const { page, errors } = await open(360, '/watchlists');
    try {
      await page.getByLabel('Watchlist token').fill('a wrong token');
      await page.getByRole('button', { name: 'Show the watchlists' }).click();
      await page.locator('#watchlist-token-error').waitFor();
      await page.getByLabel('Watchlist token').fill(TOKEN);
      await page.getByRole('button', { name: 'Show the watchlists' }).click();
      await page.getByRole('link', { name: 'Northern suppliers' }).waitFor();
      expect(await page.content()).to.not.contain(TOKEN);
      const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious).to.deep.equal([]);
      if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, 'watchlists-360.png'), fullPage: true });
      await page.getByRole('link', { name: 'Northern suppliers' }).click();
      await page.waitForURL(/\/watchlists\/[^/]+$/);
      // The wrong token's 401 page is a console error in Chromium; nothing else may be.
      expect(errors.filter((e) => !/401/.test(e))).to.deep.equal([]);
    } finally {
      await page.close();
    }
  });
});
