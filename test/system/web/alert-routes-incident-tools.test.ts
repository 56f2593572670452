// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { uniqueEmail } from '../../helpers/access.ts';
import { violations } from '../../helpers/axe.ts';
import { launchBrowser, newPage } from '../../helpers/browser.ts';
import { startToolFakes, type ToolFakes } from '../../helpers/incident-tool-fakes.ts';

// A team adds incident-tool and own-status-page destinations on the alert routes page in a
// real browser (docs/alert-routes.md "Destinations", "Our own status page"): each is listed
// with its secret masked, the secret is nowhere in the page, and a test send reaches the fake.

const GRAFANA_TOKEN = 'glsa_BrowserServiceAccountToken_9z8y7x6w';
const SP_KEY = 'browser-statuspage-key-5a4b3c2d1e';

describe('incident tool destinations on the alert routes page', () => {
  let t: TestApp;
  let browser: Browser;
  let fx: ToolFakes;
  before(async () => {
    fx = await startToolFakes({
      grafanaToken: GRAFANA_TOKEN,
      serviceNow: { user: 'x', password: 'x' },
      fireHydrantToken: 'x',
      rootlyKey: 'x',
      statuspageKey: SP_KEY,
      instatusKey: 'x',
    });
    t = await startApp({ env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1', STATUSPAGE_API_URL: `${fx.rx.url}/statuspage` } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await fx?.close();
  });

  test('a Grafana and an own-Statuspage route are added, listed masked, and tested', async () => {
    fx.pageComponents.set('pgbrowser1/cmpactions', 'operational');
    const { page } = await newPage(browser, { baseURL: t.url, width: 1280, height: 900 });
    await page.goto('/signup');
    await page.getByLabel('Email').fill(uniqueEmail('tools-owner'));
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/account/);
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByLabel('New team organisation').fill('Tools team');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/team\?done=created$/);
    await page.getByRole('link', { name: 'Alert routes' }).click();
    await page.waitForURL(/\/team\/routes$/);

    await page.getByLabel('Name').fill('Grafana ops');
    await page.getByLabel('Channel').selectOption('grafana');
    await page.getByLabel('Destination').fill(`${fx.rx.url}/grafana`);
    await page.getByLabel('Token or password').fill(GRAFANA_TOKEN);
    await page.getByLabel('Grafana dashboard UID').fill('ops-overview');
    await page.getByRole('button', { name: 'Add route' }).click();
    await page.waitForURL(/done=added/);
    const grafana = await page.locator('[data-route="Grafana ops"]').innerText();
    assert.match(grafana, new RegExp(`\\*\\*\\*\\*${GRAFANA_TOKEN.slice(-4)}`), grafana);

    // A mapping line that does not parse is refused next to the form.
    await page.getByLabel('Name').fill('Our page');
    await page.getByLabel('Channel').selectOption('statuspage');
    await page.getByLabel('Destination').fill(SP_KEY);
    await page.getByLabel('Status page id').fill('pgbrowser1');
    await page.getByLabel('Component mapping').fill('github Actions cmpactions');
    await page.getByRole('button', { name: 'Add route' }).click();
    assert.match(await page.locator('[data-routes-notice]').innerText(), /vendor: component -> page component id/);

    await page.getByLabel('Name').fill('Our page');
    await page.getByLabel('Channel').selectOption('statuspage');
    await page.getByLabel('Destination').fill(SP_KEY);
    await page.getByLabel('Status page id').fill('pgbrowser1');
    await page.getByLabel('Component mapping').fill('github: Actions -> cmpactions');
    await page.getByRole('button', { name: 'Add route' }).click();
    await page.waitForURL(/done=added/);
    const ours = await page.locator('[data-route="Our page"]').innerText();
    assert.match(ours, /page pgbrowser1/);
    assert.match(ours, new RegExp(`key \\*\\*\\*\\*${SP_KEY.slice(-4)}`));
    assert.match(ours, /1 mapped component/);

    const html = await page.content();
    for (const secret of [GRAFANA_TOKEN, SP_KEY]) assert.ok(!html.includes(secret), `${secret.slice(0, 8)}… is not in the page`);
    assert.deepEqual(await violations(page), [], 'axe');

    // The test send of the status page route only reads the mapped component.
    await page.getByRole('button', { name: 'Send a test alert through Our page' }).click();
    assert.match(await page.locator('[data-routes-notice]').innerText(), /Test alert delivered/);
    const calls = fx.rx.requests.filter((r) => r.path.startsWith('/statuspage/'));
    assert.deepEqual(
      calls.map((r) => `${r.method} ${r.path}`),
      ['GET /statuspage/v1/pages/pgbrowser1/components/cmpactions'],
    );
    assert.equal(calls[0]!.headers.authorization, `OAuth ${SP_KEY}`);
    assert.equal(fx.pageComponents.get('pgbrowser1/cmpactions'), 'operational');
  });
});
