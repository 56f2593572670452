import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { csrfTokenOf, login, userWithKey, type TestUser } from '../../helpers/access.ts';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('account area and API keys', () => {
  let t: TestApp;
  let clock: TestClock;
  let alice: TestUser;
  let bob: TestUser;
  let aliceCookie: string;
  let bobCookie: string;
  const origin = () => t.url;

  before(async () => {
    clock = new TestClock(new Date('2031-05-05T10:00:00.000Z'));
    t = await startApp({ clock, env: { API_KEY_MIN_PLAN: 'standard' } });
    alice = await userWithKey(t, 'standard', 'alice');
    bob = await userWithKey(t, 'pro', 'bob');
    aliceCookie = await login(t, alice.email, alice.password);
    bobCookie = await login(t, bob.email, bob.password);
  });
  after(async () => t.close());

  const createKey = (cookie: string, name?: string) =>
    getJson(`${t.url}/api/v1/account/keys`, {
      method: 'POST',
      headers: { cookie, origin: origin(), 'content-type': 'application/json', 'x-csrf-token': csrfTokenOf(cookie) },
      body: JSON.stringify(name === undefined ? {} : { name }),
    });

  test('the secret is shown once and stored only as a SHA-256 hash with a display prefix', async () => {
    const r = await createKey(aliceCookie, 'ci pipeline');
    assert.equal(r.status, 201);
    const secret: string = r.body.secret;
    assert.match(secret, /^vis_[0-9A-Za-z]{40}$/);
    assert.equal(r.body.key.name, 'ci pipeline');
    assert.equal(r.body.key.prefix, secret.slice(0, 12));
    assert.equal(r.body.key.lastUsedAt, null);
    assert.equal(r.headers.get('cache-control'), 'no-store');

    const row = await t.store.db.selectFrom('api_keys').selectAll().where('id', '=', r.body.key.id).executeTakeFirstOrThrow();
    assert.equal(row.key_hash, sha256(secret));
    assert.equal(row.prefix, secret.slice(0, 12));
    assert.equal(row.user_id, alice.userId);
    for (const value of Object.values(row)) assert.ok(!String(value).includes(secret.slice(4)), 'no column holds the secret');

    const list = await getJson(`${t.url}/api/v1/account/keys`, { headers: { cookie: aliceCookie } });
    assert.equal(list.status, 200);
    const listed = list.body.keys.find((k: any) => k.id === r.body.key.id);
    assert.deepEqual(Object.keys(listed).sort(), ['createdAt', 'id', 'lastUsedAt', 'name', 'prefix']);
    assert.ok(!JSON.stringify(list.body).includes(secret));

    // The new key works at once, and its use is recorded.
    const use = await getJson(`${t.api}/vendor-count`, { headers: { 'x-api-key': secret } });
    assert.equal(use.status, 200);
    const after = await getJson(`${t.url}/api/v1/account/keys`, { headers: { cookie: aliceCookie } });
    assert.equal(after.body.keys.find((k: any) => k.id === r.body.key.id).lastUsedAt, clock.now().toISOString());
  });

  test('passwords are stored as scrypt hashes', async () => {
    const row = await t.store.db.selectFrom('users').selectAll().where('id', '=', alice.userId).executeTakeFirstOrThrow();
    assert.match(row.password_hash, /^scrypt\$\d+\$8\$3\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    assert.ok(!row.password_hash.includes(alice.password));
    const sessions = await t.store.db.selectFrom('sessions').selectAll().where('user_id', '=', alice.userId).execute();
    assert.ok(sessions.length >= 1);
    const token = aliceCookie.split(';')[0].split('=')[1];
    assert.ok(sessions.some((s) => s.token_hash === sha256(token)));
    assert.ok(sessions.every((s) => s.token_hash !== token));
  });

  test('creating a key needs the plan set by API_KEY_MIN_PLAN', async () => {
    const free = await userWithKey(t, 'standard', 'downgraded');
    await t.app.services.accounts.setPlan(free.email, 'free');
    const cookie = await login(t, free.email, free.password);
    const r = await createKey(cookie);
    assert.equal(r.status, 403);
    assert.equal(r.body.error, 'plan_required');
    assert.equal(r.body.currentPlan, 'free');
    assert.match(r.body.hint, /standard/);
  });

  test('keys are managed with a web session only; a key cannot mint keys', async () => {
    const r = await getJson(`${t.url}/api/v1/account/keys`, {
      method: 'POST',
      headers: { 'x-api-key': alice.secret, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(r.status, 403);
    assert.equal(r.body.error, 'session_required');
    const anon = await getJson(`${t.url}/api/v1/account/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: origin() },
      body: '{}',
    });
    assert.equal(anon.status, 401);
  });

  test('one user never sees or revokes another user keys', async () => {
    const bobs = await getJson(`${t.url}/api/v1/account/keys`, { headers: { cookie: bobCookie } });
    assert.ok(bobs.body.keys.every((k: any) => k.id !== alice.keyId));
    assert.ok(bobs.body.keys.some((k: any) => k.id === bob.keyId));
    const alices = await getJson(`${t.url}/api/v1/account/keys`, { headers: { 'x-api-key': alice.secret } });
    assert.ok(alices.body.keys.every((k: any) => k.id !== bob.keyId));

    const steal = await getJson(`${t.url}/api/v1/account/keys/${alice.keyId}`, {
      method: 'DELETE',
      headers: { cookie: bobCookie, origin: origin(), 'x-csrf-token': csrfTokenOf(bobCookie) },
    });
    assert.equal(steal.status, 404);
    assert.equal((await getJson(`${t.api}/vendor-count`, { headers: { 'x-api-key': alice.secret } })).status, 200);

    const me = await getJson(`${t.url}/api/v1/account`, { headers: { cookie: bobCookie } });
    assert.equal(me.body.account.email, bob.email);
    assert.equal(me.body.account.plan, 'pro');
    assert.ok(!JSON.stringify(me.body).includes(alice.keyId));
  });

  test('revoking a key makes it 401 at once', async () => {
    const created = await createKey(bobCookie, 'temporary');
    const secret = created.body.secret;
    assert.equal((await getJson(`${t.api}/vendor-count`, { headers: { authorization: `Bearer ${secret}` } })).status, 200);
    const del = await getJson(`${t.url}/api/v1/account/keys/${created.body.key.id}`, {
      method: 'DELETE',
      headers: { cookie: bobCookie, origin: origin(), 'x-csrf-token': csrfTokenOf(bobCookie) },
    });
    assert.equal(del.status, 200);
    const after = await getJson(`${t.api}/vendor-count`, { headers: { authorization: `Bearer ${secret}` } });
    assert.equal(after.status, 401);
    const again = await getJson(`${t.url}/api/v1/account/keys/${created.body.key.id}`, {
      method: 'DELETE',
      headers: { cookie: bobCookie, origin: origin(), 'x-csrf-token': csrfTokenOf(bobCookie) },
    });
    assert.equal(again.status, 404);
    const row = await t.store.db.selectFrom('api_keys').select('revoked_at').where('id', '=', created.body.key.id).executeTakeFirstOrThrow();
    assert.equal(row.revoked_at, clock.now().toISOString());
  });

  test('a plan change applies to existing keys and sessions', async () => {
    const u = await userWithKey(t, 'free', 'upgrade');
    const cookie = await login(t, u.email, u.password);
    const before = await getJson(`${t.api}/incidents?timePeriod=30d`, { headers: { 'x-api-key': u.secret } });
    assert.equal(before.body.dataWindow.applied, '7d');
    await t.app.services.accounts.setPlan(u.email, 'standard');
    const after = await getJson(`${t.api}/incidents?timePeriod=30d`, { headers: { 'x-api-key': u.secret } });
    assert.equal(after.body.dataWindow.applied, '30d');
    const acct = await getJson(`${t.url}/api/v1/account`, { headers: { cookie } });
    assert.equal(acct.body.account.plan, 'standard');
    assert.equal(acct.body.limits.perMinute > 10, true);
    assert.equal(acct.body.limits.windowDays, 30);
    assert.equal(acct.body.limits.compliance, true);
  });

  test('sessions expire after 30 days', async () => {
    const u = await userWithKey(t, 'free', 'expiry');
    const cookie = await login(t, u.email, u.password);
    assert.equal((await getJson(`${t.url}/api/v1/account`, { headers: { cookie } })).status, 200);
    clock.advance(31 * 86_400_000);
    assert.equal((await getJson(`${t.url}/api/v1/account`, { headers: { cookie } })).status, 401);
  });
});
