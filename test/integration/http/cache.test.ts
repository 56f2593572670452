import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { incidentsRepository } from '../../../src/store/repositories/incidents-repository.ts';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { ownerViewer, userWithKey, type TestUser } from '../../helpers/access.ts';
import { incident } from '../../helpers/records.ts';

// The response cache of docs/access.md on a real server with a test clock.

describe('response cache', () => {
  let t: TestApp;
  let clock: TestClock;
  let pro: TestUser;
  before(async () => {
    clock = new TestClock(new Date());
    t = await startApp({ clock, env: { RATE_LIMITS: '{}' } });
    pro = await userWithKey(t, 'pro');
    await incidentsRepository(t.store.db).upsert(incident('github', 'c1', { startedAt: new Date(Date.now() - 3_600_000).toISOString() }), 'f');
  });
  after(async () => t.close());

  const headers = () => ({ 'x-api-key': pro.secret });

  test('MISS, then HIT with the same bytes and ETag, until the TTL (60 s) passes', async () => {
    clock.advance(3_600_000);
    const a = await fetch(`${t.api}/incidents?limit=5`, { headers: headers() });
    assert.equal(a.status, 200);
    assert.equal(a.headers.get('x-cache'), 'MISS');
    const etag = a.headers.get('etag');
    assert.match(etag ?? '', /^"[A-Za-z0-9_-]+"$/);
    const body = await a.text();
    clock.advance(59_000);
    const b = await fetch(`${t.api}/incidents?limit=5`, { headers: headers() });
    assert.equal(b.headers.get('x-cache'), 'HIT');
    assert.equal(b.headers.get('etag'), etag);
    assert.equal(b.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(await b.text(), body);
    // Cached answers are still metered.
    assert.ok(b.headers.get('ratelimit'));
    clock.advance(2_000);
    const c = await fetch(`${t.api}/incidents?limit=5`, { headers: headers() });
    assert.equal(c.headers.get('x-cache'), 'MISS');
  });

  test('the key is the normalised query: order, defaults and the vendors alias do not matter', async () => {
    clock.advance(3_600_000);
    const first = await fetch(`${t.api}/incidents?vendor=github,cloudflare&limit=50`, { headers: headers() });
    assert.equal(first.headers.get('x-cache'), 'MISS');
    for (const q of ['vendors=cloudflare,github', 'limit=50&vendor=cloudflare,github&offset=0', 'vendor=cloudflare,github,github']) {
      const r = await fetch(`${t.api}/incidents?${q}`, { headers: headers() });
      assert.equal(r.headers.get('x-cache'), 'HIT', q);
    }
    const other = await fetch(`${t.api}/incidents?vendor=github`, { headers: headers() });
    assert.equal(other.headers.get('x-cache'), 'MISS');
  });

  test('the applied window is part of the key: plans with different caps never share an entry', async () => {
    clock.advance(3_600_000);
    const p = await getJson(`${t.api}/incidents?timePeriod=90d`, { headers: headers() });
    assert.equal(p.headers.get('x-cache'), 'MISS');
    assert.equal(p.body.dataWindow.applied, '90d');
    const anon = await getJson(`${t.api}/incidents?timePeriod=90d`);
    assert.equal(anon.headers.get('x-cache'), 'MISS');
    assert.equal(anon.body.dataWindow.applied, '7d');
    assert.equal(anon.body.dataWindow.capped, true);
    const again = await getJson(`${t.api}/incidents?timePeriod=90d`, { headers: headers() });
    assert.equal(again.headers.get('x-cache'), 'HIT');
    assert.equal(again.body.dataWindow.applied, '90d');
  });

  test('skipCache=true is BYPASS and neither reads nor fills the cache', async () => {
    clock.advance(3_600_000);
    const a = await fetch(`${t.api}/incidents?skipCache=true`, { headers: headers() });
    assert.equal(a.headers.get('x-cache'), 'BYPASS');
    assert.ok(a.headers.get('etag'));
    const b = await fetch(`${t.api}/incidents`, { headers: headers() });
    assert.equal(b.headers.get('x-cache'), 'MISS');
    const c = await fetch(`${t.api}/incidents?skipCache=true`, { headers: headers() });
    assert.equal(c.headers.get('x-cache'), 'BYPASS');
  });

  test('If-None-Match gives 304 without a body, and a 304 is not counted', async () => {
    clock.advance(3_600_000);
    const a = await fetch(`${t.api}/incidents?limit=7`, { headers: headers() });
    const etag = a.headers.get('etag')!;
    await a.text();
    const remaining = Number(a.headers.get('x-ratelimit-remaining'));
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${t.api}/incidents?limit=7`, { headers: { ...headers(), 'if-none-match': etag } });
      assert.equal(r.status, 304);
      assert.equal(r.headers.get('etag'), etag);
      assert.equal(await r.text(), '');
    }
    // Also when the entry had to be computed (MISS) or was bypassed.
    const bypass = await fetch(`${t.api}/incidents?limit=7&skipCache=true`, { headers: { ...headers(), 'if-none-match': `W/${etag}, "other"` } });
    assert.equal(bypass.status, 304);
    const after = await fetch(`${t.api}/incidents?limit=7`, { headers: headers() });
    assert.equal(after.headers.get('x-cache'), 'HIT');
    assert.equal(Number(after.headers.get('x-ratelimit-remaining')), remaining - 1);
    const stale = await fetch(`${t.api}/incidents?limit=7`, { headers: { ...headers(), 'if-none-match': '"old"' } });
    assert.equal(stale.status, 200);
  });

  test('cache hits are metered like any request: the 11th anonymous hit in a minute is 429', async () => {
    clock.advance(3_600_000);
    const seen: string[] = [];
    let etag = '';
    for (let i = 0; i < 10; i++) {
      const r = await fetch(`${t.api}/incidents?limit=2`);
      assert.equal(r.status, 200);
      etag = r.headers.get('etag')!;
      seen.push(r.headers.get('x-cache')!);
      assert.equal(r.headers.get('x-ratelimit-remaining'), String(9 - i));
    }
    assert.deepEqual(seen, ['MISS', ...Array(9).fill('HIT')]);
    const over = await getJson(`${t.api}/incidents?limit=2`);
    assert.equal(over.status, 429);
    assert.equal(over.body.currentPlan, 'anonymous');
    assert.equal(over.headers.get('x-cache'), null);
    // A revalidation that is a 304 is not counted, so it is answered even now.
    const revalidated = await fetch(`${t.api}/incidents?limit=2`, { headers: { 'if-none-match': etag } });
    assert.equal(revalidated.status, 304);
  });

  test('hits of key holders (answered before the full pipeline) carry the same headers and limits', async (tc) => {
    clock.current = new Date(Math.ceil(clock.now().getTime() / 86_400_000) * 86_400_000 + 3_600_000 + 30_000);
    const free = await userWithKey(t, 'free', 'hot');
    const h = { 'x-api-key': free.secret };
    const url = `${t.api}/incidents?limit=4&vendor=github`;
    const original = t.app.cacheHotPath;
    let answered = 0;
    t.app.cacheHotPath = async (req, res) => {
      const done = await original(req, res);
      if (done) answered++;
      return done;
    };
    tc.after(() => {
      t.app.cacheHotPath = original;
    });
    const miss = await fetch(url, { headers: { ...h, 'x-request-id': 'req-miss-1' } });
    assert.equal(miss.headers.get('x-cache'), 'MISS');
    const body = await miss.text();
    for (let i = 2; i <= 10; i++) {
      const r = await fetch(url, { headers: { ...h, 'x-request-id': `req-hit-${i}` } });
      assert.equal(r.status, 200);
      assert.equal(await r.text(), body);
      assert.equal(r.headers.get('x-cache'), 'HIT');
      assert.equal(r.headers.get('x-request-id'), `req-hit-${i}`);
      assert.equal(r.headers.get('etag'), miss.headers.get('etag'));
      assert.equal(r.headers.get('content-type'), miss.headers.get('content-type'));
      assert.equal(r.headers.get('cache-control'), 'private, max-age=60');
      assert.equal(r.headers.get('ratelimit-policy'), '"minute";q=10;w=60, "day";q=100;w=86400');
      assert.equal(r.headers.get('ratelimit'), `"minute";r=${10 - i};t=30, "day";r=${100 - i};t=${86_400 - 3630}`);
      assert.equal(r.headers.get('x-ratelimit-remaining'), String(10 - i));
    }
    assert.equal(answered, 9, 'the hits were answered before the full pipeline');
    const over = await getJson(url, { headers: h });
    assert.equal(over.status, 429);
    assert.equal(over.body.error, 'rate_limit_exceeded');
    assert.equal(over.body.used, 10);
    assert.equal(over.body.retryAfter, 30);
    assert.equal(over.headers.get('retry-after'), '30');
    assert.equal(over.headers.get('x-cache'), null);
    // A 304 is answered and not counted, even at the limit.
    const cond = await fetch(url, { headers: { ...h, 'if-none-match': miss.headers.get('etag')! } });
    assert.equal(cond.status, 304);
    const used = await t.app.access.limiter.peek(`o:${free.userId}`, [{ name: 'minute', limit: 10, windowSeconds: 60 }]);
    assert.equal(used.windows[0].used, 10);
    // A revoked key is refused at once, cached response or not.
    await t.app.services.keys.revoke(ownerViewer(free.userId, free.plan), free.keyId);
    clock.advance(60_000);
    const revoked = await getJson(url, { headers: h });
    assert.equal(revoked.status, 401);
  });

  test('vendor status is cached for 30 s', async () => {
    clock.advance(3_600_000);
    const a = await fetch(`${t.api}/vendor-status/github`, { headers: headers() });
    assert.equal(a.headers.get('x-cache'), 'MISS');
    clock.advance(29_000);
    assert.equal((await fetch(`${t.api}/vendor-status/github`, { headers: headers() })).headers.get('x-cache'), 'HIT');
    clock.advance(2_000);
    assert.equal((await fetch(`${t.api}/vendor-status/github`, { headers: headers() })).headers.get('x-cache'), 'MISS');
    const other = await fetch(`${t.api}/vendor-status/cloudflare`, { headers: headers() });
    assert.equal(other.headers.get('x-cache'), 'MISS');
  });

  test('concurrent misses for one key compute once', async () => {
    clock.advance(3_600_000);
    const records = t.app.services.records;
    const original = records.incidents;
    let calls = 0;
    records.incidents = async (...args) => {
      calls++;
      await new Promise((r) => setTimeout(r, 150));
      return original(...args);
    };
    try {
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          fetch(`${t.api}/incidents?limit=3`, { headers: headers() }).then(async (r) => ({
            status: r.status,
            cache: r.headers.get('x-cache'),
            body: await r.text(),
          })),
        ),
      );
      assert.equal(calls, 1, JSON.stringify(results.map((r) => [r.status, r.cache, r.status === 200 ? '' : r.body])));
      assert.equal(results.filter((r) => r.cache === 'MISS').length, 1);
      assert.equal(new Set(results.map((r) => r.body)).size, 1);
    } finally {
      records.incidents = original;
    }
  });

  test('errors are not cached; per-user and uncached routes carry no X-Cache', async () => {
    clock.advance(3_600_000);
    const missing = await fetch(`${t.api}/vendor-status/no-such-vendor`, { headers: headers() });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('x-cache'), null);
    const acct = await fetch(`${t.url}/api/v1/account`, { headers: headers() });
    assert.equal(acct.status, 200);
    assert.equal(acct.headers.get('x-cache'), null);
    const info = await fetch(`${t.api}/vendor-info/github`, { headers: headers() });
    assert.equal(info.headers.get('x-cache'), null);
  });
});

describe('response cache shared through Redis', () => {
  const env = { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' };
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    const clock = new TestClock(new Date());
    a = await startApp({ clock, env });
    b = await startApp({ clock, env, shareStoreWith: a });
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  test('an entry computed by one instance is a HIT on the other', async () => {
    const first = await fetch(`${a.api}/incidents?limit=9`);
    assert.equal(first.headers.get('x-cache'), 'MISS');
    const body = await first.text();
    const second = await fetch(`${b.api}/incidents?limit=9`);
    assert.equal(second.headers.get('x-cache'), 'HIT');
    assert.equal(await second.text(), body);
    assert.equal(second.headers.get('etag'), first.headers.get('etag'));
  });
});
