import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createRepositories } from '../../src/services/index.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser, newPage } from '../helpers/browser.ts';
import { incident } from '../helpers/records.ts';
import { seedDashboard } from '../helpers/seed.ts';

// Open pages follow changes without a reload. Without the event stream the
// live module polls the page's partial every minute; the browser clock is
// fast-forwarded instead of waiting.

describe('live updates of open pages', () => {
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

  test('without the stream: a new incident appears on the open overview and vendor page at the next poll', async (ctx) => {
    const hasStream = t.app.hasRoute({ method: 'GET', url: '/api/v1/infrastructure/incidents/stream' });
    if (hasStream) return ctx.skip('the event stream exists; covered by the stream test below');
    const repos = createRepositories(t.store);
    const { page, context, problems } = await newPage(browser, { baseURL: t.url });
    await page.clock.install();
    await page.goto('/');
    assert.match(await page.locator('[data-live-status]').innerText(), /refreshing every minute/);
    await page.getByLabel('Search vendors').fill('net');
    const netlifyCard = page.locator('[data-vendor="netlify"]');
    assert.doesNotMatch(await netlifyCard.innerText(), /active incident/);
    await repos.incidents.upsert(incident('netlify', 'live', { title: 'Builds are delayed', impact: 'major' }), 'f');
    await page.clock.fastForward('01:01');
    await page.locator('[data-live-id="problems"] article[data-id="netlify:live"]').waitFor();
    assert.match(await page.locator('[data-live-id="problems"]').innerText(), /Netlify: Builds are delayed/);
    assert.match(await netlifyCard.innerText(), /1 active incident/);
    assert.equal(await netlifyCard.isVisible(), true, 'the filter still applies to the swapped card');
    assert.equal(await page.locator('[data-vendor="github"]').isHidden(), true);

    await page.goto('/vendors/netlify');
    await repos.incidents.upsert(incident('netlify', 'live', { title: 'Builds are delayed', impact: 'major', status: 'resolved' }), 'f');
    await page.clock.fastForward('01:01');
    await page.locator('[data-live-id="active"]', { hasText: 'No active incidents' }).waitFor();
    assert.deepEqual(problems, []);
    await context.close();
  });
});
