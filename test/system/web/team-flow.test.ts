// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { uniqueEmail } from '../../helpers/access.ts';
import { violations } from '../../helpers/axe.ts';
import { launchBrowser, newPage, unexpected } from '../../helpers/browser.ts';

// A team sets up in real browsers (docs/teams.md, docs/web.md "Team"): the owner creates
// a team organisation and invites a colleague; the colleague signs up with the invited
// address and accepts; someone signed in with another address is told why they cannot;
// the owner changes the colleague's role; the colleague switches; the audit log shows
// it all. Keyboard only where a person would type, axe-clean, no sideways scrolling at
// phone width.

const password = 'a long enough password';

async function signUp(page: Page, email: string, next?: string) {
  await page.goto(next ? `/signup?next=${encodeURIComponent(next)}` : '/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

async function checkPage(page: Page, what: string) {
  assert.deepEqual(await violations(page), [], `${what}: axe`);
  const sideways = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((e) => !e.parentElement?.closest('.table-scroll') || ['absolute', 'fixed'].includes(getComputedStyle(e).position))
      .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .concat(
        [...document.querySelectorAll('body, body *')].filter(
          (e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible' && !e.parentElement?.closest('.table-scroll'),
        ),
      )
      .slice(0, 6)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${e.className}:${Math.round(e.getBoundingClientRect().right)}/${e.scrollWidth}>${e.clientWidth}`,
      ),
  );
  assert.ok(sideways <= 0, `${what}: scrolls sideways by ${sideways}px (${wide.join(', ')})`);
}

describe('team pages in a real browser', () => {
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

  test('create, invite, accept, refuse a foreign address, change a role, switch, read the audit log', async () => {
    const ownerEmail = uniqueEmail('team-owner');
    const mateEmail = uniqueEmail('team-mate');
    const owner = await newPage(browser, { baseURL: t.url, width: 375, height: 800 });
    await signUp(owner.page, ownerEmail);
    await owner.page.waitForURL(/\/account/);

    await owner.page.getByRole('link', { name: 'Team' }).click();
    await owner.page.waitForURL(/\/team$/);
    await checkPage(owner.page, 'team page, personal organisation');
    assert.match(await owner.page.locator('main').innerText(), /personal organisation: it has one member/);

    // A team organisation: the session switches to it.
    await owner.page.getByLabel('New team organisation').fill('Platform team');
    await owner.page.getByRole('button', { name: 'Create' }).click();
    await owner.page.waitForURL(/\/team\?done=created$/);
    assert.match(await owner.page.locator('[data-team-notice]').innerText(), /Organisation created/);
    assert.match(await owner.page.getByRole('heading', { name: /Members of Platform team/ }).innerText(), /Platform team/);

    // A bad address is refused next to the form, with the page still there.
    await owner.page.getByLabel('E-mail address').fill('not-an-address@x');
    await owner.page.getByLabel('Role', { exact: true }).selectOption('editor');
    await owner.page.getByRole('button', { name: 'Invite' }).click();
    assert.match(await owner.page.locator('[data-team-notice]').innerText(), /not a valid email address/);

    await owner.page.getByLabel('E-mail address').fill(mateEmail);
    await owner.page.getByLabel('Role', { exact: true }).selectOption('editor');
    await owner.page.getByRole('button', { name: 'Invite' }).click();
    const link = (await owner.page.locator('[data-invitation-link]').innerText()).trim();
    assert.match(link, /\/invitations\/[A-Za-z0-9_-]{43}$/);
    await checkPage(owner.page, 'team page with an invitation link');
    // Shown once: a reload of the page does not have it.
    await owner.page.goto('/team');
    assert.equal(await owner.page.locator('[data-invitation-link]').count(), 0);
    assert.equal(await owner.page.locator('[data-invitations] li').count(), 1);

    // Someone signed in with another address is told why they cannot use it.
    const other = await newPage(browser, { baseURL: t.url });
    await signUp(other.page, uniqueEmail('someone-else'));
    await other.page.waitForURL(/\/account/);
    await other.page.goto(new URL(link).pathname);
    assert.match(await other.page.locator('[data-invitation-outcome]').innerText(), /for .*team-mate.* and you are signed in as/);
    await checkPage(other.page, 'invitation for another address');

    // The colleague: the link, sign up from it, accept.
    const mate = await newPage(browser, { baseURL: t.url, width: 375, height: 800 });
    await mate.page.goto(new URL(link).pathname);
    assert.match(await mate.page.locator('main').innerText(), /Invitation to Platform team/);
    await mate.page.locator('main').getByRole('link', { name: 'sign up' }).click();
    await mate.page.getByLabel('Email').fill(mateEmail);
    await mate.page.getByLabel('Password').fill(password);
    await mate.page.getByRole('button', { name: 'Create account' }).click();
    await mate.page.waitForURL(/\/invitations\//);
    await checkPage(mate.page, 'invitation to answer');
    await mate.page.getByRole('button', { name: 'Accept' }).click();
    assert.match(await mate.page.locator('[data-invitation-outcome]').innerText(), /You joined Platform team as editor/);
    // Used: answering again says so.
    await mate.page.goto(new URL(link).pathname);
    assert.match(await mate.page.locator('[data-invitation-outcome]').innerText(), /already accepted/);

    // The owner makes the colleague a viewer, keyboard only.
    await owner.page.goto('/team');
    const roleSelect = owner.page.getByLabel(`Role of ${mateEmail.toLowerCase()}`);
    await roleSelect.focus();
    await roleSelect.selectOption('viewer');
    await owner.page.keyboard.press('Tab');
    await owner.page.keyboard.press('Enter');
    await owner.page.waitForURL(/\/team\?done=role$/);
    assert.match(await owner.page.locator(`[data-member="${mateEmail.toLowerCase()}"]`).innerText(), /Viewer/);

    // The colleague switches to the team and sees their role.
    await mate.page.goto('/team');
    await mate.page.getByLabel('Acting for').selectOption({ label: 'Platform team (Viewer)' });
    await mate.page.getByRole('button', { name: 'Switch' }).click();
    await mate.page.waitForURL(/\/team\?done=switched$/);
    assert.equal(await mate.page.locator('[data-my-role]').innerText(), 'Viewer');
    // A viewer sees no invitation form and no audit log.
    assert.equal(await mate.page.locator('[data-invite-form]').count(), 0);
    await mate.page.goto('/team/audit');
    assert.match(await mate.page.locator('main').innerText(), /admin role or higher/);

    // The owner reads the audit log, filters it, and the CSV link carries the filter.
    await owner.page.getByRole('link', { name: 'Audit log' }).click();
    await owner.page.waitForURL(/\/team\/audit$/);
    await checkPage(owner.page, 'audit log');
    const text = await owner.page.locator('[data-audit]').innerText();
    for (const action of ['org.created', 'invitation.created', 'member.joined', 'member.role_changed'])
      assert.match(text, new RegExp(action.replace('.', '\\.')));
    await owner.page.getByLabel('Action').fill('member.role_changed');
    await owner.page.getByRole('button', { name: 'Filter' }).click();
    assert.equal(await owner.page.locator('[data-audit] tbody tr').count(), 1);
    assert.match((await owner.page.getByRole('link', { name: 'Download as CSV' }).getAttribute('href'))!, /format=csv&action=member.role_changed/);
    assert.match((await owner.page.getByRole('link', { name: 'Download as JSON lines' }).getAttribute('href'))!, /format=ndjson&action=member.role_changed/);

    for (const p of [owner, mate, other])
      assert.deepEqual(unexpected(p.problems, [/status of 40[39]/, /http 400 POST \/team\/invite/, /http 403 GET \/team\/audit/]), [], 'console problems');
  });
});
