import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { type ReceivedMail, startSmtp } from '../../helpers/receivers.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// Attacks on the e-mail confirmation mails (docs/security.md, "Confirmation mails"):
// an account alternating the e-mail channel's address between a victim and junk got
// a new mail sent to the victim on every other save, without limit; the link in it
// was built from the request's Host, so `Host: evil.example` mailed a link to
// http://evil.example/… .
//  1. 80 saves alternating victim/junk through an API key: at most 3 mails to the
//     victim, 5 from the account in 24 hours; the rest answer 429 and save nothing.
//  2. The same through the web session (not metered like API calls): the same limits.
//  3. Many accounts against one address: 3 mails to it in 24 hours, whoever asks.
//  4. The window slides and holds over a restart (kept in the store).
//  5. 10 accounts at the same instant: still 3 mails (atomic count, both stores).
//  6. `Host: evil.example`: the link is on PUBLIC_URL.
//  7. No PUBLIC_URL: no link is mailed, the save says why (503), nothing is stored.

const PUBLIC_URL = 'https://status.example.test';
const decodeQp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
const linkIn = (m: ReceivedMail) => new URL(/https?:\/\/\S+\/confirm-email\?token=[A-Za-z0-9_%-]+/.exec(decodeQp(m.raw))![0]);

/** PUT preferences naming another Host (fetch does not let a caller set Host). */
function putWithHost(t: TestApp, key: string, host: string, payload: unknown): Promise<{ status: number; body: any }> {
  const body = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${t.api}/notification-preferences`,
      { method: 'PUT', headers: { host, 'x-api-key': key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('confirmation mails are limited and their links point only at PUBLIC_URL', () => {
  const clock = new TestClock(new Date());
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to));
  const save = (headers: Record<string, string>, address: string) =>
    send(`${t.api}/notification-preferences`, 'PUT', headers, { email: { enabled: true, address } });

  before(async () => {
    smtp = await startSmtp();
    t = await startApp({ clock, env: { DELIVER: 'off', SMTP_URL: smtp.url, PUBLIC_URL, RATE_LIMITS: '{}' } });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function alternate(headers: Record<string, string>, tag: string) {
    const victim = `victim-${tag}-${Date.now()}@example.com`;
    const junk = `junk-${tag}-${Date.now()}@example.com`;
    const before = smtp.mails.length;
    const statuses: number[] = [];
    for (let i = 0; i < 80; i++) statuses.push((await save(headers, i % 2 ? junk : victim)).status);
    return { victim, junk, statuses, sent: smtp.mails.length - before };
  }

  test('80 saves alternating victim and junk through an API key send 3 mails to the victim, 5 in all', async () => {
    const u = await createUser(t, 'pro');
    const r = await alternate(u.headers, 'key');
    assert.equal(mailsTo(r.victim).length, 3, 'at most 3 mails to one address in 24 hours');
    assert.equal(r.sent, 5, 'at most 5 confirmation mails per account in 24 hours');
    assert.deepEqual([...new Set(r.statuses)].sort(), [200, 429]);
    const refused = await save(u.headers, `third-${Date.now()}@example.com`);
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.equal(refused.body.error, 'rate_limit_exceeded');
    assert.ok(refused.body.retryAfter > 0 && refused.body.retryAfter <= 86_400);
  });

  test('the same through the signed-in web session: the same limits', async () => {
    const u = await createUser(t, 'pro');
    const r = await alternate({ cookie: await loginCookie(t, u), origin: t.url }, 'web');
    assert.equal(mailsTo(r.victim).length, 3);
    assert.equal(r.sent, 5);
  });

  test('many accounts mail one address at most 3 times in 24 hours; the window slides and is kept in the store', async () => {
    const victim = `shared-victim-${Date.now()}@example.com`;
    const users: TestUser[] = [];
    for (let i = 0; i < 6; i++) users.push(await createUser(t, 'pro'));
    const statuses = [];
    for (const u of users) statuses.push((await save(u.headers, victim)).status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429]);
    assert.equal(mailsTo(victim).length, 3);

    // A restarted instance over the same store still counts them.
    const again = await startApp({ clock, shareStoreWith: t, env: { DELIVER: 'off', SMTP_URL: smtp.url, PUBLIC_URL, RATE_LIMITS: '{}' } });
    try {
      assert.equal((await send(`${again.api}/notification-preferences`, 'PUT', users[3]!.headers, { email: { enabled: true, address: victim } })).status, 429);
    } finally {
      await again.close();
    }
    // Sliding, not aligned to the clock's day: 23 hours later still refused, 24 hours after the first mail open.
    clock.advance(23 * 3_600_000);
    assert.equal((await save(users[4]!.headers, victim)).status, 429);
    clock.advance(3_600_000 + 1000);
    assert.equal((await save(users[4]!.headers, victim)).status, 200);
    assert.equal(mailsTo(victim).length, 4);
  });

  test('10 accounts saving one address at the same instant: 3 mails (the count is atomic)', async () => {
    const victim = `burst-victim-${Date.now()}@example.com`;
    const users: TestUser[] = [];
    for (let i = 0; i < 10; i++) users.push(await createUser(t, 'pro'));
    const statuses = (await Promise.all(users.map((u) => save(u.headers, victim)))).map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 3, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 429).length, 7, JSON.stringify(statuses));
    assert.equal(mailsTo(victim).length, 3);
  });

  test('the link is on PUBLIC_URL whatever Host the request names', async () => {
    const u = await createUser(t, 'pro');
    const to = `hosted-${Date.now()}@example.com`;
    const { status } = await putWithHost(t, u.key, 'evil.example', { email: { enabled: true, address: to } });
    assert.equal(status, 200);
    assert.equal(mailsTo(to).length, 1);
    assert.equal(linkIn(mailsTo(to)[0]!).origin, PUBLIC_URL);
  });
});

describe('without PUBLIC_URL no confirmation link is mailed', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  before(async () => {
    smtp = await startSmtp();
    t = await startApp({ env: { DELIVER: 'off', SMTP_URL: smtp.url } });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  test('saving another address (with `Host: evil.example`) answers 503 naming PUBLIC_URL and stores nothing; the own address needs no link', async () => {
    const u = await createUser(t, 'pro');
    const r = await putWithHost(t, u.key, 'evil.example', { email: { enabled: true, address: `nopub-${Date.now()}@example.com` } });
    assert.equal(smtp.mails.filter((m) => /evil\.example/.test(decodeQp(m.raw))).length, 0, 'no link on the Host the request named');
    assert.equal(r.status, 503, JSON.stringify(r.body));
    assert.match(r.body.message, /PUBLIC_URL/);
    assert.equal(smtp.mails.length, 0);
    assert.equal((await getJson(`${t.api}/notification-preferences`, { headers: u.headers })).body.preferences.email.address, null);
    const own = await send(`${t.api}/notification-preferences`, 'PUT', u.headers, { email: { enabled: true, address: u.email } });
    assert.equal(own.status, 200, JSON.stringify(own.body));
  });
});
