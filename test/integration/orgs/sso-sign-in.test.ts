import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, type TestApp } from '../../helpers/app.ts';
import { startIdp, type TestIdp } from '../../helpers/oidc-idp.ts';
import { callback, Jar, setUpSso, signInWithSso, startSso, throughIdp, txtRecords } from '../../helpers/sso.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// Signing in with an organisation's identity provider against a real OpenID Provider on
// loopback (docs/teams.md, "Single sign-on"): just-in-time accounts and memberships, the
// session acting for the organisation, and every check of the callback, each refusal a
// 4xx page with its reason and never a 500 or a stack. Attack list: a replayed answer, a
// state from another browser, a wrong audience, an ID token signed with an unpublished
// key, an expired ID token, email_verified false, an e-mail outside the verified domains,
// an open redirect through `next`, garbage and huge query parameters, a provider error.

const DOMAIN = 'corp-sso.example';
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

describe('single sign-on', () => {
  let t: TestApp;
  let idp: TestIdp;
  let owner: TestUser;
  let ownerCookie: string;
  let orgId: string;
  const txt = txtRecords();
  const s = (c: string) => ({ cookie: c, origin: t.url });
  const account = (id: string, email = `${id}@${DOMAIN}`, emailVerified = true) => {
    idp.accounts.set(id, { email, emailVerified });
    return id;
  };
  const noStack = (html: string) => assert.ok(!/\bat [\w.<>]+ \(|node:internal|\.ts:\d+/.test(html), html.slice(0, 400));

  before(async () => {
    t = await startApp({ env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' }, resolveTxt: txt.resolveTxt, clock });
    idp = await startIdp({ redirectUris: [`${t.url}/auth/sso/callback`] });
    owner = await createUser(t, 'free');
    ownerCookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(ownerCookie), { name: 'SSO sign-in team' })).body.organisation.id;
    await setUpSso(t, idp, ownerCookie, orgId, DOMAIN, txt.records);
  });
  after(async () => {
    await t.close();
    await idp.close();
  });

  test('first sign-in makes the account and the membership with the default role; the session acts for the organisation', async () => {
    const id = account('ada');
    const r = await signInWithSso(t, idp, `ada@${DOMAIN}`, id, new Jar(), '/team');
    assert.equal(r.status, 303, r.html.slice(0, 400));
    assert.equal(r.location, '/team');
    assert.ok(r.session);
    const me = await getJson(`${t.url}/api/v1/account`, { headers: { cookie: r.session! } });
    assert.equal(me.body.account.email, `ada@${DOMAIN}`);
    assert.equal(me.body.organisation.id, orgId);
    assert.equal(me.body.organisation.role, 'editor');
    const joined = (await send(`${t.url}/api/v1/orgs/${orgId}/audit?action=sso.member_joined`, 'GET', s(ownerCookie))).body.entries;
    assert.equal(joined.length, 1);
    assert.equal(joined[0].after.role, 'editor');
    // A second sign-in finds the same account and membership.
    const again = await signInWithSso(t, idp, `ADA@${DOMAIN}`, id);
    assert.equal(again.status, 303);
    assert.equal((await send(`${t.url}/api/v1/orgs/${orgId}/audit?action=sso.member_joined`, 'GET', s(ownerCookie))).body.entries.length, 1);
    assert.equal((await t.repos.organisations.members(orgId)).filter((m) => m.email === `ada@${DOMAIN}`).length, 1);
  });

  test('a replayed answer and a state from another browser are refused', async () => {
    const id = account('ben');
    const first = await signInWithSso(t, idp, `ben@${DOMAIN}`, id);
    assert.equal(first.status, 303);
    const replay = await callback(first.jar, first.callbackUrl);
    assert.equal(replay.status, 400);
    assert.match(replay.html, /expired or was already used/);
    assert.equal(replay.session, null);

    // Started in one browser, answered in another (no cookie, or another browser's cookie).
    idp.autoLogin = id;
    const jarA = new Jar();
    const started = await startSso(t, jarA, `ben@${DOMAIN}`);
    const back = await throughIdp(t, started.authorizationUrl!);
    const otherJar = new Jar();
    await startSso(t, otherJar, `ben@${DOMAIN}`);
    const other = await callback(otherJar, back);
    assert.equal(other.status, 400);
    assert.match(other.html, /started in another browser/);
    assert.equal((await callback(new Jar(), back)).status, 400);
    // The right browser still finishes it: the foreign attempts did not use it up.
    assert.equal((await callback(jarA, back)).status, 303);
  });

  test('ID token checks: wrong audience, unpublished signing key, expired token', async () => {
    const id = account('cy');
    try {
      idp.wrongAudience = true;
      const aud = await signInWithSso(t, idp, `cy@${DOMAIN}`, id);
      assert.equal(aud.status, 401, aud.html.slice(0, 300));
      assert.match(aud.html, /&quot;aud&quot; claim is wrong \(it was issued for another client\)/);
      assert.equal(aud.session, null);
      noStack(aud.html);
      idp.wrongAudience = false;

      idp.rogueKey = true;
      const rogue = await signInWithSso(t, idp, `cy@${DOMAIN}`, id);
      assert.equal(rogue.status, 401, rogue.html.slice(0, 300));
      assert.match(rogue.html, /failed a check/);
      idp.rogueKey = false;

      // The ID token lives 1 s; the service's clock is 2 minutes ahead (beyond the 30 s tolerance).
      idp.idTokenTtl = 1;
      offsetMs = 120_000;
      const expired = await signInWithSso(t, idp, `cy@${DOMAIN}`, id);
      assert.equal(expired.status, 401, expired.html.slice(0, 300));
      assert.match(expired.html, /the ID token has expired/);
    } finally {
      idp.wrongAudience = false;
      idp.rogueKey = false;
      idp.idTokenTtl = 300;
      offsetMs = 0;
    }
    assert.equal((await signInWithSso(t, idp, `cy@${DOMAIN}`, id)).status, 303);
  });

  test('a provider that rotates its signing key: the next sign-in follows it', async () => {
    const id = account('dee');
    const before = idp.signingKid();
    await idp.rotate();
    assert.notEqual(idp.signingKid(), before);
    const r = await signInWithSso(t, idp, `dee@${DOMAIN}`, id);
    assert.equal(r.status, 303, r.html.slice(0, 300));
  });

  test('e-mail checks: unverified by the provider, outside the verified domains; unknown domains at the start', async () => {
    const unverified = await signInWithSso(t, idp, `eve@${DOMAIN}`, account('eve', `eve@${DOMAIN}`, false));
    assert.equal(unverified.status, 403);
    assert.match(unverified.html, /has not verified/);
    const foreign = await signInWithSso(t, idp, `fay@${DOMAIN}`, account('fay', 'fay@elsewhere.example'));
    assert.equal(foreign.status, 403);
    assert.match(foreign.html, /elsewhere\.example is not a verified domain/);
    assert.equal(await t.repos.users.findByEmail('fay@elsewhere.example'), null);
    // Unknown and unverified domains, and no address at all.
    await send(`${t.url}/api/v1/orgs/${orgId}/sso/domains`, 'POST', s(ownerCookie), { domain: 'pending.example' });
    for (const email of ['gus@unknown.example', 'gus@pending.example']) {
      const r = await startSso(t, new Jar(), email);
      assert.equal(r.status, 404, email);
      assert.match(r.html, /not set up for/);
    }
    for (const email of ['', 'not-an-address', `${'x'.repeat(300)}@${DOMAIN}`]) assert.equal((await startSso(t, new Jar(), email)).status, 400);
  });

  test('the return path stays on this site', async () => {
    const id = account('hal');
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '/account\r\nSet-Cookie: a=b']) {
      const r = await signInWithSso(t, idp, `hal@${DOMAIN}`, id, new Jar(), next);
      assert.equal(r.status, 303);
      assert.equal(r.location, '/account', next);
    }
  });

  test('the start form needs its CSRF token and this site as Origin', async () => {
    const body = new URLSearchParams({ email: `ada@${DOMAIN}` }).toString();
    const noToken = await fetch(`${t.url}/auth/sso`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url }, body });
    assert.equal(noToken.status, 403);
    const jar = new Jar();
    jar.take(await fetch(`${t.url}/login`));
    const foreign = await fetch(`${t.url}/auth/sso`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', cookie: jar.header() },
      body: new URLSearchParams({ _csrf: jar.cookies.get('vis_csrf')!, email: `ada@${DOMAIN}` }).toString(),
    });
    assert.equal(foreign.status, 403);
  });

  test('garbage, huge and hostile callback queries are 4xx pages, never a 500 or a stack', async () => {
    const id = account('ivy');
    idp.autoLogin = id;
    const jar = new Jar();
    const started = await startSso(t, jar, `ivy@${DOMAIN}`);
    const state = new URL(started.authorizationUrl!).searchParams.get('state')!;
    const cb = `${t.url}/auth/sso/callback`;
    const cases = [
      '',
      '?code=abc',
      '?state=',
      '?state=short',
      `?state=${'a'.repeat(5000)}&code=x`,
      `?state=${state}&code=${'c'.repeat(5000)}`,
      '?state[]=a&state[]=b&code=x',
      '?state=%00%01%02aaaaaaaaaaaaaaaaaaaa&code=x',
      `?state=${encodeURIComponent('<script>alert(1)</script>aaaaaaaa')}&code=x`,
      '?state=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA&code=x',
      `?state=${state}&state=${state}&code=x`,
    ];
    for (const q of cases) {
      const r = await callback(jar, `${cb}${q}`);
      assert.ok(r.status >= 400 && r.status < 500, `${q.slice(0, 60)}: ${r.status}`);
      assert.match(r.html, /Single sign-on failed/);
      assert.ok(!r.html.includes('<script>alert'), q);
      noStack(r.html);
    }
    // A provider's error answer for a real state: the reason is shown, the state is used up.
    const denied = await callback(jar, `${cb}?state=${state}&error=access_denied&error_description=${encodeURIComponent('User cancelled <b>')}`);
    assert.equal(denied.status, 400);
    assert.match(denied.html, /did not sign you in \(access_denied: User cancelled &lt;b&gt;\)/);
    assert.equal((await callback(jar, `${cb}?state=${state}&code=x`)).status, 400);
  });

  test('an expired pending sign-in is refused', async () => {
    const id = account('jon');
    idp.autoLogin = id;
    const jar = new Jar();
    const started = await startSso(t, jar, `jon@${DOMAIN}`);
    const back = await throughIdp(t, started.authorizationUrl!);
    offsetMs = 11 * 60_000;
    try {
      const r = await callback(jar, back);
      assert.equal(r.status, 400);
      assert.match(r.html, /expired/);
    } finally {
      offsetMs = 0;
    }
  });

  test('SSO required: members with a verified domain cannot use a password; owners can, audited', async () => {
    const put = await send(`${t.url}/api/v1/orgs/${orgId}/sso`, 'PUT', s(ownerCookie), {
      issuer: idp.issuer,
      clientId: idp.clientId,
      defaultRole: 'editor',
      ssoRequired: true,
      enabled: true,
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    // A password account at the domain joins by SSO (linked by its verified address).
    const member = await t.app.services.accounts.createUser({ email: `kim@${DOMAIN}`, password: 'correct horse battery staple 42', plan: 'free' });
    assert.equal((await signInWithSso(t, idp, `kim@${DOMAIN}`, account('kim'))).status, 303);
    const login = (email: string, password: string) =>
      fetch(`${t.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    const refused = await login(`kim@${DOMAIN}`, 'correct horse battery staple 42');
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: string }).error, 'sso_required');
    // A wrong password is still just wrong (no hint about SSO).
    assert.equal((await login(`kim@${DOMAIN}`, 'wrong password here 123')).status, 401);
    assert.ok(member.id);

    // An owner whose address is at the domain keeps password sign-in (break-glass), audited.
    const boss = await t.app.services.accounts.createUser({ email: `boss@${DOMAIN}`, password: 'correct horse battery staple 43', plan: 'free' });
    await t.repos.organisations.addMember(orgId, boss.id, 'owner', new Date());
    const ok = await login(`boss@${DOMAIN}`, 'correct horse battery staple 43');
    assert.equal(ok.status, 200);
    const glass = (await send(`${t.url}/api/v1/orgs/${orgId}/audit?action=sso.break_glass`, 'GET', s(ownerCookie))).body.entries;
    assert.equal(glass.length, 1);
    assert.equal(glass[0].actor.label, `boss@${DOMAIN}`);
    // Not required: password sign-in works again.
    await send(`${t.url}/api/v1/orgs/${orgId}/sso`, 'PUT', s(ownerCookie), {
      issuer: idp.issuer,
      clientId: idp.clientId,
      defaultRole: 'editor',
      ssoRequired: false,
      enabled: true,
    });
    assert.equal((await login(`kim@${DOMAIN}`, 'correct horse battery staple 42')).status, 200);
  });

  test('a disabled connection signs nobody in', async () => {
    await send(`${t.url}/api/v1/orgs/${orgId}/sso`, 'PUT', s(ownerCookie), {
      issuer: idp.issuer,
      clientId: idp.clientId,
      defaultRole: 'editor',
      ssoRequired: false,
      enabled: false,
    });
    const r = await startSso(t, new Jar(), `ada@${DOMAIN}`);
    assert.equal(r.status, 404);
    await send(`${t.url}/api/v1/orgs/${orgId}/sso`, 'PUT', s(ownerCookie), {
      issuer: idp.issuer,
      clientId: idp.clientId,
      defaultRole: 'editor',
      ssoRequired: false,
      enabled: true,
    });
  });
});
