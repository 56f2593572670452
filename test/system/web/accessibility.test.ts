// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { login, userWithKey } from '../../helpers/access.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { violations } from '../../helpers/axe.ts';
import { launchBrowser, newPage } from '../../helpers/browser.ts';
import { seedDashboard } from '../../helpers/seed.ts';

// Automated WCAG 2.1 A/AA checks (axe-core, test/helpers/axe.ts) of every page, desktop
// and phone width. The MCP sign-in and consent pages are checked in mcp-oauth-browser.test.ts.

describe('accessibility (axe-core, WCAG 2.1 AA)', () => {
  let t: TestApp;
  let browser: Browser;
  let boardPath: string;
  before(async () => {
    t = await startApp();
    await seedDashboard(t.store);
    // A public status board (docs/boards.md) of a user's watchlist.
    const owner = await userWithKey(t, 'pro', 'board');
    const viewer = { plan: 'pro', userId: owner.userId, orgId: owner.userId, role: 'owner', authKind: 'key', keyId: owner.keyId } as const;
    await t.app.services.watchlist.replace(viewer, ['github', 'stripe']);
    boardPath = (await t.app.services.boards.create(viewer, {})).path;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('the check itself catches a violation', async () => {
    const { page, context } = await newPage(browser, { baseURL: t.url });
    await page.goto('/');
    await page.evaluate(() => {
      const input = document.createElement('input');
      document.querySelector('main')!.append(input);
    });
    assert.ok((await violations(page)).some((v) => v.startsWith('label ')));
    await context.close();
  });

  for (const width of [1280, 375]) {
    test(`public pages at ${width}px`, async () => {
      const { page, context } = await newPage(browser, { baseURL: t.url, width });
      for (const path of [
        '/',
        '/vendors/github',
        '/vendors/stripe',
        '/signup',
        '/login',
        '/vendors/nope',
        '/search?q=error',
        '/search?vendor=github&impact=major',
        '/compare?vendors=github,cloudflare,stripe',
        boardPath,
      ]) {
        await page.goto(path);
        assert.deepEqual(await violations(page), [], path);
      }
      await context.close();
    });

    test(`account area at ${width}px`, async () => {
      const u = await userWithKey(t, 'pro');
      const cookie = await login(t, u.email, u.password);
      const { page, context } = await newPage(browser, { baseURL: t.url, width });
      await context.addCookies(
        cookie.split('; ').map((c) => {
          const [name, value] = c.split('=') as [string, string];
          return { name, value, url: t.url };
        }),
      );
      await page.goto('/account');
      await page.locator('[data-deliveries] p, [data-deliveries] table').first().waitFor();
      // With the one-time secret panel open too.
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.locator('[data-new-key-secret]').waitFor({ state: 'visible' });
      assert.deepEqual(await violations(page), [], '/account');
      await context.close();
    });
  }
});
