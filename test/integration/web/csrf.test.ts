import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { csrfTokenOf, login, userWithKey, type TestUser } from '../../helpers/access.ts';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';

// CSRF protection of state-changing session requests: Origin check plus a
// double-submit token (cookie vis_csrf echoed in X-CSRF-Token or the _csrf field).

describe('CSRF protection', () => {
  let t: TestApp;
  let u: TestUser;
  let cookie: string;
  const WEB = 'https://dashboard.example.com';
  before(async () => {
    t = await startApp({ env: { WEB_ORIGINS: WEB, API_KEY_MIN_PLAN: 'free' } });
    u = await userWithKey(t, 'pro');
    cookie = await login(t, u.email, u.password);
  });
  after(async () => t.close());

  const createKey = (headers: Record<string, string>, body = '{}') =>
    getJson(`${t.url}/api/v1/account/keys`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

  test('a session request needs the token of its own cookie', async () => {
    const token = csrfTokenOf(cookie);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    const missing = await createKey({ cookie, origin: t.url });
    assert.equal(missing.status, 403);
    assert.equal(missing.body.error, 'csrf_token_invalid');
    const wrong = await createKey({ cookie, origin: t.url, 'x-csrf-token': `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}` });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.error, 'csrf_token_invalid');
    // A token with no cookie behind it (attacker-chosen value) does not count.
    const session = cookie.split(';')[0]!;
    const noCookie = await createKey({ cookie: session, origin: t.url, 'x-csrf-token': token });
    assert.equal(noCookie.body.error, 'csrf_token_invalid');
    const ok = await createKey({ cookie, origin: t.url, 'x-csrf-token': token });
    assert.equal(ok.status, 201);
    const fromWebOrigin = await createKey({ cookie, origin: WEB, 'x-csrf-token': token });
    assert.equal(fromWebOrigin.status, 201);
  });

  test('the token does not help a foreign Origin', async () => {
    const r = await createKey({ cookie, origin: 'https://evil.example.net', 'x-csrf-token': csrfTokenOf(cookie) });
    assert.equal(r.status, 403);
    assert.equal(r.body.error, 'origin_not_allowed');
  });

  test('a form post may send the token as the _csrf field (not passed on to the API body)', async () => {
    const r = await getJson(`${t.url}/api/v1/account/keys`, {
      method: 'POST',
      headers: { cookie, origin: t.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ name: 'from a form', _csrf: csrfTokenOf(cookie) }).toString(),
    });
    assert.equal(r.status, 201);
    assert.equal(r.body.key.name, 'from a form');
  });

  test('API keys carry no ambient credential and need no token', async () => {
    const r = await getJson(`${t.url}/api/v1/account`, { headers: { 'x-api-key': u.secret } });
    assert.equal(r.status, 200);
    const logout = await getJson(`${t.url}/api/v1/auth/logout`, { method: 'POST', headers: { 'x-api-key': u.secret } });
    assert.equal(logout.status, 200);
  });

  test('login from a browser (Origin present) needs the token of the page; scripts without Origin do not', async () => {
    const body = JSON.stringify({ email: u.email, password: u.password });
    const browser = await getJson(`${t.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: t.url }, body });
    assert.equal(browser.status, 403);
    assert.equal(browser.body.error, 'csrf_token_invalid');
    // The login page sets the cookie its form echoes.
    const page = await fetch(`${t.url}/login`);
    const pageCookie = page.headers
      .getSetCookie()
      .find((c) => c.startsWith('vis_csrf='))!
      .split(';')[0]!;
    const html = await page.text();
    const token = /<meta name="csrf-token" content="([^"]+)">/.exec(html)![1]!;
    assert.equal(pageCookie, `vis_csrf=${token}`);
    const withToken = await getJson(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: t.url, cookie: pageCookie, 'x-csrf-token': token },
      body,
    });
    assert.equal(withToken.status, 200);
    const script = await fetch(`${t.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    assert.equal(script.status, 200);
    // ...and gets a token for its later session requests.
    const set = script.headers.getSetCookie();
    assert.ok(set.some((c) => c.startsWith('vis_session=')));
    assert.ok(
      set.some((c) => /^vis_csrf=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/.test(c)),
      set.join(' | '),
    );
  });

  test('cookie flags: session HttpOnly + SameSite=Lax, CSRF HttpOnly + SameSite=Strict, Secure behind TLS', async () => {
    const s = await startApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const page = await fetch(`${s.url}/`, { headers: { 'x-forwarded-proto': 'https' } });
      assert.match(page.headers.getSetCookie().join(';'), /vis_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Strict; Secure/);
      const res = await fetch(`${s.url}/api/v1/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
        body: JSON.stringify({ email: `flags.${Date.now()}@example.com`, password: 'long enough password' }),
      });
      assert.equal(res.status, 201);
      const session = res.headers.getSetCookie().find((c) => c.startsWith('vis_session='))!;
      assert.match(session, /HttpOnly/);
      assert.match(session, /SameSite=Lax/);
      assert.match(session, /Secure/);
      assert.match(session, /Path=\//);
    } finally {
      await s.close();
    }
  });
});

describe('refused page forms', () => {
  let t: TestApp;
  let cookie: string;
  before(async () => {
    t = await startApp({ env: { API_KEY_MIN_PLAN: 'free' } });
    const u = await userWithKey(t, 'pro');
    cookie = await login(t, u.email, u.password);
  });
  after(async () => t.close());

  const post = (headers: Record<string, string>) =>
    fetch(`${t.url}/confirm-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
      body: 'token=abc',
    });

  test('a page form without its CSRF token or from another Origin answers 403 with a page, not 500', async () => {
    for (const headers of [{ origin: t.url }, { origin: 'https://evil.example' }]) {
      const res = await post(headers);
      assert.equal(res.status, 403, `origin ${headers.origin}`);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await res.text(), /Not allowed/);
    }
  });
});
