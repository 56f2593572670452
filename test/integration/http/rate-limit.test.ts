import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_PLAN_POLICIES, type Plan } from '../../../src/domain/plans.ts';
import { ipSubject, orgSubject } from '../../../src/services/access/limits.ts';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { login, ownerViewer, userWithKey } from '../../helpers/access.ts';

// Plan limits (docs/access.md) with the real plan table and a test clock: the
// minute limit by real requests, the daily limit by counting all but the last
// requests of the day straight into the limiter and then crossing it over HTTP.

// 12:00:30 UTC: 30 s left in the minute, 43,170 s left in the day.
const START = new Date('2031-03-10T12:00:30.000Z');
const SECONDS_TO_MIDNIGHT = 11 * 3600 + 59 * 60 + 30;

describe('rate limits per plan', () => {
  let t: TestApp;
  let clock: TestClock;
  before(async () => {
    clock = new TestClock(new Date(START));
    t = await startApp({ clock, env: { RATE_LIMITS: '{}' } });
  });
  after(async () => t.close());

  const callers: Record<Plan, () => Promise<{ headers: Record<string, string>; subject: string }>> = {
    anonymous: async () => ({ headers: { 'x-forwarded-for': '203.0.113.9' }, subject: ipSubject('127.0.0.1') }),
    free: async () => key('free'),
    standard: async () => key('standard'),
    pro: async () => key('pro'),
    enterprise: async () => key('enterprise'),
    vip: async () => key('vip'),
  };
  async function key(plan: Exclude<Plan, 'anonymous'>) {
    const u = await userWithKey(t, plan);
    return { headers: { 'x-api-key': u.secret }, subject: orgSubject(u.userId) };
  }

  for (const plan of Object.keys(callers) as Plan[]) {
    test(`${plan}: minute and daily limits, exact 429 body and headers`, async () => {
      clock.current = new Date(START);
      const { perMinute, perDay } = DEFAULT_PLAN_POLICIES[plan];
      const { headers, subject } = await callers[plan]();
      const url = `${t.api}/vendor-list`;

      for (let i = 1; i <= perMinute; i++) {
        const r = await getJson(url, { headers });
        assert.equal(r.status, 200, `request ${i}`);
        assert.equal(r.headers.get('ratelimit-policy'), `"minute";q=${perMinute};w=60, "day";q=${perDay};w=86400`);
        assert.equal(r.headers.get('ratelimit'), `"minute";r=${perMinute - i};t=30, "day";r=${perDay - i};t=${SECONDS_TO_MIDNIGHT}`);
        assert.equal(r.headers.get('x-ratelimit-limit'), String(perMinute));
        assert.equal(r.headers.get('x-ratelimit-remaining'), String(perMinute - i));
        assert.equal(r.headers.get('x-ratelimit-reset'), '30');
      }
      const over = await getJson(url, { headers });
      assert.equal(over.status, 429);
      assert.deepEqual(Object.keys(over.body).sort(), ['currentPlan', 'error', 'limit', 'message', 'requestId', 'retryAfter', 'success', 'used']);
      assert.equal(over.body.success, false);
      assert.equal(over.body.error, 'rate_limit_exceeded');
      assert.equal(over.body.limit, perMinute);
      assert.equal(over.body.used, perMinute);
      assert.equal(over.body.retryAfter, 30);
      assert.equal(over.body.currentPlan, plan);
      assert.match(over.body.message, new RegExp(`${perMinute} requests per minute on the ${plan} plan`));
      assert.equal(over.headers.get('retry-after'), '30');
      assert.equal(over.headers.get('ratelimit'), `"minute";r=0;t=30, "day";r=${perDay - perMinute};t=${SECONDS_TO_MIDNIGHT}`);
      assert.equal(over.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(over.headers.get('x-ratelimit-reset'), '30');

      // The next minute opens the window again; the refused request was not counted.
      clock.advance(30_000);
      const next = await getJson(url, { headers });
      assert.equal(next.status, 200);
      assert.equal(next.headers.get('ratelimit'), `"minute";r=${perMinute - 1};t=60, "day";r=${perDay - perMinute - 1};t=${SECONDS_TO_MIDNIGHT - 30}`);

      // Fill the day up to one request short, then cross it over HTTP.
      const day = [{ name: 'day', limit: perDay, windowSeconds: 86_400 }];
      const fill: unknown[] = [];
      for (let i = perMinute + 1; i < perDay - 1; i++) fill.push(t.app.access.limiter.consume(subject, day));
      await Promise.all(fill);
      clock.advance(60_000);
      const last = await getJson(url, { headers });
      assert.equal(last.status, 200);
      assert.equal(last.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(last.headers.get('x-ratelimit-limit'), String(perDay));
      const daily = await getJson(url, { headers });
      assert.equal(daily.status, 429);
      assert.equal(daily.body.limit, perDay);
      assert.equal(daily.body.used, perDay);
      assert.equal(daily.body.retryAfter, SECONDS_TO_MIDNIGHT - 90);
      assert.equal(daily.headers.get('retry-after'), String(SECONDS_TO_MIDNIGHT - 90));
      assert.equal(daily.body.currentPlan, plan);
      assert.match(daily.body.message, /per day/);

      // Tomorrow (UTC) the quota is back.
      clock.current = new Date('2031-03-11T00:00:01.000Z');
      assert.equal((await getJson(url, { headers })).status, 200);
    });
  }

  test('anonymous calls are counted per client IP; X-Forwarded-For is ignored without TRUST_PROXY', async () => {
    clock.current = new Date('2031-04-01T08:00:00.000Z');
    for (let i = 0; i < 10; i++) {
      const r = await getJson(`${t.api}/vendor-count`, { headers: { 'x-forwarded-for': `198.51.100.${i}` } });
      assert.equal(r.status, 200);
    }
    assert.equal((await getJson(`${t.api}/vendor-count`, { headers: { 'x-forwarded-for': '198.51.100.99' } })).status, 429);
  });

  test('all keys and sessions of an account share its quota', async () => {
    clock.current = new Date('2031-04-02T08:00:00.000Z');
    const u = await userWithKey(t, 'free');
    const second = await t.app.services.keys.create(ownerViewer(u.userId, 'free'), 'second');
    for (let i = 0; i < 5; i++) assert.equal((await getJson(`${t.api}/vendor-count`, { headers: { 'x-api-key': u.secret } })).status, 200);
    for (let i = 0; i < 4; i++) assert.equal((await getJson(`${t.api}/vendor-count`, { headers: { 'x-api-key': second.secret } })).status, 200);
    const cookie = await login(t, u.email, u.password);
    assert.equal((await getJson(`${t.api}/vendor-count`, { headers: { cookie } })).status, 200);
    // Ten requests made by the account: every credential of it is refused now.
    for (const headers of [{ 'x-api-key': u.secret }, { 'x-api-key': second.secret }, { cookie }] as Record<string, string>[]) {
      assert.equal((await getJson(`${t.api}/vendor-count`, { headers })).status, 429);
    }
    assert.equal((await t.app.access.limiter.peek(orgSubject(u.userId), [{ name: 'day', limit: 100, windowSeconds: 86_400 }])).windows[0].used, 10);
    const acct = await getJson(`${t.url}/api/v1/account`, { headers: { cookie } });
    assert.equal(acct.status, 200);
    assert.equal(acct.body.limits.perMinute, 10);
    assert.equal(acct.body.limits.perDay, 100);
    assert.equal(acct.body.limits.countedPer, 'organisation');
    assert.equal(acct.body.usage.total, 10);
    assert.equal(acct.body.usage.usedThisMinute, 10);
    assert.equal(acct.body.usage.remainingThisMinute, 0);
  });

  test('routes outside the data API are not metered', async () => {
    const r = await getJson(`${t.url}/healthz`);
    assert.equal(r.headers.get('ratelimit'), null);
  });

  test('failed logins are throttled per account', async () => {
    clock.current = new Date('2031-04-03T08:00:00.000Z');
    const u = await userWithKey(t, 'free');
    const attempt = (password: string) =>
      getJson(`${t.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: u.email, password }),
      });
    for (let i = 0; i < 5; i++) assert.equal((await attempt('wrong password')).status, 401);
    const blocked = await attempt(u.password);
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.error, 'rate_limit_exceeded');
    assert.ok(blocked.body.retryAfter > 0 && blocked.body.retryAfter <= 900);
    assert.equal(blocked.headers.get('retry-after'), String(blocked.body.retryAfter));
    clock.advance(15 * 60_000);
    assert.equal((await attempt(u.password)).status, 200);
  });
});

describe('rate limits: configuration', () => {
  test('RATE_LIMITS overrides a plan (Enterprise daily figure)', async () => {
    const clock = new TestClock(new Date(START));
    const t = await startApp({ clock, env: { RATE_LIMITS: '{"enterprise":{"perDay":3}}' } });
    try {
      const u = await userWithKey(t, 'enterprise');
      const headers = { 'x-api-key': u.secret };
      for (let i = 0; i < 3; i++) assert.equal((await getJson(`${t.api}/vendor-count`, { headers })).status, 200);
      const r = await getJson(`${t.api}/vendor-count`, { headers });
      assert.equal(r.status, 429);
      assert.equal(r.body.limit, 3);
      assert.equal(r.body.retryAfter, SECONDS_TO_MIDNIGHT);
      assert.equal(r.headers.get('ratelimit-policy'), '"minute";q=120;w=60, "day";q=3;w=86400');
    } finally {
      await t.close();
    }
  });

  test('with TRUST_PROXY, anonymous clients are told apart by X-Forwarded-For', async () => {
    const t = await startApp({ clock: new TestClock(new Date(START)), env: { RATE_LIMITS: '{}', TRUST_PROXY: 'true' } });
    try {
      const h = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
      for (let i = 0; i < 10; i++) assert.equal((await getJson(`${t.api}/vendor-count`, h('198.51.100.1'))).status, 200);
      assert.equal((await getJson(`${t.api}/vendor-count`, h('198.51.100.1'))).status, 429);
      assert.equal((await getJson(`${t.api}/vendor-count`, h('198.51.100.2'))).status, 200);
    } finally {
      await t.close();
    }
  });
});
