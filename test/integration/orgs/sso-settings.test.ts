import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { startIdp, type TestIdp } from '../../helpers/oidc-idp.ts';
import { txtRecords } from '../../helpers/sso.ts';
import { createUser, loginCookie, send, type TestUser } from '../../helpers/users.ts';

// Single sign-on settings over REST (docs/teams.md, "Single sign-on"): admins only, the
// issuer through the outbound URL guard and OpenID Connect discovery, the client secret
// sealed and masked, domains proven by a DNS TXT record (answers injected), every change
// audited with the secret masked. Attack list: private issuers, foreign organisations,
// unknown fields, control characters, oversized values, a domain another organisation holds.

describe('single sign-on settings', () => {
  let t: TestApp;
  let idp: TestIdp;
  let owner: TestUser;
  let cookie: string;
  let orgId: string;
  const txt = txtRecords();
  const s = (c: string) => ({ cookie: c, origin: t.url });
  const url = (p = '') => `${t.url}/api/v1/orgs/${orgId}/sso${p}`;
  const settings = () => ({
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    defaultRole: 'editor',
    ssoRequired: false,
    enabled: true,
  });

  before(async () => {
    t = await startApp({ env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' }, resolveTxt: txt.resolveTxt });
    idp = await startIdp({ redirectUris: [`${t.url}/auth/sso/callback`] });
    owner = await createUser(t, 'free');
    cookie = await loginCookie(t, owner);
    orgId = (await send(`${t.url}/api/v1/orgs`, 'POST', s(cookie), { name: 'SSO team' })).body.organisation.id;
  });
  after(async () => {
    await t.close();
    await idp.close();
  });

  test('a connection is saved after discovery, its secret sealed at rest and masked everywhere', async () => {
    assert.deepEqual((await send(url(), 'GET', s(cookie))).body, { success: true, sso: null });
    const noSecret = await send(url(), 'PUT', s(cookie), { ...settings(), clientSecret: undefined });
    assert.equal(noSecret.status, 400, JSON.stringify(noSecret.body));
    const put = await send(url(), 'PUT', s(cookie), settings());
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.sso.clientSecret, `****${idp.clientSecret.slice(-4)}`);
    assert.equal(put.body.sso.redirectUri, `${t.url}/auth/sso/callback`);
    const got = await send(url(), 'GET', s(cookie));
    assert.equal(got.body.sso.issuer, idp.issuer);
    assert.ok(!JSON.stringify(got.body).includes(idp.clientSecret));
    // Sealed in the store, opened by the repository.
    const raw = await t.store.db.selectFrom('sso_connections').select('client_secret').where('org_id', '=', orgId).executeTakeFirstOrThrow();
    assert.match(raw.client_secret, /^sb1:/);
    assert.equal((await t.repos.sso.connection(orgId))!.clientSecret, idp.clientSecret);
    // The masked value sent back keeps the secret.
    const again = await send(url(), 'PUT', s(cookie), { ...settings(), clientSecret: put.body.sso.clientSecret, ssoRequired: true });
    assert.equal(again.status, 200);
    assert.equal((await t.repos.sso.connection(orgId))!.clientSecret, idp.clientSecret);
    const audit = await send(`${t.url}/api/v1/orgs/${orgId}/audit?action=sso.configured`, 'GET', s(cookie));
    assert.equal(audit.body.entries.length, 2);
    assert.equal(audit.body.entries[0].after.clientSecret, '••••');
    assert.equal(audit.body.entries[0].after.ssoRequired, true);
    assert.ok(!JSON.stringify(audit.body).includes(idp.clientSecret));
  });

  test('issuers: private addresses, http, credentials and non-OpenID servers are refused with a 4xx', async () => {
    for (const issuer of [
      'http://10.0.0.5',
      'https://169.254.169.254/latest',
      'https://user:pw@idp.example.com',
      'ftp://idp.example.com',
      'not a url',
      'https://localhost',
    ]) {
      const r = await send(url(), 'PUT', s(cookie), { ...settings(), issuer });
      assert.equal(r.status, 400, `${issuer}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    // Answers, but is no OpenID Provider; a name that never resolves.
    for (const issuer of [t.url, 'https://idp.invalid']) {
      const r = await send(url(), 'PUT', s(cookie), { ...settings(), issuer });
      assert.equal(r.status, 422, `${issuer}: ${r.status} ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error, 'unprocessable');
    }
    // The issuer must be the provider's own (no discovery document under another path).
    assert.equal((await send(url(), 'PUT', s(cookie), { ...settings(), issuer: `${idp.issuer}/tenant` })).status, 422);
  });

  test('hostile bodies: unknown fields, owner as default role, control characters, oversized values, wrong types', async () => {
    const bad = [
      { ...settings(), orgId: 'x' },
      { ...settings(), defaultRole: 'owner' },
      { ...settings(), clientId: 'a\u0000b' },
      { ...settings(), clientId: 'x'.repeat(300) },
      { ...settings(), issuer: `https://e.com/${'a'.repeat(600)}` },
      { ...settings(), enabled: 'yes' },
      { ...settings(), ssoRequired: 1 },
      '{"issuer":',
      [],
    ];
    for (const body of bad) {
      const r = await send(url(), 'PUT', s(cookie), body);
      assert.equal(r.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${r.status}`);
    }
  });

  test('domains: added normalised, proven by the TXT record, one organisation per verified domain', async () => {
    const add = await send(url('/domains'), 'POST', s(cookie), { domain: 'Corp-One.Example' });
    assert.equal(add.status, 201, JSON.stringify(add.body));
    const d = add.body.domain;
    assert.equal(d.domain, 'corp-one.example');
    assert.equal(d.verified, false);
    assert.equal(d.record.name, '_vis-verify.corp-one.example');
    assert.match(d.record.value, /^vis-verify=[A-Za-z0-9_-]{32}$/);
    assert.equal((await send(url('/domains'), 'POST', s(cookie), { domain: 'corp-one.example' })).status, 409);
    for (const domain of ['localhost', 'a..b', '-a.com', 'a.b/c', '1.2.3.4', 'x'.repeat(254), 'ex ample.com']) {
      const r = await send(url('/domains'), 'POST', s(cookie), { domain });
      assert.equal(r.status, 400, `${domain}: ${r.status}`);
    }
    // No record yet, then a wrong one: 422 naming what to publish.
    const early = await send(url(`/domains/${d.id}/verify`), 'POST', s(cookie));
    assert.equal(early.status, 422);
    assert.ok(early.body.message.includes(d.record.value));
    txt.records.set(d.record.name, [['vis-verify=wrong'], ['v=spf1 -all']]);
    assert.equal((await send(url(`/domains/${d.id}/verify`), 'POST', s(cookie))).status, 422);
    // A long value split in chunks counts joined.
    txt.records.set(d.record.name, [['v=spf1 -all'], [d.record.value.slice(0, 20), d.record.value.slice(20)]]);
    const ok = await send(url(`/domains/${d.id}/verify`), 'POST', s(cookie));
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.domain.verified, true);

    // Another organisation may add the domain but never verify it while this one holds it.
    const other = await createUser(t, 'free');
    const otherCookie = await loginCookie(t, other);
    const otherOrg = (await send(`${t.url}/api/v1/orgs`, 'POST', s(otherCookie), { name: 'Other' })).body.organisation.id;
    const theirs = await send(`${t.url}/api/v1/orgs/${otherOrg}/sso/domains`, 'POST', s(otherCookie), { domain: 'corp-one.example' });
    assert.equal(theirs.status, 201);
    txt.records.set(theirs.body.domain.record.name, [[theirs.body.domain.record.value]]);
    const stolen = await send(`${t.url}/api/v1/orgs/${otherOrg}/sso/domains/${theirs.body.domain.id}/verify`, 'POST', s(otherCookie));
    assert.equal(stolen.status, 409, JSON.stringify(stolen.body));
    // Foreign organisation: 404 for every SSO route, whatever the id.
    for (const [method, p] of [
      ['GET', ''],
      ['DELETE', ''],
      ['GET', '/domains'],
      ['POST', `/domains/${d.id}/verify`],
      ['DELETE', `/domains/${d.id}`],
    ] as const) {
      assert.equal((await send(url(p), method, s(otherCookie))).status, 404, `${method} ${p}`);
    }
    assert.equal((await send(url(`/domains/00000000-0000-4000-8000-000000000000/verify`), 'POST', s(cookie))).status, 404);

    const actions = (await send(`${t.url}/api/v1/orgs/${orgId}/audit`, 'GET', s(cookie))).body.entries.map((e: { action: string }) => e.action);
    assert.ok(actions.includes('sso.domain_added') && actions.includes('sso.domain_verified'), actions.join());
    const del = await send(url(`/domains/${d.id}`), 'DELETE', s(cookie));
    assert.equal(del.status, 200);
    assert.equal((await send(url(`/domains/${d.id}`), 'DELETE', s(cookie))).status, 404);
  });

  test('a personal organisation has no single sign-on; removing a connection is audited', async () => {
    const personal = await send(`${t.url}/api/v1/orgs/${owner.id}/sso`, 'PUT', s(cookie), settings());
    assert.equal(personal.status, 409);
    assert.equal((await send(url(), 'DELETE', s(cookie))).status, 200);
    assert.equal((await send(url(), 'DELETE', s(cookie))).status, 404);
    const entries = (await send(`${t.url}/api/v1/orgs/${orgId}/audit?action=sso.deleted`, 'GET', s(cookie))).body.entries;
    assert.equal(entries.length, 1);
    assert.equal(entries[0].before.clientSecret, '••••');
  });
});
