// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { login, userWithKey, type TestUser } from '../../helpers/access.ts';
import { launchBrowser, newPage } from '../../helpers/browser.ts';
import { seedDashboard } from '../../helpers/seed.ts';
import { send } from '../../helpers/users.ts';

// Every page at phone and desktop width in a real browser, in demo mode (its banner is on
// every page) (docs/web.md, "Accessibility and layout"): none scrolls sideways, and the
// compare charts show long vendor names whole, inside the chart. Content with long words is
// set up on purpose: a long key name, long vendor names, a long board title.

const WIDTHS = [375, 1280];
const LONG_VENDORS = ['amazon-web-services', 'pypi', 'google-cloud', 'github', 'microsoft-azure'];

/** How far the page scrolls sideways, and the first elements sticking out (inside a scrolling box is fine). */
async function overflowOf(page: Page): Promise<{ overflow: number; widest: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('body *')]
      .map((e) => ({ e, right: Math.round(e.getBoundingClientRect().right) }))
      // An absolutely positioned element escapes a scrolling box that is not its containing
      // block: it widens the page even from inside a table.
      .filter((x) => x.right > width && (!x.e.parentElement?.closest('.table-scroll') || ['absolute', 'fixed'].includes(getComputedStyle(x.e).position)))
      .slice(0, 4)
      .map(
        (x) =>
          `${x.e.tagName.toLowerCase()}${x.e.className && typeof x.e.className === 'string' ? `.${x.e.className.split(' ').join('.')}` : ''} "${(x.e.textContent ?? '').trim().slice(0, 30)}" (right edge ${x.right}px)`,
      );
    return { overflow: document.scrollingElement!.scrollWidth - window.innerWidth, widest: wide };
  });
}

describe('every page at 375 and 1280 px', () => {
  let t: TestApp;
  let browser: Browser;
  let user: TestUser;
  let boardToken = '';
  before(async () => {
    t = await startApp({ env: { DEMO: 'true', DEMO_SEED: '7' } });
    await seedDashboard(t.store);
    browser = await launchBrowser();
    user = await userWithKey(t, 'pro', 'widths');
    const key = { 'x-api-key': user.secret };
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', key, { vendors: LONG_VENDORS })).status, 200);
    const session = { cookie: await login(t, user.email, user.password), origin: t.url };
    const made = await send(`${t.url}/api/v1/account/keys`, 'POST', session, { name: 'deployment-pipeline-for-production-eu-west' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    boardToken = (await send(`${t.url}/api/v1/boards`, 'POST', key, { title: 'Infrastructure-vendors-of-the-payments-platform-team' })).body.token;
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const publicPages = () => [
    '/',
    '/vendors/github',
    '/vendors/amazon-web-services',
    '/search',
    '/search?q=cloud',
    '/vendors/nope',
    '/no-such-page',
    `/compare?vendors=${LONG_VENDORS.join(',')}`,
    '/login',
    '/signup',
    '/confirm-email?token=not-a-real-token',
    `/b/${boardToken}`,
    '/oauth/authorize',
  ];
  const signedInPages = [
    '/',
    '/?scope=all',
    '/account',
    '/account#watchlist',
    '/account?find=cloud#watchlist',
    '/compare',
    '/vendors/github',
    '/search?q=error',
  ];

  for (const width of WIDTHS) {
    test(`no page scrolls sideways at ${width}px`, async () => {
      const failures: string[] = [];
      const visit = async (signedIn: boolean, paths: string[]) => {
        const { page, context } = await newPage(browser, { baseURL: t.url, width, height: 800 });
        if (signedIn) {
          // Through the login form, as a person signs in.
          await page.goto('/login');
          await page.getByLabel('Email').fill(user.email);
          await page.getByLabel('Password').fill(user.password);
          await page.getByRole('button', { name: 'Log in' }).click();
          await page.waitForURL(/\/account$/);
        }
        for (const path of paths) {
          await page.goto(path);
          await page.waitForLoadState('networkidle');
          const { overflow, widest } = await overflowOf(page);
          if (overflow > 0) failures.push(`${signedIn ? 'signed in ' : ''}${path}: ${overflow}px sideways: ${widest.join(', ')}`);
        }
        await context.close();
      };
      await visit(false, publicPages());
      await visit(true, signedInPages);
      assert.deepEqual(failures, []);
    });
  }

  test('compare charts never cut a vendor name off at the chart edge', async () => {
    for (const width of WIDTHS) {
      const { page, context } = await newPage(browser, { baseURL: t.url, width, height: 800 });
      await page.goto(`/compare?vendors=${LONG_VENDORS.join(',')}`);
      const labels = await page.locator('.chart__label').evaluateAll((els) =>
        els.map((el) => {
          const box = (el as SVGGraphicsElement).getBBox();
          const lines = [...el.querySelectorAll('tspan')].map((s) => s.textContent);
          return { text: lines.length ? lines.join(' ') : (el.textContent ?? ''), left: box.x };
        }),
      );
      assert.ok(labels.length >= LONG_VENDORS.length, `${width}px: charts drawn`);
      // Whole names, not shortened: a person compares vendors by the names they know.
      const uptime = labels
        .slice(0, LONG_VENDORS.length)
        .map((l) => l.text)
        .sort();
      assert.deepEqual(uptime, ['Amazon Web Services (AWS)', 'GitHub', 'Google Cloud', 'Microsoft Azure', 'Python Package Index (PyPI)']);
      const cut = labels.filter((l) => l.left < 0);
      assert.deepEqual(cut, [], `${width}px: labels starting left of the chart`);
      await context.close();
    }
  });
});
