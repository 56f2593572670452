import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { createUser, send, type TestUser } from '../../helpers/users.ts';

// A server with no SMTP server (no SMTP_URL) refuses to switch e-mail alerts on, as its
// test send does: a channel that could never deliver must not look enabled
// (docs/per-user.md, "Notification preferences").

describe('e-mail alerts on a server without SMTP', () => {
  let t: TestApp;
  let u: TestUser;
  const url = () => `${t.api}/notification-preferences`;

  before(async () => {
    t = await startApp();
    u = await createUser(t, 'pro');
  });
  after(async () => t.close());

  test('switching e-mail alerts on is refused with the reason, and nothing is saved', async () => {
    for (const body of [{ email: { enabled: true } }, { email: { enabled: true, address: 'oncall@example.com' }, rss: { enabled: true } }]) {
      const r = await send(url(), 'PUT', u.headers, body);
      assert.equal(r.status, 409, JSON.stringify(r.body));
      assert.equal(r.body.success, false);
      assert.equal(r.body.error, 'conflict');
      assert.match(r.body.message, /no SMTP server configured/);
    }
    const now = await send(url(), 'GET', u.headers);
    assert.equal(now.body.preferences.email.enabled, false);
    assert.equal(now.body.preferences.email.address, null);
    assert.equal(now.body.preferences.rss.enabled, false, 'the refused save changed nothing else either');
  });

  test('other e-mail settings and switching it off still save', async () => {
    const r = await send(url(), 'PUT', u.headers, { email: { enabled: false, digest: 'daily' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.preferences.email.digest, 'daily');
  });

  test('the test send says the same', async () => {
    const r = await send(`${url()}/test`, 'POST', u.headers, { channel: 'email' });
    assert.equal(r.status, 409);
    assert.match(r.body.message, /no SMTP server configured/);
  });
});
