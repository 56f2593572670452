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
// edited from the keyboard (owner route, criticality, tags, a dependency made soft with a
// region) and the change seen in the list, on the overview's "Our services" first, then
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
    await t.repos.status.replaceComponents(
      'github',
      [{ id: 'cmp-actions', name: 'Actions', status: 'partial_outage', group: null, position: 1 }],
      new Date().toISOString(),
    );
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

    // The overview starts with "Our services" for a signed-in member.
    await page.goto('/');
    const ours = page.locator('[data-our-services-now]');
    assert.match(await ours.innerText(), /1 of 1 service hit now/);
    assert.match(await ours.locator('[data-impact-service="checkout-api"]').innerText(), /component 'Actions' listed/);
    const firstSection = await page.locator('main section').first().getAttribute('aria-labelledby');
    assert.equal(firstSection, 'ours-title', '"Our services" is the first section');
    await fits(page, 'overview with our services');

    // An owner route to pick when editing.
    const org = await t.store.db.selectFrom('organisations').select('id').where('name', '=', 'Platform team').executeTakeFirstOrThrow();
    const owner = await t.store.db.selectFrom('memberships').select('user_id').where('org_id', '=', org.id).executeTakeFirstOrThrow();
    await t.app.services.alertRoutes.create({ plan: 'free', userId: owner.user_id, orgId: org.id, role: 'owner', authKind: 'session', keyId: null }, org.id, {
      name: 'Payments pager',
      destination: { channel: 'pagerduty', routingKey: 'a'.repeat(32) },
    });

    // Edit from the keyboard only: the Edit link, then Tab through the fields.
    await page.goto('/team/services');
    await page.getByRole('link', { name: 'Edit checkout-api' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/edit=/);
    const form = page.locator('[data-edit-service]');
    assert.equal(await form.getByLabel('Name').inputValue(), 'checkout-api');
    assert.equal(await form.getByLabel('Criticality').inputValue(), 'critical');
    assert.equal(await form.getByLabel('Tags (optional)').inputValue(), 'team:payments');
    assert.equal(await form.getByLabel('Dependencies').inputValue(), 'github | hard | Actions | \namazon-web-services | soft |  | us-east-1');
    await fits(page, 'services page, editing');

    // A refused edit keeps what was typed and says why.
    await form.getByLabel('Dependencies').fill('github | sometimes | Actions |');
    await form.getByRole('button', { name: 'Save changes' }).click();
    assert.match(await page.locator('[data-services-notice]').innerText(), /the kind is hard or soft/);
    assert.equal(await page.locator('[data-edit-service]').getByLabel('Dependencies').inputValue(), 'github | sometimes | Actions |');

    const again = page.locator('[data-edit-service]');
    await again.getByLabel('Name').focus();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('checkout');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'ownerRouteId');
    await page.keyboard.press('ArrowDown'); // None → Payments pager
    await page.keyboard.press('Tab');
    await page.keyboard.press('ArrowDown'); // critical → high
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('team:payments, tier-1');
    await page.keyboard.press('Tab');
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('github | soft | Actions | us-east-1');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Save changes');
    await page.keyboard.press('Enter');
    await page.waitForURL(/done=updated/);
    assert.match(await page.locator('[data-services-notice]').innerText(), /Service saved/);
    const row = page.locator('[data-service="checkout"]');
    assert.match(await row.innerText(), /High/);
    assert.match(await row.locator('[data-service-owner]').innerText(), /Payments pager/);
    assert.match(await row.innerText(), /team:payments, tier-1/);
    assert.equal(await row.locator('[data-service-deps]').innerText(), 'github (soft): Actions, us-east-1');
    assert.equal(await page.locator('[data-service="checkout-api"]').count(), 0, 'renamed, not added');
    assert.match(await page.locator('[data-impact-service="checkout"]').innerText(), /medium confidence/, 'soft lowers the confidence');

    // Another organisation's (or no) service id: not found, no form.
    await page.goto('/team/services?edit=00000000-0000-0000-0000-000000000000');
    assert.match(await page.locator('[data-services-notice]').innerText(), /No such service/);
    assert.equal(await page.locator('[data-edit-service]').count(), 0);

    await page.goto('/team/services');
    await page.getByRole('button', { name: 'Delete checkout' }).click();
    await page.waitForURL(/done=deleted/);
    assert.equal(await page.locator('[data-service]').count(), 0);
  });
});
