import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { launchBrowser, newPage } from '../../helpers/browser.ts';
import { startSmtp } from '../../helpers/receivers.ts';
import { createUser, send } from '../../helpers/users.ts';

// An e-mail confirmation link followed in a real browser, not signed in (docs/alerts.md
// "Proven addresses"): the page's form post must carry the browser's own Origin, which it
// does not under `Referrer-Policy: no-referrer` (Chromium then sends `Origin: null`, and the
// post was refused).

const PUBLIC_URL = 'https://status.example.test';
const decodeQp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

describe('confirming an address in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  before(async () => {
    smtp = await startSmtp();
    t = await startApp({ env: { DELIVER: 'off', SMTP_URL: smtp.url, PUBLIC_URL } });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  test('open the mailed link, press Confirm: the address is confirmed', async () => {
    const u = await createUser(t, 'pro');
    const saved = await send(`${t.api}/notification-preferences`, 'PUT', u.headers, { email: { enabled: true, address: 'oncall@example.org' } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const mail = smtp.mails.find((m) => m.to.includes('oncall@example.org'));
    assert.ok(mail, 'a confirmation mail was sent');
    const link = new URL(/https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_%-]+/.exec(decodeQp(mail.raw))![0]);

    const { page, context } = await newPage(browser, { baseURL: t.url });
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('heading', { name: 'Address confirmed' }).waitFor({ timeout: 10_000 });
    const prefs = await getJson(`${t.api}/notification-preferences`, { headers: u.headers });
    assert.equal(prefs.body.preferences.email.address_status, 'confirmed');
    await context.close();
  });
});
