// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { login, userWithKey } from '../../helpers/access.ts';
import { addCookieHeader, launchBrowser, newPage, OPTIONAL_ENDPOINTS_MISSING, screenshot, unexpected } from '../../helpers/browser.ts';
import { startFakeStatusPages, type FakeStatusPages } from '../../helpers/fake-status-page.ts';

// Status pages added by URL from the account area, in a real browser (docs/per-user.md
// "Custom status pages"): add a page served on loopback, see it listed and on its
// vendor page once polled, see a page of no known platform refused with what was
// tried, remove it.

describe('status pages in the account area', { timeout: 120_000 }, () => {
  let t: TestApp;
  let browser: Browser;
  let pages: FakeStatusPages;

  before(async () => {
    pages = await startFakeStatusPages();
    pages.incidents('crm').push({ id: 'w1', name: 'Contacts sync stalled', status: 'investigating', impact: 'major', createdAt: new Date().toISOString() });
    t = await startApp({ env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await pages?.close();
  });

  test('add → listed → polled and shown on its page → an undetectable page says what was tried → remove', async () => {
    const user = await userWithKey(t, 'standard', 'pages');
    const { page, context, problems } = await newPage(browser, { baseURL: t.url });
    await addCookieHeader(context, await login(t, user.email, user.password), t.url);
    await page.goto('/account');
    const section = page.locator('#status-pages');
    assert.match(await section.locator('[data-status-pages-count]').innerText(), /0 of 10 pages used/);

    await section.getByLabel('Status page address').fill(`${pages.url}/pages/crm/`);
    await section.getByLabel('Name (optional)').fill('Acme CRM');
    await section.getByRole('button', { name: 'Add the page' }).click();
    const item = section.locator('[data-status-page]', { hasText: 'Acme CRM' });
    await item.waitFor();
    assert.match(await section.locator('[data-status-page-status]').innerText(), /Added Acme CRM \(statuspage-v2\)/);
    // What detection read is stored at once: polled, and its incident on its page before any round.
    assert.match(await item.innerText(), /· polled /);
    const slug = (await item.getAttribute('data-status-page'))!;
    assert.match(slug, /^u-[0-9a-f]{12}-acme-crm$/);

    await page.goto(`/vendors/${slug}`);
    assert.match(await page.locator('main').innerText(), /Contacts sync stalled/);
    await screenshot(page, 'status-page-vendor');

    await page.goto('/account');
    await section.getByLabel('Status page address').fill(`${pages.url}/plain/`);
    await section.getByRole('button', { name: 'Add the page' }).click();
    const tried = section.locator('[data-status-page-tried]');
    await tried.waitFor();
    assert.match(await section.locator('[data-status-page-status]').innerText(), /No supported status platform/);
    assert.match(await tried.innerText(), /\/plain\/api\/v2\/summary\.json/);
    await screenshot(page, 'status-page-undetected');

    await section.getByRole('button', { name: 'Remove status page Acme CRM' }).click();
    await section.locator('[data-status-pages-empty]').waitFor();
    assert.equal((await page.goto(`/vendors/${slug}`))?.status(), 404);
    assert.deepEqual(
      unexpected(problems, [...OPTIONAL_ENDPOINTS_MISSING, /^http 422 POST \/api\/v1\/account\/status-pages$/, /^http 404 GET \/vendors\/u-/]),
      [],
    );
    await context.close();
  });
});
