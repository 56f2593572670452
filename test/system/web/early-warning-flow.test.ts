// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { signatureOf } from '../../../src/domain/early-warning-signing.ts';
import { uniqueEmail } from '../../helpers/access.ts';
import { emit, incident } from '../../helpers/alerts.ts';
import { startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { violations } from '../../helpers/axe.ts';
import { launchBrowser, newPage } from '../../helpers/browser.ts';

// A team's early warning in a real browser (docs/early-warning.md, docs/web.md "Team"):
// the signing secret made from the page and shown once, masked after a reload; a member's
// report from the page that, agreeing with a signed call of the team's systems, opens a
// signal shown with its state, confidence and evidence; a false alarm dismissed from the
// keyboard; then the vendor page's own figures and the ranking, ordered by lead time.
// Axe-clean and without sideways scrolling at phone and desktop width; the browser sets its own headers.

async function fits(page: Page, what: string) {
  assert.deepEqual(await violations(page), [], `${what}: axe`);
  const sideways = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
  assert.ok(sideways <= 0, `${what}: scrolls sideways by ${sideways}px`);
}

describe('early-warning page in a real browser', () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let browser: Browser;
  let msg = 0;
  before(async () => {
    t = await startApp({ clock, env: { DELIVER: 'off' } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** What the team's own monitor sends: a signed inbound observation. */
  async function inbound(orgId: string, secret: string, vendor: string) {
    const raw = JSON.stringify({ vendor, severity: 'major', summary: `${vendor} 5xx from our checkout` });
    const id = `msg_browser_${++msg}`;
    const ts = Math.floor(clock.now().getTime() / 1000);
    const r = await fetch(`${t.url}/api/v1/orgs/${orgId}/signals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': signatureOf(secret, id, ts, raw) },
      body: raw,
    });
    assert.equal(r.status, 202);
  }

  async function report(page: Page, vendor: string) {
    await page.getByLabel('Vendor', { exact: true }).fill(vendor);
    await page.getByLabel('What you see (optional)').fill(`${vendor} checkouts time out`);
    await page.getByRole('button', { name: 'Report a problem' }).click();
    await page.waitForURL(/done=opened/);
  }

  test('secret shown once, report opens a signal, dismiss from the keyboard, figures and ranking', async () => {
    const { page, problems } = await newPage(browser, { baseURL: t.url, width: 375, height: 800 });
    await page.goto('/signup');
    await page.getByLabel('Email').fill(uniqueEmail('ew-owner'));
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/account/);
    await page.getByRole('link', { name: 'Team' }).click();
    await page.getByLabel('New team organisation').fill('Early team');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/team\?done=created$/);
    await page.getByRole('link', { name: 'Early warning' }).click();
    await page.waitForURL(/\/team\/early-warning$/);
    assert.match(await page.locator('[data-open-signals]').innerText(), /No open signal/);
    assert.match(await page.locator('[data-secret-status]').innerText(), /No signing secret yet/);
    await fits(page, 'early warning, empty');

    // The secret: shown once on the answer, masked after.
    await page.getByRole('button', { name: 'Make a signing secret' }).click();
    const secret = (await page.locator('[data-new-signal-secret]').innerText()).trim();
    assert.match(secret, /^whsec_/);
    await fits(page, 'early warning, new secret shown');
    await page.goto('/team/early-warning');
    const body = await page.locator('main').innerText();
    assert.ok(!body.includes(secret.slice(6)), 'not shown again');
    // A literal match: the secret's last four characters may include '+' or '/'.
    const status = await page.locator('[data-secret-status]').innerText();
    assert.ok(status.includes(`****${secret.slice(-4)}`), status);

    const orgId = (await t.store.db.selectFrom('organisations').select('id').where('name', '=', 'Early team').executeTakeFirstOrThrow()).id;
    // Stripe: our monitor and a member agree; the signal opens.
    await inbound(orgId, secret, 'stripe');
    await report(page, 'stripe');
    // GitHub too, to be dismissed as a false alarm.
    await inbound(orgId, secret, 'github');
    await report(page, 'github');
    const open = page.locator('[data-open-signals] [data-signal-state="suspected"]');
    assert.equal(await open.count(), 2);
    const gh = page.locator('[data-signal]', { has: page.getByRole('link', { name: 'GitHub', exact: true }) });
    assert.match(await gh.innerText(), /Suspected by your team \(not confirmed by the vendor\)/);
    assert.match(await gh.innerText(), /Confidence 85%/);
    // The evidence opens from the keyboard.
    await gh.locator('summary').focus();
    await page.keyboard.press('Enter');
    const evidence = await gh.locator('[data-signal-evidence]').innerText();
    assert.match(evidence, /Inbound, strength 0\.70/);
    assert.match(evidence, /Report, strength 0\.50, .*github checkouts time out/);
    await fits(page, 'early warning, two open signals');

    // Dismissed from the keyboard: the reason typed, Enter submits.
    await gh.getByLabel('Reason (optional)').focus();
    await page.keyboard.type('our own proxy failed');
    await page.keyboard.press('Enter');
    await page.waitForURL(/done=dismissed/);
    const dismissed = page.locator('[data-recent-signals] [data-signal-state="dismissed"]');
    assert.equal(await dismissed.count(), 1);
    assert.match(await dismissed.innerText(), /Dismissed as a false alarm/);

    // Stripe posts 7 minutes after our signal.
    clock.advance(7 * 60_000);
    const at = clock.now().toISOString();
    await emit(t, 'incident.created', { ...incident('stripe', { id: 'stripe-browser-1' }), startedAt: at }, at);
    assert.equal((await t.app.earlyWarning.runOnce()).confirmed, 1);
    await page.goto('/vendors/stripe');
    const panel = page.locator('[data-transparency]');
    assert.match(await panel.locator('[data-figure="lead"]').innerText(), /^7 min median \(p90 7 min, 7 min–7 min, 1 outage\)$/);
    assert.match(await panel.locator('[data-figure="resolve"]').innerText(), /Unknown: no incident that confirmed a signal is resolved yet/);
    await fits(page, 'vendor page with the team figures');

    await panel.getByRole('link', { name: 'All vendors ranked' }).click();
    await page.waitForURL(/\/team\/early-warning\/transparency$/);
    const rows = page.locator('[data-ranking] tbody tr');
    assert.deepEqual(await rows.evaluateAll((r) => r.map((x) => x.getAttribute('data-rank-vendor'))), ['stripe', 'github']);
    assert.match(await page.locator('[data-rank-vendor="github"]').innerText(), /Unknown: none of 1 signals/);
    await fits(page, 'ranking');
    await page.getByRole('link', { name: 'unposted outages' }).click();
    await page.waitForURL(/order=unposted/);
    assert.equal(await rows.count(), 2);
    // The same pages at desktop width.
    await page.setViewportSize({ width: 1280, height: 900 });
    await fits(page, 'ranking at 1280 px');
    await page.goto('/team/early-warning');
    await fits(page, 'early warning at 1280 px');
    assert.deepEqual(problems, []);

    // A visitor sees neither the figures nor the page.
    const visitor = await newPage(browser, { baseURL: t.url, width: 1280 });
    await visitor.page.goto('/vendors/stripe');
    assert.equal(await visitor.page.locator('[data-transparency]').count(), 0);
    await visitor.page.goto('/team/early-warning');
    assert.match(visitor.page.url(), /\/login\?next=/);
  });
});
