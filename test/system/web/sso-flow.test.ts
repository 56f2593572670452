// @store-independent: a browser on the web pages; the store behind them is covered by the integration tier; runs in one CI leg only (docs/testing.md, "Tiers").
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { uniqueEmail } from '../../helpers/access.ts';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { violations } from '../../helpers/axe.ts';
import { launchBrowser, newPage, unexpected } from '../../helpers/browser.ts';
import { startIdp, type TestIdp } from '../../helpers/oidc-idp.ts';
import { txtRecords } from '../../helpers/sso.ts';

// Single sign-on in a real browser against a real OpenID Provider on loopback (panva's
// oidc-provider; docs/teams.md, "Single sign-on"): an owner sets up the connection and a
// domain on the team page; a colleague signs in with SSO from the log-in page, through the
// provider's form, and joins just in time with the default role. Then the provider goes
// wrong: a token for another audience, a replayed answer, an expired ID token; and it
// rotates its signing key, after which signing in still works. Every refusal is a page
// with the reason; pages are axe-clean.

const DOMAIN = 'acme-sso.example';
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
/** Responses that are the point of a step: the refusals of the callback. */
const EXPECTED = [/^http 40[0-3] GET \/auth\/sso\/callback$/, /^http 404 GET \/favicon\.ico$/];

describe('single sign-on in a real browser', () => {
  let t: TestApp;
  let idp: TestIdp;
  let browser: Browser;
  const txt = txtRecords();

  before(async () => {
    t = await startApp({ env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' }, resolveTxt: txt.resolveTxt, clock });
    idp = await startIdp({ redirectUris: [`${t.url}/auth/sso/callback`] });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await idp?.close();
  });

  /** From the log-in page through the provider's form; resolves on the page the app shows after the callback. */
  async function ssoSignIn(accountId: string, email: string) {
    idp.accounts.set(accountId, { email, emailVerified: true });
    const w = await newPage(browser, { baseURL: t.url });
    let callbackUrl = '';
    w.page.on('request', (r) => {
      if (r.url().startsWith(`${t.url}/auth/sso/callback`)) callbackUrl = r.url();
    });
    await w.page.goto('/login');
    await w.page.getByLabel('Work e-mail address').fill(email);
    await w.page.getByRole('button', { name: 'Sign in with SSO' }).click();
    await w.page.waitForURL(`${idp.issuer}/interaction/**`);
    await w.page.getByLabel('Account').fill(accountId);
    await w.page.getByRole('button', { name: 'Sign in' }).click();
    await w.page.waitForURL((u) => u.href.startsWith(t.url) && !u.pathname.startsWith('/login'));
    await w.page.waitForLoadState('load');
    return { ...w, callbackUrl };
  }

  const reason = (page: Page) => page.locator('[data-sso-reason]').innerText();

  test('an owner sets up SSO on the team page; a colleague signs in with it and joins just in time', async () => {
    const owner = await newPage(browser, { baseURL: t.url });
    await owner.page.goto('/signup');
    await owner.page.getByLabel('Email').fill(uniqueEmail('sso-owner'));
    await owner.page.getByLabel('Password').fill('a long enough password');
    await owner.page.getByRole('button', { name: 'Create account' }).click();
    await owner.page.waitForURL(/\/account/);
    await owner.page.goto('/team');
    await owner.page.getByLabel('New team organisation').fill('Acme');
    await owner.page.getByRole('button', { name: 'Create' }).click();
    await owner.page.waitForURL(/done=created/);
    assert.match(await owner.page.locator('[data-sso-redirect-uri]').innerText(), new RegExp(`${t.url}/auth/sso/callback`));

    await owner.page.getByLabel('Issuer URL').fill(idp.issuer);
    await owner.page.getByLabel('Client ID').fill(idp.clientId);
    await owner.page.getByLabel('Client secret').fill(idp.clientSecret);
    await owner.page.getByLabel('Role of people joining by SSO').selectOption('editor');
    await owner.page.getByRole('button', { name: 'Save single sign-on' }).click();
    await owner.page.waitForURL(/done=sso/);
    assert.match(await owner.page.locator('[data-team-notice]').innerText(), /Single sign-on saved/);
    assert.ok(!(await owner.page.content()).includes(idp.clientSecret), 'the secret is never shown');

    await owner.page.getByLabel('E-mail domain').fill(DOMAIN);
    await owner.page.getByRole('button', { name: 'Add domain' }).click();
    await owner.page.waitForURL(/done=domain/);
    const [name, value] = await owner.page.locator(`[data-sso-domain="${DOMAIN}"] code`).allInnerTexts();
    txt.records.set(name!, [[value!]]);
    assert.deepEqual(await violations(owner.page), [], 'team page with SSO: axe');
    await owner.page.getByRole('button', { name: `Verify ${DOMAIN}` }).click();
    await owner.page.waitForURL(/done=verified/);
    assert.match(await owner.page.locator(`[data-sso-domain="${DOMAIN}"]`).innerText(), /verified/);
    // At phone width the redirect URI and the records wrap instead of widening the page.
    await owner.page.setViewportSize({ width: 375, height: 800 });
    await owner.page.getByLabel('E-mail domain').fill('second-sso.example');
    await owner.page.getByRole('button', { name: 'Add domain' }).click();
    await owner.page.waitForURL(/done=domain/);
    assert.ok((await owner.page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)) <= 0, 'team page scrolls sideways at 375px');
    assert.deepEqual(unexpected(owner.problems), []);
    await owner.context.close();

    const login = await newPage(browser, { baseURL: t.url });
    await login.page.goto('/login');
    assert.deepEqual(await violations(login.page), [], 'log-in page: axe');
    await login.context.close();

    const mate = await ssoSignIn('lee', `lee@${DOMAIN}`);
    assert.match(new URL(mate.page.url()).pathname, /^\/account/);
    await mate.page.goto('/team');
    assert.match(await mate.page.getByRole('heading', { name: /Members of Acme/ }).innerText(), /Acme/);
    assert.equal(await mate.page.locator('[data-my-role]').innerText(), 'Editor');
    assert.deepEqual(unexpected(mate.problems), []);

    // The same answer again (the URL the provider sent the browser to): refused, with the reason.
    await mate.page.goto(mate.callbackUrl);
    assert.match(await reason(mate.page), /expired or was already used/);
    assert.deepEqual(await violations(mate.page), [], 'SSO error page: axe');
    assert.deepEqual(unexpected(mate.problems, EXPECTED), []);
    await mate.context.close();
  });

  test('a token for another audience and an expired ID token are refused with the reason', async () => {
    idp.wrongAudience = true;
    try {
      const w = await ssoSignIn('max', `max@${DOMAIN}`);
      assert.match(await reason(w.page), /"aud" claim is wrong/);
      assert.equal(new URL(w.page.url()).pathname, '/auth/sso/callback');
      await w.context.close();
    } finally {
      idp.wrongAudience = false;
    }
    idp.idTokenTtl = 1;
    offsetMs = 120_000;
    try {
      const w = await ssoSignIn('max', `max@${DOMAIN}`);
      assert.match(await reason(w.page), /ID token has expired/);
      await w.context.close();
    } finally {
      idp.idTokenTtl = 300;
      offsetMs = 0;
    }
  });

  test('the provider rotates its signing key: the next sign-in works', async () => {
    const before = idp.signingKid();
    await idp.rotate();
    assert.notEqual(idp.signingKid(), before);
    const w = await ssoSignIn('max', `max@${DOMAIN}`);
    assert.match(new URL(w.page.url()).pathname, /^\/account/);
    assert.deepEqual(unexpected(w.problems), []);
    await w.context.close();
  });
});
