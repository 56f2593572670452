// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { uniqueEmail } from '../../helpers/access.ts';
import { violations } from '../../helpers/axe.ts';
import { launchBrowser, newPage } from '../../helpers/browser.ts';

// An admin sets up SCIM in a real browser (docs/teams.md "SCIM", docs/web.md "Team"):
// makes a token (shown once), the identity provider pushes a group with it, the admin maps
// the group to a role on the page, revokes the token, and the provider is refused from then
// on. Axe-clean, no sideways scrolling at phone width.

async function fits(page: Page, what: string) {
  assert.deepEqual(await violations(page), [], `${what}: axe`);
  const sideways = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
  assert.ok(sideways <= 0, `${what}: scrolls sideways by ${sideways}px`);
}

describe('SCIM page in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  before(async () => {
    t = await startApp();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('make a token, map a pushed group to a role, revoke the token', async () => {
    const { page } = await newPage(browser, { baseURL: t.url, width: 375, height: 800 });
    await page.goto('/signup');
    await page.getByLabel('Email').fill(uniqueEmail('scim-admin'));
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/account/);
    await page.getByRole('link', { name: 'Team' }).click();
    // The personal organisation has no SCIM tokens: the refusal says why, next to the form.
    await page.getByRole('link', { name: 'SCIM provisioning' }).click();
    await page.getByLabel('Token name').fill('Personal');
    await page.getByRole('button', { name: 'Make a token' }).click();
    assert.match(await page.locator('[data-scim-notice]').innerText(), /personal/i);
    await page.goto('/team');
    await page.getByLabel('New team organisation').fill('Provisioned team');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/team\?done=created$/);
    await page.getByRole('link', { name: 'SCIM provisioning' }).click();
    await page.waitForURL(/\/team\/scim$/);
    await fits(page, 'SCIM page, empty');

    await page.getByLabel('Token name').fill('Okta');
    await page.getByRole('button', { name: 'Make a token' }).click();
    const secret = (await page.locator('[data-scim-secret]').innerText()).trim();
    assert.match(secret, /^scim_/);
    await fits(page, 'SCIM page, token shown');

    // The identity provider pushes a group with one member.
    const scim = (path: string, body: unknown) =>
      fetch(`${t.url}/scim/v2${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/scim+json' },
        body: JSON.stringify(body),
      });
    const user = await scim('/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: uniqueEmail('pushed'), active: true });
    assert.equal(user.status, 201);
    const group = await scim('/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'SRE',
      members: [{ value: (await user.json()).id }],
    });
    assert.equal(group.status, 201);

    await page.goto('/team/scim');
    await page.getByLabel('Role given by SRE').selectOption('editor');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/done=saved/);
    assert.equal(await page.getByLabel('Role given by SRE').inputValue(), 'editor');
    assert.match(await page.locator('[data-scim-group="SRE"]').innerText(), /1/);

    await page.getByRole('button', { name: 'Revoke the token Okta' }).click();
    await page.waitForURL(/done=revoked/);
    assert.equal((await scim('/Groups', { displayName: 'late' })).status, 401);
  });
});
