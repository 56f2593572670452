// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { uniqueEmail } from '../../helpers/access.ts';
import { violations } from '../../helpers/axe.ts';
import { launchBrowser, newPage } from '../../helpers/browser.ts';
import { incident } from '../../helpers/records.ts';

// A team describes its services in a real browser (docs/services.md, docs/web.md "Team"):
// from the team page to the services page, a refused dependency said next to the form, a
// service added with a component and seen hit by an open incident with the reason, then
// deleted; axe-clean and without sideways scrolling at phone width.

async function fits(page: Page, what: string) {
  assert.deepEqual(await violations(page), [], `${what}: axe`);
  const sideways = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
  assert.ok(sideways <= 0, `${what}: scrolls sideways by ${sideways}px`);
}

describe('services page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  before(async () => {
    t = await startApp();
    await t.repos.status.replaceComponents('github', [{ id: 'cmp-actions', name: 'Actions', status: 'partial_outage', group: null, position: 1 }], new Date().toISOString());
    await t.repos.incidents.upsert(incident('github', 'actions', { title: 'Degraded performance for Actions', components: ['Actions'] }), 'f');
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('add a service, see it hit, delete it', async () => {
    const { page } = await newPage(browser, { baseURL: t.url, width: 375, height: 800 });
    await page.goto('/signup');
    await page.getByLabel('Email').fill(uniqueEmail('services-owner'));
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/account/);
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByLabel('New team organisation').fill('Platform team');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/team\?done=created$/);
    await page.getByRole('link', { name: 'Services' }).click();
    await page.waitForURL(/\/team\/services$/);
    assert.match(await page.locator('main').innerText(), /No services yet/);
    await fits(page, 'services page, empty');

    // An unknown region is refused, with the reason next to the form.
    await page.getByLabel('Name').fill('checkout-api');
    await page.getByLabel('Dependencies').fill('amazon-web-services | hard | | us-east-10');
    await page.getByRole('button', { name: 'Add service' }).click();
    assert.match(await page.locator('[data-services-notice]').innerText(), /us-east-10.*not one known region/);

    await page.getByLabel('Name').fill('checkout-api');
    await page.getByLabel('Criticality').selectOption('critical');
    await page.getByLabel('Tags (optional)').fill('team:payments');
    await page.getByLabel('Dependencies').fill('github | hard | Actions |\namazon-web-services | soft | | N. Virginia');
    await page.getByRole('button', { name: 'Add service' }).click();
    await page.waitForURL(/done=added/);
    const deps = await page.locator('[data-service="checkout-api"] [data-service-deps]').innerText();
    assert.match(deps, /github: Actions/);
    assert.match(deps, /amazon-web-services \(soft\): us-east-1/);
    const hit = await page.locator('[data-impact-service="checkout-api"]').innerText();
    assert.match(hit, /high confidence/);
    assert.match(hit, /component 'Actions' listed/);
    await fits(page, 'services page, one service hit');

    await page.getByRole('button', { name: 'Delete checkout-api' }).click();
    await page.waitForURL(/done=deleted/);
    assert.equal(await page.locator('[data-service]').count(), 0);
  });
});
