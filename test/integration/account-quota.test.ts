import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { csrfTokenOf, login, uniqueEmail } from '../helpers/access.ts';
import { getJson, startApp, TestClock, type TestApp } from '../helpers/app.ts';

// Quotas belong to the account, not to the key (docs/access.md, "Rate limits"): all
// keys of an account and its web sessions share the plan's per-minute and per-day
// figures, on the Fastify path and on the server-level hot path for cache hits, and
// revoking a key gives nothing back. Keys per account are capped by plan.

describe('quotas per account', () => {
  let t: TestApp;
  let clock: TestClock;
  before(async () => {
    clock = new TestClock(new Date('2031-05-06T10:00:05.000Z'));
    // Free: 10 per minute (the real figure), 25 per day to cross the day quickly.
    t = await startApp({ clock, env: { RATE_LIMITS: JSON.stringify({ free: { perDay: 25 } }) } });
  });
  after(async () => t.close());

  async function account() {
    const email = uniqueEmail('quota');
    const password = 'correct horse battery';
    await t.app.services.accounts.createUser({ email, password, plan: 'free' });
    const cookie = await login(t, email, password);
    const session = { cookie, origin: t.url, 'x-csrf-token': csrfTokenOf(cookie) };
    const createKey = () =>
      getJson(`${t.url}/api/v1/account/keys`, { method: 'POST', headers: { ...session, 'content-type': 'application/json' }, body: '{}' });
    const revoke = (id: string) => getJson(`${t.url}/api/v1/account/keys/${id}`, { method: 'DELETE', headers: session });
    return { cookie, createKey, revoke };
  }

  const call = (path: string, headers: Record<string, string>) => getJson(`${t.api}${path}`, { headers });

  test('two keys and the session share the plan minute, also for cache hits answered before Fastify', async () => {
    clock.current = new Date('2031-05-06T10:00:05.000Z');
    const a = await account();
    const k1 = await a.createKey();
    const k2 = await a.createKey();
    assert.equal(k1.status, 201);
    assert.equal(k2.status, 201);
    // `/incidents` is cached: after the first miss, hits of a known URL are served by the hot path.
    for (let i = 0; i < 4; i++) assert.equal((await call('/incidents?limit=5', { 'x-api-key': k1.body.secret })).status, 200);
    for (let i = 0; i < 4; i++) assert.equal((await call('/incidents?limit=5', { 'x-api-key': k2.body.secret })).status, 200);
    const hit = await call('/incidents?limit=5', { 'x-api-key': k2.body.secret });
    assert.equal(hit.headers.get('x-cache'), 'HIT');
    assert.equal(hit.headers.get('x-ratelimit-remaining'), '1');
    assert.equal((await call('/vendor-count', { cookie: a.cookie })).status, 200);
    for (const headers of [{ 'x-api-key': k1.body.secret }, { 'x-api-key': k2.body.secret }, { cookie: a.cookie }] as Record<string, string>[]) {
      const r = await call('/incidents?limit=5', headers);
      assert.equal(r.status, 429);
      assert.equal(r.body.error, 'rate_limit_exceeded');
    }
    const summary = await getJson(`${t.url}/api/v1/account`, { headers: { cookie: a.cookie } });
    assert.equal(summary.body.usage.usedThisMinute, 10);
    assert.equal(summary.body.usage.total, 10);
  });

  test('create, use, revoke, repeat: usage survives revocation and the day quota holds', async () => {
    clock.current = new Date('2031-05-07T10:00:05.000Z');
    const a = await account();
    let used = 0;
    for (let round = 0; round < 5; round++) {
      const k = await a.createKey();
      assert.equal(k.status, 201);
      for (let i = 0; i < 5; i++) {
        const r = await call('/vendor-count', { 'x-api-key': k.body.secret });
        if (r.status === 200) used++;
        else assert.equal(r.status, 429);
      }
      assert.equal((await a.revoke(k.body.key.id)).status, 200);
      clock.advance(60_000);
    }
    assert.equal(used, 25);
    const fresh = await a.createKey();
    const r = await call('/vendor-count', { 'x-api-key': fresh.body.secret });
    assert.equal(r.status, 429);
    assert.equal(r.body.limit, 25);
  });

  test('active keys are capped per plan (free: 2)', async () => {
    const a = await account();
    assert.equal((await a.createKey()).status, 201);
    const second = await a.createKey();
    assert.equal(second.status, 201);
    const third = await a.createKey();
    assert.equal(third.status, 403);
    assert.equal(third.body.error, 'limit_exceeded');
    assert.equal(third.body.limit, 2);
    const summary = await getJson(`${t.url}/api/v1/account`, { headers: { cookie: a.cookie } });
    assert.equal(summary.body.limits.maxKeys, 2);
    assert.equal((await a.revoke(second.body.key.id)).status, 200);
    assert.equal((await a.createKey()).status, 201);
  });

  test('a validation 400 answered by a handler does not consume quota', async () => {
    clock.current = new Date('2031-05-08T10:00:05.000Z');
    const a = await account();
    const k = await a.createKey();
    const headers = { 'x-api-key': k.body.secret, 'last-event-id': 'not-an-event-id' };
    for (let i = 0; i < 12; i++) {
      const r = await call('/incidents/stream', headers);
      assert.equal(r.status, 400, `request ${i}`);
      assert.equal(r.body.error, 'invalid_parameter');
    }
    const summary = await getJson(`${t.url}/api/v1/account`, { headers: { cookie: a.cookie } });
    assert.equal(summary.body.usage.usedThisMinute, 0);
  });
});
