import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { incidentsRepository } from '../../src/store/repositories/incidents-repository.ts';
import { getJson, startApp, TestClock, type TestApp } from '../helpers/app.ts';
import { userWithKey, type TestUser } from '../helpers/access.ts';
import { incident } from '../helpers/records.ts';

// The response cache of DESIGN.md §5 on a real server with a test clock.

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
        Array.from({ length: 8 }, () => fetch(`${t.api}/incidents?limit=3`, { headers: headers() }).then(async (r) => ({ cache: r.headers.get('x-cache'), body: await r.text() }))),
      );
      assert.equal(calls, 1);
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
