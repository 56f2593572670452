import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { login, userWithKey } from '../helpers/access.ts';
import { createRepositories } from '../../src/services/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser, newPage, screenshot, screenshotOf } from '../helpers/browser.ts';
import { incident, maintenance } from '../helpers/records.ts';
import { seedDashboard } from '../helpers/seed.ts';

// The overview's columns, the trend charts, search and comparison in a real
// browser, at desktop and phone width (docs/web.md).

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

async function noSidewaysScroll(page: Page, path: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `${path}: scrolls sideways by ${overflow}px`);
}

describe('overview columns, charts, search and comparison in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  before(async () => {
    t = await startApp();
    await seedDashboard(t.store);
    const r = createRepositories(t.store);
    // Many maintenance windows, stored in no particular order.
    const vendors = ['amazon-web-services', 'microsoft-azure', 'slack', 'zoom', 'okta', 'datadog', 'heroku', 'vercel', 'netlify', 'fastly', 'twilio', 'sentry'];
    for (const [k, v] of vendors.entries()) {
      const inHours = ((k * 7) % vendors.length) + 3;
      await r.maintenances.upsert(maintenance(v, `w${k}`, { title: `Window ${v}`, scheduledFor: ago(-inHours * HOUR) }), 'f');
    }
    for (const [k, v] of vendors.slice(0, 8).entries()) {
      await r.maintenances.upsert(
        maintenance(v, `now${k}`, { title: `Ongoing ${v}`, status: 'in_progress', scheduledFor: ago((k + 1) * HOUR), startedAt: ago((k + 1) * HOUR) }),
        'f',
      );
    }
    // A page that still says "operational" while the vendor lists an open incident.
    await r.status.setStatus('slack', { indicator: 'operational', description: 'All Systems Operational', checkedAt: ago(60_000) });
    await r.incidents.upsert(incident('slack', 'open', { title: 'Messages delayed 100% of the time', impact: 'minor', components: ['Messaging'] }), 'f');
    await r.incidents.upsert(
      incident('slack', 'old', { title: 'Login_failures for some', impact: 'major', status: 'resolved', startedAt: ago(3 * DAY), components: ['Login'] }),
      'f',
    );
    // GitHub observed for the last 25 days: older weeks have no data; more than a quarter of the
    // 90 days the component uptime covers, so it has figures (docs/statistics.md "Minimum observed share").
    await t.store.db
      .updateTable('sources')
      .set({ first_success_at: ago(25 * DAY), last_success_at: ago(60_000) })
      .where('vendor', '=', 'github')
      .execute();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('overview: long columns fold, upcoming maintenance soonest first, cards agree with open incidents', async () => {
    const { page, problems, context } = await newPage(browser, { baseURL: t.url });
    await page.goto('/');
    const maint = page.locator('[data-live-id="maintenance"]');
    const more = maint.locator('details[data-show-more]');
    assert.equal(await more.count(), 2, 'both lists fold');
    assert.match(await more.nth(1).locator('summary').innerText(), /Show 8 more upcoming/);
    assert.equal(await more.nth(1).locator('article').first().isVisible(), false);
    // The vendor grid is not pushed far down by the column.
    const gridTop = await page.locator('#vendors-title').evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    assert.ok(gridTop < 2600, `vendor grid starts at ${gridTop}px`);
    // Soonest first, across the shown and the folded part.
    const upcoming = maint.locator('h3:has-text("Upcoming") ~ * article time:first-of-type');
    const times = (await upcoming.evaluateAll((els) => els.map((e) => e.getAttribute('datetime')!))).map(Date.parse);
    assert.equal(times.length, 13);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );
    await more.nth(1).locator('summary').click();
    assert.equal(await more.nth(1).locator('article').first().isVisible(), true);
    // The card never says "Operational" beside an open incident.
    const slack = page.locator('[data-vendor="slack"]');
    assert.match(await slack.innerText(), /1 active incident/);
    assert.doesNotMatch(await slack.locator('.pill').innerText(), /Operational/);
    for (const card of await page.locator('[data-vendor-grid] > li').all()) {
      const text = await card.innerText();
      if (/active incident/.test(text)) assert.doesNotMatch(await card.locator('.pill').first().innerText(), /Operational/, text);
    }
    await screenshot(page, 'overview-folded');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('vendor page: incidents and MTTR per week and uptime per component, no figure where nothing was observed', async () => {
    const { page, problems, context } = await newPage(browser, { baseURL: t.url });
    await page.goto('/vendors/github');
    const trends = page.locator('#trends');
    await trends.scrollIntoViewIfNeeded();
    await screenshot(page, 'vendor-page');
    await screenshotOf(trends, 'vendor-trends');
    assert.equal(await trends.locator('svg[role="img"]').count(), 3);
    const weeks = trends.locator('#chart-incidents .chart__bars');
    // 12 weekly slots: bars where observed or an incident is known, dashed outlines before observation.
    const bars = await weeks.locator('rect.chart__bar').count();
    const gaps = (
      await trends.locator('#chart-incidents rect[data-nodata="unobserved"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-slots'))))
    ).reduce((a, b) => a + b, 0);
    assert.equal(bars + gaps, 12);
    assert.ok(gaps >= 7, `${gaps} unobserved weeks`);
    const total = (await weeks.locator('rect.chart__bar').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))))).reduce(
      (a, b) => a + b,
      0,
    );
    assert.equal(total, 7, 'the seeded incidents, each in its week');
    // Anonymous: MTTR outside the 7-day window is not shown.
    const locked = await trends.locator('#chart-mttr rect[data-nodata="locked"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-slots'))));
    // The weeks before the plan window are one zone, labelled with the plan that shows them.
    assert.ok(locked[0]! >= 10, `${locked[0]} weeks before the plan window`);
    assert.match((await trends.locator('#chart-mttr .chart__zone-label').first().textContent()) ?? '', /Pro plan/);
    // Components: observed, so each has a dot; the table has the numbers.
    assert.equal(await trends.locator('#chart-components circle.chart__dot').count(), 4);
    await trends.locator('#chart-components summary').click();
    assert.match(await trends.locator('#chart-components table').innerText(), /Actions\s+99\.\d+%/);
    // Filters reach the search page.
    await page.getByLabel('Impact').selectOption('critical');
    await page.getByRole('button', { name: 'Filter incidents' }).click();
    await page.waitForURL(/\/search\?vendor=github&impact=critical/);
    assert.match(await page.locator('[role="status"]').first().innerText(), /0 vendors and 0 incidents/);
    await screenshot(page, 'vendor-incident-filter');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('search: vendor names, incident titles and components; filters; LIKE characters match literally', async () => {
    const { page, problems, context } = await newPage(browser, { baseURL: t.url });
    await page.goto('/');
    await page.getByRole('link', { name: 'Search' }).click();
    await page.getByLabel('Search vendors and incidents').fill('slack');
    await page.getByRole('button', { name: 'Search' }).click();
    assert.match(await page.locator('[aria-labelledby="found-vendors"]').innerText(), /Slack/);
    // By component name.
    await page.goto('/search?q=messaging');
    assert.match(await page.locator('[aria-labelledby="found-incidents"]').innerText(), /Messages delayed/);
    // `%` and `_` are literal characters, not wildcards.
    await page.goto('/search?q=100%25');
    assert.equal(await page.locator('[aria-labelledby="found-incidents"] article').count(), 1);
    for (const wildcard of ['login%25failures', 'logi_']) {
      await page.goto(`/search?q=${wildcard}`);
      assert.equal(await page.locator('[aria-labelledby="found-incidents"] article').count(), 0, wildcard);
    }
    await page.goto('/search?q=login_failures');
    assert.equal(await page.locator('[aria-labelledby="found-incidents"] article').count(), 1);
    // Impact and component filters.
    await page.goto('/search?vendor=github&impact=critical');
    assert.equal(await page.locator('[aria-labelledby="found-incidents"] article').count(), 0, 'critical ones are older than the 7-day window');
    await page.goto('/search?vendor=github&component=Actions');
    assert.match(await page.locator('[aria-labelledby="found-incidents"]').innerText(), /Degraded performance for Actions/);
    await page.goto('/search?q=<script>alert(1)</script>');
    assert.match(await page.locator('#search-q').inputValue(), /<script>/);
    const bad = await fetch(`${t.url}/search?impact=huge`);
    assert.equal(bad.status, 400);
    await screenshot(page, 'search');
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('compare: named vendors, and the watchlist of a signed-in user', async () => {
    const { page, problems, context } = await newPage(browser, { baseURL: t.url });
    await page.goto('/compare?vendors=github,cloudflare,stripe');
    assert.equal(await page.locator('svg[role="img"]').count(), 3);
    // Incidents in the anonymous 7-day window: GitHub's open one and one resolved 4 days ago, Cloudflare's open one, none for Stripe.
    const counts = await page.locator('#compare-incidents rect.chart__bar').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
    assert.deepEqual(counts, [2, 1, 0]);
    // Never-observed vendors have no uptime dot.
    assert.equal(await page.locator('#compare-uptime circle.chart__dot').count(), 1, 'only github was observed');
    assert.equal(await page.locator('#compare-uptime rect[data-nodata="unobserved"]').count(), 2);
    await screenshot(page, 'compare');
    await context.close();

    const u = await userWithKey(t, 'standard');
    await fetch(`${t.api}/watchlist`, {
      method: 'PUT',
      headers: { 'x-api-key': u.secret, 'content-type': 'application/json' },
      body: JSON.stringify({ vendors: ['github', 'slack'] }),
    });
    const cookie = await login(t, u.email, u.password);
    const signed = await newPage(browser, { baseURL: t.url });
    await signed.context.addCookies(
      cookie.split('; ').map((c) => {
        const [name, value] = c.split('=') as [string, string];
        return { name, value, url: t.url };
      }),
    );
    await signed.page.goto('/compare');
    assert.match(await signed.page.locator('main').innerText(), /on your watchlist/);
    assert.deepEqual(await signed.page.locator('#compare-incidents .chart__label').allTextContents(), ['GitHub', 'Slack']);
    assert.deepEqual(signed.problems, []);
    assert.deepEqual(problems, []);
    await signed.context.close();
  });

  test('the new pages fit a 390 px phone without sideways scrolling', async () => {
    const { page, problems, context } = await newPage(browser, { baseURL: t.url, width: 390, height: 844 });
    for (const [path, name] of [
      ['/', 'phone-overview'],
      ['/vendors/github#trends', 'phone-vendor-trends'],
      ['/search?q=error', 'phone-search'],
      ['/compare?vendors=github,cloudflare,stripe', 'phone-compare'],
    ] as const) {
      await page.goto(path);
      await noSidewaysScroll(page, path);
      await screenshot(page, name);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
});
