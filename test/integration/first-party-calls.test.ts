import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, TestClock, type TestApp } from '../helpers/app.ts';
import { uniqueEmail } from '../helpers/access.ts';
import { createUser, loginCookie, send } from '../helpers/users.ts';

// docs/access.md "First-party calls" and "From a script": our own pages' calls on the
// user's own settings are not counted; scripts are, and can sign up and make a key
// with the documented curl flow.

describe('first-party calls and the scripted signup', () => {
  let t: TestApp;
  before(async () => {
    // The real plan table (Free: 10 requests a minute) on a clock that stands still.
    t = await startApp({ clock: new TestClock(new Date('2026-06-01T10:00:00Z')), env: { RATE_LIMITS: '{}' } });
  });
  after(async () => t.close());

  test('the account page setting up alerts: 25 settings calls of a Free session from our own origin, none refused, no quota used', async () => {
    const user = await createUser(t, 'free');
    const cookie = await loginCookie(t, user);
    const page = { cookie, origin: t.url };
    for (let i = 0; i < 25; i++) {
      const read = await getJson(`${t.api}/notification-preferences`, { headers: { cookie, 'sec-fetch-site': 'same-origin' } });
      assert.equal(read.status, 200, `read ${i}: ${JSON.stringify(read.body)}`);
      if (i % 5 === 0) {
        const saved = await send(`${t.api}/watchlist`, 'PUT', page, { vendors: ['github'] });
        assert.equal(saved.status, 200, JSON.stringify(saved.body));
      }
    }
    // The quota is untouched: a script with the user's key still gets its full 10 reads.
    const account = await getJson(`${t.url}/api/v1/account`, { headers: user.headers });
    assert.equal(account.status, 200);
    for (let i = 0; i < 10; i++) assert.equal((await getJson(`${t.api}/vendor-list`, { headers: user.headers })).status, 200, `script read ${i}`);
  });

  test("a script's reads are counted: the key on settings, and a session on public data even with browser headers", async () => {
    const user = await createUser(t, 'free');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await getJson(`${t.api}/watchlist`, { headers: user.headers })).status);
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(200));
    assert.equal(statuses[10], 429);

    const other = await createUser(t, 'free');
    const cookie = await loginCookie(t, other);
    const publicReads: number[] = [];
    for (let i = 0; i < 11; i++) {
      publicReads.push((await getJson(`${t.api}/vendor-list`, { headers: { cookie, 'sec-fetch-site': 'same-origin' } })).status);
    }
    assert.equal(publicReads[10], 429, 'public data is metered whoever calls');
  });

  test('a session without browser headers (a script holding the cookie) is counted on settings routes', async () => {
    const user = await createUser(t, 'free');
    const cookie = await loginCookie(t, user);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await getJson(`${t.api}/notification-preferences`, { headers: { cookie } })).status);
    assert.equal(statuses[10], 429);
  });

  test('the dashboard bundle (vendor data) stays metered from our own pages', async () => {
    const user = await createUser(t, 'free');
    const cookie = await loginCookie(t, user);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push((await send(`${t.api}/dashboard-favorites`, 'POST', { cookie, origin: t.url }, { vendors: ['github'] })).status);
    }
    assert.equal(statuses[9], 200);
    assert.equal(statuses[10], 429);
  });

  test('the documented script flow: sign up, read the CSRF cookie, create a key with Origin and X-CSRF-Token, call the API', async () => {
    const email = uniqueEmail('script');
    const signup = await fetch(`${t.url}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'a long enough password' }),
    });
    assert.equal(signup.status, 201);
    const jar = signup.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const csrf = jar.find((c) => c.startsWith('vis_csrf='))!.slice('vis_csrf='.length);
    const created = await getJson(`${t.url}/api/v1/account/keys`, {
      method: 'POST',
      headers: { cookie: jar.join('; '), origin: t.url, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'script' }),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const read = await getJson(`${t.api}/vendor-list`, { headers: { 'x-api-key': created.body.secret } });
    assert.equal(read.status, 200);
  });
});
