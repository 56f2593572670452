// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { login, userWithKey, type TestUser } from '../../helpers/access.ts';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { startSmtp } from '../../helpers/receivers.ts';
import { seedDashboard } from '../../helpers/seed.ts';
import { violations } from '../../helpers/axe.ts';
import { launchBrowser, newPage, OPTIONAL_ENDPOINTS_MISSING, screenshot, unexpected } from '../../helpers/browser.ts';

// Watchlist and notification preferences edited in the browser, checked
// through the API with the user's key (what the alert pipeline will read).

describe('watchlist and notification preferences in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  before(async () => {
    // E-mail alerts can be switched on only where an SMTP server is configured.
    smtp = await startSmtp();
    t = await startApp({ env: { SMTP_URL: smtp.url } });
    await seedDashboard(t.store);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  /** A browser context logged in as a new user (cookies from the login endpoint). */
  async function signedIn(plan: 'free' | 'pro' = 'free'): Promise<{ u: TestUser; page: Page; context: BrowserContext; problems: string[] }> {
    const u = await userWithKey(t, plan);
    const cookieHeader = await login(t, u.email, u.password);
    const { page, context, problems } = await newPage(browser, { baseURL: t.url });
    await context.addCookies(
      cookieHeader.split('; ').map((c) => {
        const [name, value] = c.split('=') as [string, string];
        return { name, value, url: t.url };
      }),
    );
    return { u, page, context, problems };
  }

  const apiAs = (u: TestUser, path: string) => getJson(`${t.api}${path}`, { headers: { 'x-api-key': u.secret } });

  test('watchlist: filter, tick, save; persisted; the plan cap is explained; vendor pages add and remove', async () => {
    const { u, page, context, problems } = await signedIn('free');
    await page.goto('/account#watchlist');
    await page.getByLabel('Find a vendor').fill('git');
    const options = page.locator('#watch-options [data-watch-item]:not([hidden])');
    const names = await options.allInnerTexts();
    assert.ok(names.some((n) => n.includes('GitHub')) && names.every((n) => /git/i.test(n)), names.join(','));
    await page.getByLabel('GitHub', { exact: true }).check();
    await page.getByLabel('GitLab', { exact: true }).check();
    // The selection is listed above the catalog, each with a Remove button.
    const chosen = page.locator('[data-watch-selected] li');
    assert.deepEqual(
      (await chosen.allInnerTexts()).map((x) => x.replace(/\s*Remove.*$/s, '')),
      ['GitHub', 'GitLab'],
    );
    await page.getByLabel('Find a vendor').fill('cloudfl');
    await page.getByLabel('Cloudflare', { exact: true }).check();
    assert.equal(await chosen.count(), 3, 'a vendor ticked while searching is listed at once');
    await page.getByRole('button', { name: 'Remove Cloudflare' }).click();
    assert.equal(await page.getByLabel('Cloudflare', { exact: true }).isChecked(), false);
    assert.equal(await chosen.count(), 2);
    await page.getByRole('button', { name: 'Save watchlist' }).click();
    await page.locator('[data-watchlist-status]', { hasText: 'Watchlist saved: 2 vendors.' }).waitFor();
    assert.deepEqual((await apiAs(u, '/watchlist')).body.vendors.sort(), ['github', 'gitlab']);
    await page.reload();
    assert.equal(await page.locator('[data-watch-selected] li').count(), 2, 'listed from the server after a reload');
    assert.equal(await page.getByLabel('GitHub', { exact: true }).isChecked(), true);
    assert.equal(await page.locator('[data-watch-count]').innerText(), '2');

    // Over the Free cap: the save is refused with the reason, nothing changes.
    await page.getByLabel('Find a vendor').fill('');
    const boxes = page.locator('#watch-options input[name="vendors"]:not(:checked)');
    for (let i = 0; i < 9; i++) await boxes.first().check();
    assert.match(await page.locator('[data-watchlist-status]').innerText(), /allows 10 vendors; 11 are selected/);
    await page.getByRole('button', { name: 'Save watchlist' }).click();
    await page.locator('[data-watchlist-status].form-error', { hasText: '10' }).waitFor();
    assert.equal((await apiAs(u, '/watchlist')).body.count, 2);

    // Signed in, the overview is about the watchlist: headline, incidents, maintenance and
    // cards; the whole catalog is one link away.
    await page.goto('/');
    assert.equal(await page.locator('h1').innerText(), 'Your vendors');
    const cards = () => page.locator('[data-vendor-grid] > li:not([hidden])').evaluateAll((els) => els.map((e) => e.getAttribute('data-vendor')).sort());
    assert.deepEqual(await cards(), ['github', 'gitlab']);
    assert.match(await page.locator('[data-vendor="github"]').innerText(), /on your watchlist/);
    assert.match(await page.locator('.summary__headline').innerText(), /\b2 vendors\b|of 2 vendors/);
    const incidentVendors = await page.locator('[data-live-id="problems"] article').allInnerTexts();
    assert.ok(
      incidentVendors.some((x) => /GitHub/.test(x)),
      'GitHub’s incident is shown',
    );
    assert.ok(!incidentVendors.some((x) => /Cloudflare|Stripe/.test(x)), 'incidents of vendors not watched are not');
    await page.getByRole('link', { name: /^All vendors/ }).click();
    await page.waitForURL(/\?scope=all$/);
    assert.equal(await page.locator('h1').innerText(), 'Vendor status');
    assert.ok((await cards()).length > 50, 'the whole catalog');
    assert.ok((await page.locator('[data-live-id="problems"] article').allInnerTexts()).some((x) => /Cloudflare/.test(x)));
    await page.getByLabel('Search vendors').fill('git');
    assert.match(page.url(), /scope=all/, 'filtering keeps the scope');
    await page.getByRole('link', { name: /^Your watchlist/ }).click();
    assert.deepEqual(await cards(), ['github', 'gitlab']);

    // From a vendor page.
    await page.goto('/vendors/cloudflare');
    await page.getByRole('button', { name: 'Add to watchlist' }).click();
    await page.getByRole('button', { name: 'Remove from watchlist' }).waitFor();
    assert.deepEqual((await apiAs(u, '/watchlist')).body.vendors, ['github', 'gitlab', 'cloudflare']);
    await page.getByRole('button', { name: 'Remove from watchlist' }).click();
    await page.getByRole('button', { name: 'Add to watchlist' }).waitFor();
    assert.equal((await apiAs(u, '/watchlist')).body.count, 2);
    // The refused save, and the delivery log until alerts are deployed.
    assert.deepEqual(unexpected(problems, [/^http 403 PUT \/api\/v1\/infrastructure\/watchlist$/, ...OPTIONAL_ENDPOINTS_MISSING]), []);
    await context.close();
  });

  test('watchlist editor search: instant with JavaScript, a plain form without; keyboard only; axe-clean', async () => {
    const { u, page, context, problems } = await signedIn('pro');
    await t.app.services.watchlist.replace({ plan: 'pro', userId: u.userId, orgId: u.userId, role: 'owner', authKind: 'key', keyId: u.keyId }, [
      'github',
      'stripe',
    ]);
    const visible = (p: Page) => p.locator('#watch-options [data-watch-item]:not([hidden])').allInnerTexts();
    const chosen = async (p: Page) => (await p.locator('[data-watch-selected] li').allInnerTexts()).map((x) => x.replace(/\s*Remove.*$/s, '').trim()).sort();

    // With JavaScript: keyboard only; the list narrows as you type, Enter does not reload.
    await page.goto('/account#watchlist');
    assert.equal(await page.getByRole('button', { name: 'Find', exact: true }).isHidden(), true, 'the Find button is for pages without JavaScript');
    await page.getByLabel('Find a vendor').focus();
    await page.keyboard.type('amazon web');
    assert.deepEqual(
      (await visible(page)).map((x) => x.trim()),
      ['Amazon Web Services (AWS)'],
    );
    await page.keyboard.press('Enter');
    assert.equal(page.url(), `${t.url}/account#watchlist`, 'no reload');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    assert.equal(await page.getByLabel('Amazon Web Services (AWS)', { exact: true }).isChecked(), true);
    assert.deepEqual(await chosen(page), ['Amazon Web Services (AWS)', 'GitHub', 'Stripe']);
    await page.getByRole('button', { name: 'Remove Amazon Web Services (AWS)' }).focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await chosen(page), ['GitHub', 'Stripe']);
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(unexpected(problems, OPTIONAL_ENDPOINTS_MISSING), []);

    // Without JavaScript (the same browser session): "Find" sends a GET form the server applies.
    const plain = await browser.newContext({ baseURL: t.url, javaScriptEnabled: false, storageState: await context.storageState() });
    await context.close();
    const noJs = await plain.newPage();
    await noJs.goto('/account#watchlist');
    await noJs.getByLabel('Find a vendor').fill('pypi');
    await noJs.getByRole('button', { name: 'Find', exact: true }).click();
    await noJs.waitForURL(/\/account\?find=pypi#watchlist$/);
    assert.deepEqual(
      (await visible(noJs)).map((x) => x.trim()),
      ['Python Package Index (PyPI)'],
    );
    assert.equal(await noJs.getByLabel('Find a vendor').inputValue(), 'pypi');
    assert.deepEqual(await chosen(noJs), ['GitHub', 'Stripe'], 'the selection is listed whatever the search');
    assert.equal(await noJs.locator('.watch-group:not([hidden])').count(), 1, 'categories without a match are hidden');
    await plain.close();
  });

  test('preferences: channels saved and persisted; the webhook secret is shown once; errors sit next to their field', async () => {
    const { u, page, context } = await signedIn('pro');
    await page.goto('/account#notifications');
    await page.getByLabel('Send alerts by e-mail').check();
    await page.getByLabel('How often').selectOption('daily');
    await page.getByLabel('Post alerts to a webhook').check();
    await page.getByLabel('Webhook URL').fill('http://127.0.0.1:9/hook');
    await page.getByRole('button', { name: 'Save notification settings' }).click();
    const urlError = page.locator('[data-field-error="webhook.url"]');
    await urlError.waitFor({ state: 'visible' });
    assert.match(await urlError.innerText(), /webhook\.url/);
    assert.equal(await page.getByLabel('Webhook URL').getAttribute('aria-invalid'), 'true');
    assert.equal((await apiAs(u, '/notification-preferences')).body.preferences.email.enabled, false, 'nothing saved');

    await page.getByLabel('Webhook URL').fill('https://hooks.example.com/vendor-status');
    await page.getByLabel('Lowest incident impact').selectOption('major');
    await page.getByLabel('Muted vendors').fill('zoom, slack');
    await page.getByLabel('Incident updated').uncheck();
    await page.getByRole('button', { name: 'Save notification settings' }).click();
    await page.locator('[data-preferences-status]', { hasText: 'Saved' }).waitFor();
    const secret = (await page.locator('#webhook-secret-once').innerText()).trim();
    assert.match(secret, /^whsec_/);

    const saved = (await apiAs(u, '/notification-preferences')).body.preferences;
    assert.equal(saved.email.enabled, true);
    assert.equal(saved.email.digest, 'daily');
    assert.equal(saved.webhook.enabled, true);
    assert.equal(saved.webhook.url, 'https://hooks.example.com/vendor-status');
    assert.equal(saved.webhook.secret, `****${secret.slice(-4)}`);
    assert.equal(saved.content_filters.min_impact, 'major');
    assert.ok(!saved.content_filters.event_types.includes('incident.updated'));
    assert.deepEqual(saved.muted_vendors, ['zoom', 'slack']);

    await page.reload();
    assert.equal(await page.getByLabel('Send alerts by e-mail').isChecked(), true);
    assert.equal(await page.getByLabel('How often').inputValue(), 'daily');
    assert.equal(await page.getByLabel('Webhook URL').inputValue(), 'https://hooks.example.com/vendor-status');
    assert.equal(await page.getByLabel('Incident updated').isChecked(), false);
    assert.ok(!(await page.content()).includes(secret), 'the secret is not shown again');
    assert.equal(await page.locator('[data-webhook-secret]').innerText(), `****${secret.slice(-4)}`);

    // Send test and the delivery log answer something meaningful whether or not alerts are deployed.
    await page.getByRole('button', { name: 'Send test e-mail' }).click();
    const result = page.locator('[data-test-result="email"]');
    await result.waitFor({ state: 'visible' });
    assert.ok((await result.innerText()).length > 5);
    await page.locator('[data-deliveries] p, [data-deliveries] table').first().waitFor();
    assert.doesNotMatch(await page.locator('[data-deliveries]').innerText(), /Loading/);
    await screenshot(page, 'account-notifications');
    await context.close();
  });

  test('personal feed: switched on, full address shown once, masked afterwards', async () => {
    const { u, page, context } = await signedIn('free');
    await page.goto('/account#feed');
    await page.getByRole('button', { name: 'Turn on my feed' }).click();
    const once = page.locator('#feed-url-once');
    await once.waitFor({ state: 'visible' });
    const url = (await once.innerText()).trim();
    assert.match(url, new RegExp(`^${t.url.replace(/[.]/g, '\\.')}/api/v1/feeds/[A-Za-z0-9_-]{20,}\\.rss$`));
    // The panel now says what a reload would say: on, with the masked full address, and no "off" text.
    await page.locator('[data-feed-on]').waitFor({ state: 'visible' });
    assert.equal(await page.locator('[data-feed-off]').isVisible(), false);
    assert.equal(await page.getByRole('button', { name: 'Turn on my feed' }).isVisible(), false);
    assert.match(await page.locator('[data-feed-url]').innerText(), new RegExp(`^${t.url.replace(/[.]/g, '\\.')}/api/v1/feeds/\\*\\*\\*\\*`));
    await page.getByRole('button', { name: 'Create a new feed address' }).waitFor({ state: 'visible' });
    const saved = (await apiAs(u, '/notification-preferences')).body.preferences.rss;
    assert.equal(saved.enabled, true);
    assert.match(saved.feed_url, /\*\*\*\*/);
    await page.reload();
    assert.ok(!(await page.content()).includes(new URL(url).pathname));
    // A full address (a feed reader needs the origin), the secret part masked.
    assert.match(await page.locator('[data-feed-url]').innerText(), new RegExp(`^${t.url.replace(/[.]/g, '\\.')}/api/v1/feeds/\\*\\*\\*\\*`));
    assert.equal(await page.locator('[data-feed-off]').isVisible(), false);
    await context.close();
  });
});
