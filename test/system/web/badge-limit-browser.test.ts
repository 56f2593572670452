import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startApp, UNLIMITED_RATE_LIMITS, type TestApp } from '../../helpers/app.ts';
import { launchBrowser, newPage } from '../../helpers/browser.ts';
import { seedDashboard } from '../../helpers/seed.ts';

// A README's badge over the per-address limit, as a browser shows it: an `<img>` of the
// badge still draws a picture ("rate limited"), not a broken image (docs/integrations.md,
// "Badges").

describe('a badge image over the limit in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  before(async () => {
    const limits = { ...JSON.parse(UNLIMITED_RATE_LIMITS), anonymous: { perMinute: 2, perDay: 100 } };
    t = await startApp({ env: { RATE_LIMITS: JSON.stringify(limits) } });
    await seedDashboard(t.store);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('the image still loads and reads "rate limited"', async () => {
    // The address's minute is spent (the browser comes from the same address).
    for (let i = 0; i < 3; i++) await (await fetch(`${t.url}/badges/cloudflare.svg`)).arrayBuffer();
    const { page, context } = await newPage(browser, { baseURL: t.url });
    const answers: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/badges/')) answers.push(r.status());
    });
    await page.setContent(`<!doctype html><title>README</title><img id="b" alt="status" src="${t.url}/badges/cloudflare.svg">`);
    const img = page.locator('#b');
    await page.waitForFunction(() => (document.getElementById('b') as HTMLImageElement).complete);
    const size = await img.evaluate((el: HTMLImageElement) => ({ w: el.naturalWidth, h: el.naturalHeight }));
    assert.ok(size.w > 40 && size.h > 10, `an image was drawn (${size.w}×${size.h}), not a broken one`);
    assert.deepEqual(answers, [429], 'the badge was over the limit');
    await context.close();
  });
});
