// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { uniqueEmail } from '../../helpers/access.ts';
import { violations } from '../../helpers/axe.ts';
import { launchBrowser, newPage } from '../../helpers/browser.ts';
import { type HttpReceiver, startReceiver } from '../../helpers/receivers.ts';

// A team sets up its alert routes in a real browser (docs/alert-routes.md, docs/web.md
// "Team"): from the team page to the routes page, a refused destination said next to the
// form, a webhook route added, tested (the receiver gets it), switched off and deleted;
// axe-clean and without sideways scrolling at phone width.

async function fits(page: Page, what: string) {
  assert.deepEqual(await violations(page), [], `${what}: axe`);
  const sideways = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
  assert.ok(sideways <= 0, `${what}: scrolls sideways by ${sideways}px`);
}

describe('alert routes page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let hook: HttpReceiver;
  before(async () => {
    hook = await startReceiver();
    t = await startApp({ env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await hook?.close();
  });

  test('add, refuse, test, switch off and delete a route', async () => {
    const { page } = await newPage(browser, { baseURL: t.url, width: 375, height: 800 });
    await page.goto('/signup');
    await page.getByLabel('Email').fill(uniqueEmail('routes-owner'));
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/account/);
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByLabel('New team organisation').fill('Routing team');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/team\?done=created$/);
    await page.getByRole('link', { name: 'Alert routes' }).click();
    await page.waitForURL(/\/team\/routes$/);
    assert.match(await page.locator('main').innerText(), /No routes yet/);
    await fits(page, 'routes page, empty');

    // A private address is refused, with the reason next to the form.
    await page.getByLabel('Name').fill('On-call hook');
    await page.getByLabel('Destination').fill('https://10.0.0.5/hook');
    await page.getByRole('button', { name: 'Add route' }).click();
    assert.match(await page.locator('[data-routes-notice]').innerText(), /private, loopback or link-local/);

    await page.getByLabel('Name').fill('On-call hook');
    await page.getByLabel('Destination').fill(`${hook.url}/on-call/secret-path`);
    await page.getByLabel('Vendors (optional)').fill('github, stripe');
    await page.getByLabel('Lowest impact').selectOption('major');
    await page.getByRole('button', { name: 'Add route' }).click();
    await page.waitForURL(/done=added/);
    const row = page.locator('[data-route="On-call hook"]');
    const shown = await row.innerText();
    assert.match(shown, /vendors github, stripe/);
    assert.match(shown, /impact major or more/);
    assert.ok(!shown.includes('secret-path'), 'the URL path is not shown');
    await fits(page, 'routes page, one route');

    await page.getByRole('button', { name: 'Send a test alert through On-call hook' }).click();
    assert.match(await page.locator('[data-routes-notice]').innerText(), /Test alert delivered/);
    assert.ok(hook.requests.some((r) => r.path === '/on-call/secret-path'));

    await page.getByRole('button', { name: 'Switch off On-call hook' }).click();
    await page.waitForURL(/done=off/);
    assert.match(await page.locator('[data-route="On-call hook"] [data-route-state]').innerText(), /Off/);
    await page.getByRole('button', { name: 'Delete On-call hook' }).click();
    await page.waitForURL(/done=deleted/);
    assert.equal(await page.locator('[data-route]').count(), 0);
  });
});
