/**
 * A private registry (READ_ACCESS=token) in Debian's Chromium: a page asked for without a
 * session shows the sign-in form, a wrong token says so, a read token signs in and goes on to
 * the page asked for, whose header then offers Sign out, which ends the session and returns to the
 * sign-in page; at 360 and 1280 px, without JavaScript errors or axe findings.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { startHarness, type Harness } from '../support/harness.js';
import { CHROMIUM, SCREENSHOTS, axeViolations } from './browser-support.js';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe('signing in to a private registry in Chromium', function () {
  this.timeout(60_000);
  let harness: Harness;
  let browser: Browser;
  let token = '';

  before(async () => {
    harness = await startHarness({ readAccess: 'token' });
    token = (await harness.service.access.create('browser-reader', ['read'], null)).token;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  for (const width of [360, 1280]) {
    it(`signs in from the page asked for, goes back to it, and signs out from its header, at ${width} px`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        const first = await page.goto(`${harness.baseUrl}/servers?q=github`);
        expect(first?.status()).to.equal(401);
        expect(await page.locator('h1').textContent()).to.equal('Sign in');
        expect((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).to.deep.equal([]);
        await page.fill('#login-token', 'sxt_not-a-token');
        await page.click('button[type=submit]');
        expect(await page.locator('#login-token-error').textContent()).to.match(/not one this registry knows/);
        if (SCREENSHOTS) await page.screenshot({ path: join(SCREENSHOTS, `login-${width}.png`), fullPage: true });
        await page.fill('#login-token', token);
        await page.click('button[type=submit]');
        await page.waitForURL(/\/servers\?q=github$/);
        expect(await page.locator('h1').textContent()).to.not.equal('Sign in');
        expect(await page.locator('body').textContent()).to.match(/GitHub/);
        const cookies = await context.cookies();
        expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).to.deep.equal([['sextant_session', true, 'Strict']]);

        const signOut = page.getByRole('button', { name: 'Sign out' });
        expect(await signOut.isVisible()).to.equal(true);
        expect(await axeViolations(page)).to.deep.equal([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(width);
        const button = await signOut.boundingBox();
        const brand = await page.locator('.brand').boundingBox();
        const firstLink = await page.locator('.nav a').first().boundingBox();
        if (!button || !brand || !firstLink) throw new Error('the header is not laid out');
        expect(button.x + button.width).to.be.at.most(width);
        // On a phone it sits on the brand's line; at desktop widths on the navigation's, after it.
        const line = width < 640 ? brand : firstLink;
        expect(Math.abs((button.y + button.height / 2) - (line.y + line.height / 2))).to.be.below(4);
        if (width >= 640) expect(button.x).to.be.above(firstLink.x);
        if (SCREENSHOTS) await page.locator('header.site-header').screenshot({ path: join(SCREENSHOTS, `signed-in-header-${width}.png`) });

        await signOut.click();
        await page.waitForURL(/\/login$/);
        expect(await page.locator('h1').textContent()).to.equal('Sign in');
        expect(await page.getByRole('button', { name: 'Sign out' }).count()).to.equal(0);
        expect(await context.cookies()).to.deep.equal([]);
        const after = await page.goto(`${harness.baseUrl}/servers?q=github`);
        expect(after?.status()).to.equal(401);
        expect(await page.locator('h1').textContent()).to.equal('Sign in');
        expect(errors).to.deep.equal([]);
      } finally {
        await context.close();
      }
    });
  }
});
