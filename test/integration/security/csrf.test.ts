import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { csrfTokenOf, login, userWithKey, type TestUser } from '../../helpers/access.ts';

// CSRF against every state-changing route a web session may call, found in
// /openapi.json (operations that accept the session cookie, with an unsafe
// method) plus logout: cross-origin form posts, JSON posts with a foreign, null
// or missing Origin, text/plain "simple" posts, and the right Origin without the
// token. All refused, nothing changes; API-key requests are unaffected.
// test/integration/web/csrf.test.ts covers the token mechanics (wrong token, cookie-less
// token, form field, login CSRF); test/integration/mcp/oauth-server.test.ts the consent form.

describe('CSRF on every state-changing session route', () => {
  let t: TestApp;
  let u: TestUser;
  let cookie: string;
  let token: string;
  let keyId: string;
  let targets: { method: string; path: string; body: unknown }[];

  before(async () => {
    t = await startApp({ env: { WEB_ORIGINS: 'https://dashboard.example.com' } });
    u = await userWithKey(t, 'pro');
    keyId = u.keyId;
    cookie = await login(t, u.email, u.password);
    token = csrfTokenOf(cookie);
    const put = await getJson(`${t.api}/watchlist`, {
      method: 'PUT',
      headers: { 'x-api-key': u.secret, 'content-type': 'application/json' },
      body: JSON.stringify({ vendors: ['github'] }),
    });
    assert.equal(put.status, 200);

    const doc = (await getJson(`${t.url}/openapi.json`)).body;
    const bodies: Record<string, unknown> = {
      replaceWatchlist: { vendors: [] },
      updateNotificationPreferences: { in_app: { enabled: false } },
      getDashboardFavorites: { vendors: ['github'] },
      sendTestAlert: { channel: 'in_app' },
      createApiKey: { name: 'csrf' },
    };
    targets = [];
    for (const [path, ops] of Object.entries<Record<string, { operationId?: string; security?: Record<string, unknown>[] }>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!['post', 'put', 'patch', 'delete'].includes(method) || !op.operationId) continue;
        const security = op.security ?? doc.security ?? [];
        if (!security.some((s: Record<string, unknown>) => 'sessionCookie' in s)) continue;
        const concrete = path.replace('{vendor}', 'github').replace('{id}', op.operationId === 'revokeApiKey' ? keyId : 'x');
        targets.push({ method: method.toUpperCase(), path: `${t.url}${concrete}`, body: bodies[op.operationId] });
      }
    }
    if (!targets.some((x) => x.path.endsWith('/auth/logout'))) targets.push({ method: 'POST', path: `${t.url}/api/v1/auth/logout`, body: undefined });
  });
  after(async () => t?.close());

  const state = async () => {
    const h = { 'x-api-key': u.secret };
    const [w, p, k] = await Promise.all([
      getJson(`${t.api}/watchlist`, { headers: h }),
      getJson(`${t.api}/notification-preferences`, { headers: h }),
      getJson(`${t.url}/api/v1/account/keys`, { headers: h }),
    ]);
    return { vendors: w.body.vendors, prefs: p.body.preferences, keys: k.body.keys.map((x: { id: string }) => x.id) };
  };

  test('cross-site requests with the session cookie are refused, whatever their form', async () => {
    assert.ok(targets.length >= 14, `${targets.length} targets`);
    const before = await state();
    const attempts: { name: string; headers: Record<string, string>; body: (b: unknown) => string | undefined; errors: string[] }[] = [
      {
        name: 'cross-origin form post, no token',
        headers: { origin: 'https://evil.example.net', 'content-type': 'application/x-www-form-urlencoded' },
        body: () => 'name=x&vendors=github',
        errors: ['origin_not_allowed'],
      },
      {
        name: 'cross-origin JSON with the right token',
        headers: { origin: 'https://evil.example.net', 'content-type': 'application/json', 'x-csrf-token': token },
        body: (b) => JSON.stringify(b ?? {}),
        errors: ['origin_not_allowed'],
      },
      {
        name: 'look-alike origin',
        headers: { origin: 'https://dashboard.example.com.evil.net', 'content-type': 'application/json', 'x-csrf-token': token },
        body: (b) => JSON.stringify(b ?? {}),
        errors: ['origin_not_allowed'],
      },
      {
        name: 'Origin: null (sandboxed frame, data: URL)',
        headers: { origin: 'null', 'content-type': 'application/json' },
        body: (b) => JSON.stringify(b ?? {}),
        errors: ['origin_not_allowed'],
      },
      { name: 'no Origin at all', headers: { 'content-type': 'application/json' }, body: (b) => JSON.stringify(b ?? {}), errors: ['origin_not_allowed'] },
      {
        name: 'text/plain simple request carrying JSON',
        headers: { origin: 'https://evil.example.net', 'content-type': 'text/plain' },
        body: (b) => JSON.stringify(b ?? {}),
        errors: ['origin_not_allowed', 'unsupported_media_type'],
      },
      {
        name: 'own Origin without the token',
        headers: { origin: t.url, 'content-type': 'application/json' },
        body: (b) => JSON.stringify(b ?? {}),
        errors: ['csrf_token_invalid'],
      },
      {
        name: 'allowed web origin without the token (form)',
        headers: { origin: 'https://dashboard.example.com', 'content-type': 'application/x-www-form-urlencoded' },
        body: () => 'name=x',
        errors: ['csrf_token_invalid'],
      },
    ];
    for (const target of targets) {
      for (const a of attempts) {
        const r = await getJson(target.path, { method: target.method, headers: { cookie, ...a.headers }, body: a.body(target.body) });
        const where = `${target.method} ${target.path.replace(t.url, '')}: ${a.name} -> ${r.status} ${JSON.stringify(r.body)}`;
        assert.ok(r.status === 403 || r.status === 415, where);
        assert.ok(a.errors.includes(r.body.error) || (r.status === 415 && a.errors.includes('unsupported_media_type')), where);
      }
    }
    // Nothing changed, and the session still works (logout was refused too).
    assert.deepEqual(await state(), before);
    assert.equal((await getJson(`${t.url}/api/v1/account`, { headers: { cookie } })).status, 200);
  });

  test('the same requests with the token and an allowed Origin go through; API keys need neither', async () => {
    const ok = await getJson(`${t.api}/watchlist`, {
      method: 'PUT',
      headers: { cookie, origin: 'https://dashboard.example.com', 'content-type': 'application/json', 'x-csrf-token': token },
      body: JSON.stringify({ vendors: ['github', 'openai'] }),
    });
    assert.equal(ok.status, 200);
    // A key is no ambient credential: a foreign Origin (a page using its own key) is fine.
    for (const origin of ['https://evil.example.net', 'null']) {
      const r = await getJson(`${t.api}/watchlist/cloudflare`, { method: 'POST', headers: { 'x-api-key': u.secret, origin } });
      assert.equal(r.status, 200, origin);
    }
    const form = await getJson(`${t.api}/watchlist/stripe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${u.secret}`, origin: 'https://evil.example.net', 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.status, 200);
    assert.deepEqual((await getJson(`${t.api}/watchlist`, { headers: { 'x-api-key': u.secret } })).body.vendors, ['github', 'openai', 'cloudflare', 'stripe']);
  });

  test('login and signup from a foreign page are refused (login CSRF)', async () => {
    for (const path of ['/api/v1/auth/login', '/api/v1/auth/signup']) {
      const r = await getJson(`${t.url}${path}`, {
        method: 'POST',
        headers: { origin: 'https://evil.example.net', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: u.email, password: u.password }).toString(),
      });
      assert.equal(r.status, 403, path);
      assert.equal(r.body.error, 'origin_not_allowed');
      assert.ok(!r.headers.get('set-cookie')?.includes('vis_session='), 'no session cookie');
    }
  });
});
