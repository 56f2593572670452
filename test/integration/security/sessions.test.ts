import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { login, uniqueEmail, userWithKey, type TestUser } from '../../helpers/access.ts';
import { cookieFrom, formFields } from '../../helpers/mcp.ts';
import { send } from '../../helpers/users.ts';

// Session fixation and session lifetime: a session id the client already holds
// (made up, or a real one planted by an attacker) is never adopted by a login;
// every login issues a new id; logout ends the session on the server. Cookie
// flags of every cookie the service sets. The Secure flag behind TLS is in
// test/integration/web/csrf.test.ts ("cookie flags").

const PASSWORD = 'correct horse battery';
const sessionOf = (res: Response) => cookieFrom(res, 'vis_session')?.split('=')[1];
const whoIs = async (t: TestApp, token: string) => getJson(`${t.url}/api/v1/account`, { headers: { cookie: `vis_session=${token}` } });

describe('sessions: fixation, logout, expiry, cookie flags', () => {
  const clock = new TestClock(new Date('2031-03-01T12:00:00.000Z'));
  let t: TestApp;
  let victim: TestUser;
  let attacker: TestUser;
  before(async () => {
    t = await startApp({ clock });
    victim = await userWithKey(t, 'pro', 'victim');
    attacker = await userWithKey(t, 'free', 'attacker');
  });
  after(async () => t?.close());

  const loginWith = (cookie: string, body: Record<string, string>) =>
    fetch(`${t.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });

  test('a made-up session id sent before login is not adopted', async () => {
    const planted = randomBytes(32).toString('base64url');
    const res = await loginWith(`vis_session=${planted}`, { email: victim.email, password: PASSWORD });
    assert.equal(res.status, 200);
    const issued = sessionOf(res)!;
    assert.match(issued, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(issued, planted);
    assert.equal((await whoIs(t, planted)).status, 401);
    assert.equal((await whoIs(t, issued)).body.account.email, victim.email);
  });

  test("an attacker's real session planted in the victim's browser stays the attacker's", async () => {
    const attackerCookie = await login(t, attacker.email, PASSWORD);
    const planted = attackerCookie.split(';')[0]!.split('=')[1]!;
    for (const entry of ['json', 'signup', 'oauth'] as const) {
      let issued: string;
      let email = victim.email;
      if (entry === 'json') {
        const res = await loginWith(`vis_session=${planted}`, { email: victim.email, password: PASSWORD });
        assert.equal(res.status, 200);
        issued = sessionOf(res)!;
      } else if (entry === 'signup') {
        email = uniqueEmail('fixation');
        const res = await fetch(`${t.url}/api/v1/auth/signup`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: `vis_session=${planted}` },
          body: JSON.stringify({ email, password: PASSWORD }),
        });
        assert.equal(res.status, 201);
        issued = sessionOf(res)!;
      } else {
        // The MCP authorization server's own sign-in form (a fresh browser, with the planted cookie).
        const page = await fetch(`${t.url}/oauth/login?return_to=${encodeURIComponent('/oauth/authorize?client_id=x')}`);
        assert.equal(page.status, 200);
        const csrf = cookieFrom(page, 'oauth_csrf')!;
        const res = await fetch(`${t.url}/oauth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url, cookie: `${csrf}; vis_session=${planted}` },
          body: new URLSearchParams({ ...formFields(await page.text()), email: victim.email, password: PASSWORD }),
          redirect: 'manual',
        });
        assert.equal(res.status, 303);
        issued = sessionOf(res)!;
      }
      assert.ok(issued && issued !== planted, `${entry}: a new session id`);
      assert.equal((await whoIs(t, issued)).body.account.email, email, entry);
      assert.equal((await whoIs(t, planted)).body.account.email, attacker.email, `${entry}: the planted session was not upgraded`);
    }
  });

  test('every login issues a new session id; logout ends it on the server (the old cookie gets 401)', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) ids.add(sessionOf(await loginWith('', { email: victim.email, password: PASSWORD }))!);
    assert.equal(ids.size, 3);
    const cookie = await login(t, victim.email, PASSWORD);
    const token = cookie.split(';')[0]!.split('=')[1]!;
    // Used once (and so remembered by the credential cache) before logging out.
    assert.equal((await whoIs(t, token)).status, 200);
    const out = await fetch(`${t.url}/api/v1/auth/logout`, {
      method: 'POST',
      headers: { cookie, origin: t.url, 'x-csrf-token': /vis_csrf=([^;]+)/.exec(cookie)![1]! },
    });
    assert.equal(out.status, 200);
    const cleared = out.headers.getSetCookie().find((c) => c.startsWith('vis_session='))!;
    assert.match(cleared, /^vis_session=; /);
    assert.match(cleared, /Expires=Thu, 01 Jan 1970 00:00:00 GMT/);
    assert.match(cleared, /Path=\//);
    // The server forgot it: a client that keeps the old cookie is not signed in anywhere.
    const old = await whoIs(t, token);
    assert.equal(old.status, 401);
    assert.equal((await send(`${t.api}/watchlist`, 'PUT', { cookie, origin: t.url }, { vendors: [] })).status, 401);
    const page = await fetch(`${t.url}/account`, { headers: { cookie }, redirect: 'manual' });
    assert.equal(page.status, 303);
    assert.match(page.headers.get('location')!, /^\/login\?next=/);
    const row = await t.store.db.selectFrom('sessions').select('token_hash').where('user_id', '=', victim.userId).execute();
    assert.ok(!row.some((r) => r.token_hash === token), 'no row holds the token itself');
  });

  test('a session ends when it expires (30 days)', async () => {
    const token = sessionOf(await loginWith('', { email: victim.email, password: PASSWORD }))!;
    assert.equal((await whoIs(t, token)).status, 200);
    clock.advance(30 * 24 * 3600 * 1000 + 1000);
    assert.equal((await whoIs(t, token)).status, 401);
  });

  test('cookie flags: session HttpOnly, SameSite=Lax, Path=/, expiry; CSRF cookies HttpOnly and scoped; no Secure on plain http', async () => {
    const res = await loginWith('', { email: victim.email, password: PASSWORD });
    const set = res.headers.getSetCookie();
    const session = set.find((c) => c.startsWith('vis_session='))!;
    const attrs = session.split('; ').slice(1);
    assert.ok(attrs.includes('HttpOnly'), session);
    assert.ok(attrs.includes('SameSite=Lax'), session);
    assert.ok(attrs.includes('Path=/'), session);
    assert.ok(!attrs.includes('Secure'), 'plain http: no Secure');
    assert.ok(!attrs.some((a) => a.startsWith('Domain=')), 'host-only cookie');
    const expires = Date.parse(attrs.find((a) => a.startsWith('Expires='))!.slice(8));
    assert.ok(Math.abs(expires - (clock.now().getTime() + 30 * 24 * 3600 * 1000)) < 5000, 'expires with the session');
    assert.match(set.find((c) => c.startsWith('vis_csrf='))!, /^vis_csrf=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    const oauth = await fetch(`${t.url}/oauth/login?return_to=${encodeURIComponent('/oauth/authorize?client_id=x')}`);
    assert.match(
      oauth.headers.getSetCookie().find((c) => c.startsWith('oauth_csrf='))!,
      /^oauth_csrf=[^;]+; Path=\/oauth; HttpOnly; SameSite=Lax; Max-Age=3600$/,
    );
    // The page is in the site's layout, whose log-out form carries the site's token.
    assert.match(oauth.headers.getSetCookie().find((c) => c.startsWith('vis_csrf='))!, /^vis_csrf=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    // X-Forwarded-Proto is not believed without TRUST_PROXY (the request came over plain http).
    const spoofed = await fetch(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ email: victim.email, password: PASSWORD }),
    });
    assert.ok(!spoofed.headers.getSetCookie().some((c) => /;\s*Secure/.test(c)));
  });
});
