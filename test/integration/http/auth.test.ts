import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { csrfTokenOf, login, sessionCookie, uniqueEmail, userWithKey, type TestUser } from '../../helpers/access.ts';

// Every authentication path of docs/access.md against a real listening server.

const WEB = 'https://dashboard.example.com';

describe('authentication, switch off (anonymous tier allowed)', () => {
  let t: TestApp;
  let pro: TestUser;
  before(async () => {
    t = await startApp({ env: { VENDOR_API_REQUIRE_API_KEY: 'false', WEB_ORIGINS: WEB } });
    pro = await userWithKey(t, 'pro');
  });
  after(async () => t.close());

  test('no credentials: anonymous tier (7d window, no compliance)', async () => {
    const r = await getJson(`${t.api}/incidents?timePeriod=90d`);
    assert.equal(r.status, 200);
    assert.equal(r.body.dataWindow.applied, '7d');
    assert.equal(r.body.dataWindow.capped, true);
    const c = await getJson(`${t.api}/vendors/github/compliance`);
    assert.equal(c.status, 403);
    assert.equal(c.body.error, 'plan_required');
    assert.equal(c.body.currentPlan, 'anonymous');
    assert.match(c.body.hint, /Standard/);
  });

  test('X-API-Key and Authorization: Bearer both authenticate with the key owner plan', async () => {
    const variants: Record<string, string>[] = [
      { 'x-api-key': pro.secret },
      { authorization: `Bearer ${pro.secret}` },
      { authorization: `bearer ${pro.secret}` },
    ];
    for (const headers of variants) {
      const r = await getJson(`${t.api}/incidents?timePeriod=90d`, { headers });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.dataWindow.applied, '90d');
      assert.equal(r.body.dataWindow.capped, false);
      const c = await getJson(`${t.api}/vendors/github/compliance`, { headers });
      assert.equal(c.status, 200);
    }
  });

  test('plan gates follow the key owner plan: compliance from Standard, history window per plan', async () => {
    const expected = { free: ['7d', 403], standard: ['30d', 200], pro: ['90d', 200], enterprise: ['all', 200], vip: ['all', 200] } as const;
    for (const [plan, [window, compliance]] of Object.entries(expected)) {
      const u = await userWithKey(t, plan as keyof typeof expected);
      const headers = { 'x-api-key': u.secret };
      const c = await getJson(`${t.api}/vendors/github/compliance`, { headers });
      assert.equal(c.status, compliance, plan);
      if (compliance === 403) {
        assert.equal(c.body.error, 'plan_required');
        assert.equal(c.body.currentPlan, plan);
        assert.ok(c.body.hint);
      }
      const legacy = await getJson(`${t.api}/github-compliance`, { headers });
      assert.equal(legacy.status, compliance, `${plan} legacy alias`);
      const w = await getJson(`${t.api}/incidents?timePeriod=365d`, { headers });
      assert.equal(w.body.dataWindow.applied, window === 'all' ? '365d' : window, plan);
      assert.equal(w.body.dataWindow.capped, window !== 'all', plan);
    }
  });

  test('a present but wrong key is 401 with the contract body, on every route kind', async () => {
    const wrong: Record<string, string>[] = [
      { 'x-api-key': 'vis_notARealKeyButWellFormed0123456789ABCD' },
      { 'x-api-key': 'garbage' },
      { 'x-api-key': '' },
      { authorization: 'Bearer vis_notARealKeyButWellFormed0123456789ABCD' },
      { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      { authorization: 'Bearer' },
      // A correct key with one character changed.
      { 'x-api-key': pro.secret.slice(0, -1) + (pro.secret.endsWith('a') ? 'b' : 'a') },
    ];
    for (const headers of wrong) {
      for (const path of [`${t.api}/incidents`, `${t.api}/vendor-list`, `${t.url}/api/v1/account`]) {
        const r = await getJson(path, { headers });
        assert.equal(r.status, 401, `${path} ${JSON.stringify(headers)}`);
        assert.equal(r.body.success, false);
        assert.equal(r.body.error, 'unauthorized');
        assert.match(r.body.message, /valid API key is required/);
        assert.ok(r.body.requestId);
      }
    }
  });

  test('a wrong key is 401 even alongside a valid session', async () => {
    const cookie = await login(t, pro.email, pro.password);
    const r = await getJson(`${t.api}/incidents`, { headers: { cookie, 'x-api-key': 'vis_wrongwrongwrongwrongwrongwrongwrong' } });
    assert.equal(r.status, 401);
  });

  test('per-user endpoints need a key or a session even with the switch off', async () => {
    const r = await getJson(`${t.url}/api/v1/account`);
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'unauthorized');
    const k = await getJson(`${t.url}/api/v1/account`, { headers: { 'x-api-key': pro.secret } });
    assert.equal(k.status, 200);
    assert.equal(k.body.account.plan, 'pro');
  });
});

describe('authentication, VENDOR_API_REQUIRE_API_KEY on', () => {
  let t: TestApp;
  let free: TestUser;
  before(async () => {
    t = await startApp({ env: { VENDOR_API_REQUIRE_API_KEY: 'true', WEB_ORIGINS: `${WEB},http://localhost:5173` } });
    free = await userWithKey(t, 'free');
  });
  after(async () => t.close());

  test('no key and no Origin: 403 direct_api_not_allowed with a hint', async () => {
    const r = await getJson(`${t.api}/incidents`);
    assert.equal(r.status, 403);
    assert.equal(r.body.success, false);
    assert.equal(r.body.error, 'direct_api_not_allowed');
    assert.match(r.body.message, /not allowed/);
    assert.match(r.body.hint, /api\/v1\/account\/keys/);
    assert.match(r.body.hint, /X-API-Key/);
  });

  test('a foreign Origin is a direct call too', async () => {
    const r = await getJson(`${t.api}/incidents`, { headers: { origin: 'https://evil.example.net' } });
    assert.equal(r.status, 403);
    assert.equal(r.body.error, 'direct_api_not_allowed');
  });

  test('an Origin from WEB_ORIGINS or the service itself gets the anonymous tier', async () => {
    for (const origin of [WEB, 'http://localhost:5173', t.url]) {
      const r = await getJson(`${t.api}/incidents?timePeriod=30d`, { headers: { origin } });
      assert.equal(r.status, 200, origin);
      assert.equal(r.body.dataWindow.applied, '7d');
    }
    // Same-origin browser GETs carry no Origin but do carry Sec-Fetch-Site.
    const same = await getJson(`${t.api}/incidents`, { headers: { 'sec-fetch-site': 'same-origin' } });
    assert.equal(same.status, 200);
    const cross = await getJson(`${t.api}/incidents`, { headers: { 'sec-fetch-site': 'cross-site' } });
    assert.equal(cross.status, 403);
  });

  test('a valid key passes without Origin', async () => {
    const r = await getJson(`${t.api}/incidents`, { headers: { authorization: `Bearer ${free.secret}` } });
    assert.equal(r.status, 200);
  });

  test('a web session passes without Origin on reads', async () => {
    const cookie = await login(t, free.email, free.password);
    const r = await getJson(`${t.api}/incidents`, { headers: { cookie } });
    assert.equal(r.status, 200);
  });

  test('health and the OpenAPI document stay open', async () => {
    assert.equal((await getJson(`${t.url}/healthz`)).status, 200);
    assert.equal((await getJson(`${t.url}/openapi.json`)).status, 200);
  });
});

describe('web sessions', () => {
  let t: TestApp;
  before(async () => {
    t = await startApp({ env: { WEB_ORIGINS: WEB, API_KEY_MIN_PLAN: 'free' } });
  });
  after(async () => t.close());

  test('signup sets an HttpOnly, SameSite=Lax session cookie and opens a Free account', async () => {
    const email = uniqueEmail('signup');
    const res = await fetch(`${t.url}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'long enough password' }),
    });
    assert.equal(res.status, 201);
    const body = (await res.json()) as any;
    assert.equal(body.account.email, email);
    assert.equal(body.account.plan, 'free');
    const set = res.headers.getSetCookie().find((c) => c.startsWith('vis_session='))!;
    assert.match(set, /HttpOnly/i);
    assert.match(set, /SameSite=Lax/i);
    assert.match(set, /Path=\//);
    assert.doesNotMatch(set, /Secure/i, 'plain HTTP without a trusted proxy: no Secure flag');
    const cookie = sessionCookie(res);
    const me = await getJson(`${t.url}/api/v1/account`, { headers: { cookie } });
    assert.equal(me.status, 200);
    assert.equal(me.body.account.email, email);

    const dup = await getJson(`${t.url}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: email.toUpperCase(), password: 'another password' }),
    });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.error, 'conflict');
  });

  test('signup and login accept form bodies; bad input is 400', async () => {
    const email = uniqueEmail('form');
    const res = await fetch(`${t.url}/api/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: 'form password 1' }).toString(),
    });
    assert.equal(res.status, 201);
    const lg = await fetch(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password: 'form password 1' }).toString(),
    });
    assert.equal(lg.status, 200);
    assert.ok(sessionCookie(lg));
    for (const body of [{ email: 'not-an-email', password: 'long enough password' }, { email: uniqueEmail(), password: 'short' }, { email }]) {
      const r = await getJson(`${t.url}/api/v1/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error, 'invalid_parameter');
    }
  });

  test('wrong password is 401; login from a foreign Origin is refused', async () => {
    const u = await userWithKey(t, 'standard');
    const bad = await getJson(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: u.email, password: 'wrong password' }),
    });
    assert.equal(bad.status, 401);
    assert.equal(bad.body.message, 'Invalid email or password');
    assert.equal(bad.headers.get('set-cookie'), null);
    const unknown = await getJson(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail('nobody'), password: 'whatever password' }),
    });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.message, bad.body.message);
    const foreign = await getJson(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example.net' },
      body: JSON.stringify({ email: u.email, password: u.password }),
    });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.error, 'origin_not_allowed');
  });

  test('state-changing session requests need an allowed Origin (CSRF)', async () => {
    const u = await userWithKey(t, 'pro');
    const cookie = await login(t, u.email, u.password);
    const post = (origin?: string) =>
      getJson(`${t.url}/api/v1/account/keys`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-csrf-token': csrfTokenOf(cookie), ...(origin ? { origin } : {}) },
        body: JSON.stringify({ name: 'from browser' }),
      });
    const none = await post();
    assert.equal(none.status, 403);
    assert.equal(none.body.error, 'origin_not_allowed');
    assert.equal((await post('https://evil.example.net')).status, 403);
    assert.equal((await post(WEB)).status, 201);
    assert.equal((await post(t.url)).status, 201);
  });

  test('logout ends the session', async () => {
    const u = await userWithKey(t, 'free');
    const cookie = await login(t, u.email, u.password);
    assert.equal((await getJson(`${t.url}/api/v1/account`, { headers: { cookie } })).status, 200);
    const out = await fetch(`${t.url}/api/v1/auth/logout`, { method: 'POST', headers: { cookie, origin: WEB, 'x-csrf-token': csrfTokenOf(cookie) } });
    assert.equal(out.status, 200);
    assert.match(out.headers.getSetCookie().join(';'), /vis_session=;/);
    assert.equal((await getJson(`${t.url}/api/v1/account`, { headers: { cookie } })).status, 401);
    // A session cookie that no longer works is simply no session on public routes.
    assert.equal((await getJson(`${t.api}/vendor-list`, { headers: { cookie } })).status, 200);
  });

  test('behind a trusted TLS proxy the cookie is Secure', async () => {
    const p = await startApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const res = await fetch(`${p.url}/api/v1/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
        body: JSON.stringify({ email: uniqueEmail('tls'), password: 'long enough password' }),
      });
      assert.equal(res.status, 201);
      assert.match(res.headers.getSetCookie().join(';'), /Secure/);
    } finally {
      await p.close();
    }
  });
});
