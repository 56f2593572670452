import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, TestClock, type TestApp } from '../helpers/app.ts';
import { emit, incident } from '../helpers/alerts.ts';
import { type ReceivedMail, startSmtp } from '../helpers/receivers.ts';
import { createUser, loginCookie, send, type TestUser } from '../helpers/users.ts';

// Alerts go only to addresses their owner proved (docs/alerts.md "Proven
// addresses"): an e-mail address other than the account's own is pending until
// the link mailed to it is followed; until then neither alerts nor test alerts
// are sent there.

const PUBLIC_URL = 'https://status.example.test';

/** Quoted-printable soft breaks and escapes undone (mail bodies wrap long links). */
const decodeQp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

function confirmationLink(mail: ReceivedMail): URL {
  const m = /https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_%-]+/.exec(decodeQp(mail.raw));
  assert.ok(m, 'the message carries a confirmation link');
  return new URL(m[0]);
}

describe('e-mail addresses are confirmed before alerts go there', () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const prefs = (u: TestUser, body: unknown) => send(`${t.api}/notification-preferences`, 'PUT', u.headers, body);
  const testSend = (u: TestUser) => send(`${t.api}/notification-preferences/test`, 'POST', u.headers, { channel: 'email' });
  /**
   * Follows a link like a person: opens the page, then presses its button (posts
   * the form). `session`: a browser signed in to the service (cookie sent along).
   */
  async function follow(link: URL, session?: string): Promise<{ page: number; confirm: number; html: string }> {
    const page = await fetch(`${t.url}${link.pathname}${link.search}`, { headers: session ? { cookie: session } : {} });
    const html = await page.text();
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
    const csrfCookie = page.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('vis_csrf='));
    const cookie = [session, csrfCookie].filter(Boolean).join('; ');
    const confirm = await fetch(`${t.url}/confirm-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url, ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams({ token: field('token'), _csrf: field('_csrf') }).toString(),
    });
    return { page: page.status, confirm: confirm.status, html: await confirm.text() };
  }
  const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to));
  const isAlert = (m: ReceivedMail) => /X-Alert-Delivery-Id/i.test(m.raw);

  before(async () => {
    smtp = await startSmtp();
    t = await startApp({ clock, env: { DELIVER: 'off', SMTP_URL: smtp.url, PUBLIC_URL, DELIVERY_TIMEOUT_MS: '5000' } });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  test('another address is pending, gets only a confirmation link, and alerts once it is followed', async () => {
    const u = await createUser(t, 'pro');
    assert.equal((await send(`${t.api}/watchlist/github`, 'POST', u.headers)).status, 200);
    const to = `oncall-${Date.now()}@example.com`;
    const saved = await prefs(u, { email: { enabled: true, address: to }, in_app: { enabled: false } });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.preferences.email.address_status, 'pending');

    // One message to the new address: the link (on PUBLIC_URL), no alert content.
    assert.equal(mailsTo(to).length, 1);
    const [confirmation] = mailsTo(to);
    assert.equal(isAlert(confirmation!), false);
    const link = confirmationLink(confirmation!);
    assert.equal(link.origin, PUBLIC_URL);
    // Only the hash of the token is stored.
    const token = link.searchParams.get('token')!;
    const row = await t.store.db.selectFrom('notification_preferences').selectAll().where('org_id', '=', u.id).executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(token), 'the token itself is not stored');

    // Pending: the test send is refused and an incident sends nothing there.
    const refused = await testSend(u);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.match(JSON.stringify(refused.body), /not confirmed/);
    await emit(t, 'incident.created', incident('github'));
    await t.app.alerts.runOnce();
    assert.equal(mailsTo(to).filter(isAlert).length, 0, 'no alert to an unconfirmed address');

    // Opening the page alone confirms nothing (mail scanners fetch links).
    const opened = await fetch(`${t.url}${link.pathname}${link.search}`);
    assert.equal(opened.status, 200);
    assert.equal((await getJson(`${t.api}/notification-preferences`, { headers: u.headers })).body.preferences.email.address_status, 'pending');

    const followed = await follow(link);
    assert.equal(followed.page, 200);
    assert.equal(followed.confirm, 200);
    assert.match(followed.html, /Address confirmed/);
    assert.equal((await getJson(`${t.api}/notification-preferences`, { headers: u.headers })).body.preferences.email.address_status, 'confirmed');

    // Single use.
    assert.equal((await follow(link)).confirm, 400);

    const ok = await testSend(u);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.delivered, true);
    await emit(t, 'incident.created', incident('github'));
    await t.app.alerts.runOnce();
    assert.equal(mailsTo(to).filter(isAlert).length, 2, 'the test alert and the incident');

    // Changing the address starts over: the new one is pending, with its own link.
    const other = `second-${Date.now()}@example.com`;
    const changed = await prefs(u, { email: { address: other } });
    assert.equal(changed.body.preferences.email.address_status, 'pending');
    assert.equal(mailsTo(other).length, 1);
    assert.equal((await testSend(u)).status, 409);
    // Back to the first address: a confirmation does not carry over either.
    const back = await prefs(u, { email: { address: to } });
    assert.equal(back.body.preferences.email.address_status, 'pending');
  });

  test('an expired link confirms nothing; saving the address again sends a new one', async () => {
    const u = await createUser(t, 'pro');
    const to = `late-${Date.now()}@example.com`;
    await prefs(u, { email: { enabled: true, address: to } });
    const first = confirmationLink(mailsTo(to)[0]!);
    // A GET body sent back unchanged (read-only field included) sends nothing new.
    const current = (await getJson(`${t.api}/notification-preferences`, { headers: u.headers })).body.preferences;
    assert.equal((await prefs(u, { email: current.email })).status, 200);
    assert.equal(mailsTo(to).length, 1);

    clock.advance(25 * 3_600_000);
    assert.equal((await follow(first)).confirm, 400);
    assert.equal((await getJson(`${t.api}/notification-preferences`, { headers: u.headers })).body.preferences.email.address_status, 'pending');
    await prefs(u, { email: { address: to } });
    assert.equal(mailsTo(to).length, 2);
    const second = confirmationLink(mailsTo(to)[1]!);
    // Followed in a browser signed in to the service: the form carries its CSRF token.
    const signedIn = await follow(second, await loginCookie(t, u));
    assert.equal(signedIn.confirm, 200, signedIn.html);
    assert.equal((await getJson(`${t.api}/notification-preferences`, { headers: u.headers })).body.preferences.email.address_status, 'confirmed');
  });

  test("the account's own address needs no confirmation", async () => {
    const u = await createUser(t, 'pro');
    const own = await prefs(u, { email: { enabled: true, address: u.email.toUpperCase() } });
    assert.equal(own.body.preferences.email.address_status, 'confirmed');
    const none = await prefs(u, { email: { address: null } });
    assert.equal(none.body.preferences.email.address_status, 'confirmed');
    assert.equal(mailsTo(u.email).length + mailsTo(u.email.toUpperCase()).length, 0);
    const ok = await testSend(u);
    assert.equal(ok.status, 200);
    assert.equal(ok.body.delivered, true);
  });

  test('a made-up or malformed token confirms nothing', async () => {
    for (const token of ['A'.repeat(43), 'short', '<script>']) {
      const r = await follow(new URL(`${t.url}/confirm-email?token=${encodeURIComponent(token)}`));
      assert.equal(r.confirm, 400, token);
    }
  });

  test('without a session too, the form is refused without its CSRF field or from another origin (403 page)', async () => {
    const u = await createUser(t, 'pro');
    const to = `csrf-${Date.now()}@example.com`;
    await prefs(u, { email: { enabled: true, address: to } });
    const link = confirmationLink(mailsTo(to)[0]!);
    const page = await fetch(`${t.url}${link.pathname}${link.search}`);
    await page.text();
    const csrfCookie = page.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('vis_csrf='))!;
    const token = link.searchParams.get('token')!;
    const attempts: { headers: Record<string, string>; body: Record<string, string> }[] = [
      // A foreign page posting the form for a visitor: no field, no cookie of ours.
      { headers: { origin: 'https://evil.example' }, body: { token } },
      { headers: { origin: t.url }, body: { token } },
      { headers: { origin: t.url, cookie: csrfCookie }, body: { token } },
      { headers: { origin: t.url, cookie: csrfCookie }, body: { token, _csrf: 'x'.repeat(43) } },
    ];
    for (const a of attempts) {
      const r = await fetch(`${t.url}/confirm-email`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...a.headers },
        body: new URLSearchParams(a.body).toString(),
      });
      assert.equal(r.status, 403, JSON.stringify(a));
      assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
    }
    assert.equal((await getJson(`${t.api}/notification-preferences`, { headers: u.headers })).body.preferences.email.address_status, 'pending');
    assert.equal((await follow(link)).confirm, 200, "the page's own form still confirms");
  });
});
