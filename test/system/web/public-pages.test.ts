import { PUBLIC_AUDIENCE } from '../../../src/domain/audience.ts';
// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createRepositories } from '../../../src/services/index.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { launchBrowser, newPage, screenshot } from '../../helpers/browser.ts';
import { incident } from '../../helpers/records.ts';
import { seedDashboard } from '../../helpers/seed.ts';

describe('public pages in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  before(async () => {
    t = await startApp();
    await seedDashboard(t.store);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('overview: what is down comes first, every vendor is listed, no script errors', async () => {
    const { page, problems, context } = await newPage(browser, { baseURL: t.url });
    await page.goto('/');
    await page.locator('.summary__headline').waitFor();
    assert.match(await page.locator('.summary__headline').innerText(), /vendors report problems/);
    const activeIncidents = page.locator('[data-live-id="problems"] article');
    assert.equal(await activeIncidents.count(), 2);
    assert.match(await activeIncidents.first().innerText(), /GitHub: Degraded performance for Actions and Pages/);
    const vendorCount = (await createRepositories(t.store).vendors.list(PUBLIC_AUDIENCE)).length;
    assert.equal(await page.locator('[data-vendor-grid] > li').count(), vendorCount);
    assert.ok(vendorCount >= 80);
    const github = page.locator('[data-vendor="github"]');
    assert.match(await github.innerText(), /Partial outage/);
    await screenshot(page, 'overview');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('overview: search, category and problem filters narrow the cards and keep the address', async () => {
    const { page, problems, context } = await newPage(browser, { baseURL: t.url });
    await page.goto('/');
    assert.equal(await page.locator('[data-filter-submit]').isHidden(), true, 'the Apply button is only for pages without JavaScript');
    await page.getByLabel('Search vendors').fill('cloud');
    const visible = page.locator('[data-vendor-grid] > li:not([hidden])');
    const names = await visible.locator('h3').allInnerTexts();
    assert.ok(names.length >= 1);
    for (const n of names) assert.match(n.toLowerCase(), /cloud/);
    assert.match(page.url(), /\?q=cloud$/);
    await page.getByLabel('Search vendors').fill('');
    await page.getByLabel('Category').selectOption('payments');
    for (const c of await visible.all()) assert.equal(await c.getAttribute('data-category'), 'payments');
    await page.getByLabel('Category').selectOption('');
    await page.getByLabel('Only vendors with incidents or maintenance').check();
    const withProblems = await visible.evaluateAll((els) => els.map((e) => e.getAttribute('data-vendor')).sort());
    assert.deepEqual(withProblems, ['cloudflare', 'github', 'stripe']);
    assert.match(await page.locator('[data-filter-result]').innerText(), /Showing 3 of/);
    // The same filter rendered by the server (reload, or no JavaScript).
    await page.reload();
    assert.equal(await page.getByLabel('Only vendors with incidents or maintenance').isChecked(), true);
    assert.equal(await visible.count(), 3);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('vendor page: status, components, incidents with updates, uptime bar, statistics within the plan', async () => {
    const { page, problems, context } = await newPage(browser, { baseURL: t.url });
    await page.goto('/');
    await page.locator('[data-vendor="github"] a').click();
    await page.waitForURL(/\/vendors\/github$/);
    assert.equal(await page.locator('h1').innerText(), 'GitHub');
    assert.match(await page.locator('[data-live-id="status"]').innerText(), /Partial System Outage/);
    const active = page.locator('[data-live-id="active"] article');
    assert.equal(await active.count(), 1);
    const activeText = await active.innerText();
    assert.match(activeText, /a fix is being deployed/);
    assert.match(activeText, /Affects: Actions, Pages/);
    assert.match(await page.locator('#components').innerText(), /Actions\s+Partial outage/);
    assert.equal(await page.locator('.uptime-bar > li').count(), 90);
    assert.ok((await page.locator('.uptime-bar__day--critical, .uptime-bar__day--major, .uptime-bar__day--minor').count()) >= 3);
    // Anonymous plan: 7 days of statistics; 30 and 90 days need a higher plan.
    const stats = page.locator('#statistics table');
    const incidentsRow = await stats.locator('tr', { hasText: 'Incidents' }).first().locator('td').allInnerTexts();
    assert.equal(incidentsRow[0], '2'); // the open one and the one resolved 4 days ago
    assert.match(incidentsRow[1]!, /Standard plan/);
    assert.match(incidentsRow[2]!, /Pro plan/);
    // Past incidents follow the plan window too (7 days: only past1).
    assert.equal(await page.locator('#history article').count(), 1);
    assert.match(await page.locator('#maintenance').innerText(), /Scheduled database maintenance/);
    await screenshot(page, 'vendor-github');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('vendor-supplied markup renders as text and never runs', async () => {
    const repos = createRepositories(t.store);
    const evil = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold</b>';
    await repos.incidents.upsert(
      incident('slack', 'xss', {
        title: `Messages delayed <img src=x onerror="window.__pwned = 3">`,
        updates: [{ status: 'investigating', body: evil, createdAt: new Date().toISOString() }],
        url: 'javascript:window.__pwned = 4',
      }),
      'f',
    );
    const { page, problems, context } = await newPage(browser, { baseURL: t.url });
    for (const path of ['/vendors/slack', '/']) {
      await page.goto(path);
      const article = page.locator('article[data-id="slack:xss"]');
      await article.locator('details > summary').evaluateAll((els) => els.forEach((e) => ((e.parentElement as HTMLDetailsElement).open = true)));
      const text = await article.innerText();
      assert.ok(text.includes('<script>window.__pwned = 1</script>'), 'the script tag is shown as text');
      assert.ok(text.includes('<img src=x onerror="window.__pwned = 3">'));
      assert.equal(await article.locator('script, img, b').count(), 0);
      assert.equal(await article.locator('a[href^="javascript:"]').count(), 0);
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    }
    assert.deepEqual(problems, []);
    await context.close();
    await repos.incidents.upsert(incident('slack', 'xss', { status: 'resolved' }), 'f');
  });

  test('phone width: no horizontal scrolling, navigation still reachable', async () => {
    const { page, problems, context } = await newPage(browser, { baseURL: t.url, width: 375, height: 740 });
    for (const [path, name] of [
      ['/', 'overview-phone'],
      ['/vendors/github', 'vendor-github-phone'],
      ['/signup', 'signup-phone'],
    ] as const) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `${path} scrolls sideways by ${overflow}px at 375px`);
      assert.ok(await page.getByRole('link', { name: 'Sign up' }).first().isVisible());
      await screenshot(page, name);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('keyboard: the first Tab reaches the skip link, which moves focus to the content', async () => {
    const { page, context } = await newPage(browser, { baseURL: t.url });
    await page.goto('/vendors/github');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main');
    await context.close();
  });

  test('without JavaScript the pages are complete and the overview filter still works (server-side)', async () => {
    const context = await browser.newContext({ baseURL: t.url, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    assert.match(await page.locator('[data-live-id="problems"]').innerText(), /Degraded performance for Actions and Pages/);
    await page.getByLabel('Category').selectOption('cdn-edge');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/category=cdn-edge/);
    const visible = page.locator('[data-vendor-grid] > li:not([hidden])');
    assert.ok((await visible.count()) >= 2);
    for (const c of await visible.all()) assert.equal(await c.getAttribute('data-category'), 'cdn-edge');
    await page.goto('/vendors/github');
    assert.equal(await page.locator('.uptime-bar > li').count(), 90);
    await context.close();
  });

  test('unknown vendor: an HTML 404 page', async () => {
    const { page, context } = await newPage(browser, { baseURL: t.url });
    const res = await page.goto('/vendors/no-such-vendor');
    assert.equal(res?.status(), 404);
    assert.match(await page.locator('h1').innerText(), /Not found/);
    assert.match(await page.locator('main').innerText(), /Unknown vendor 'no-such-vendor'/);
    await context.close();
  });
});
