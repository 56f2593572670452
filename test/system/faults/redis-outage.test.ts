import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StoredEvent } from '../../../src/domain/events.ts';
import { userWithKey } from '../../helpers/access.ts';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { createThrowawayRedis, type ThrowawayRedis } from '../../helpers/throwaway-redis.ts';
import { waitFor } from '../../helpers/wait.ts';
import { percentile } from './support.ts';

// Redis (a server of the test's own) going away under two instances that share it for
// rate limits, the response cache and the event bus: both keep answering 200 with
// limits counted in-process, /readyz says degraded; when it is back (or unfreezes),
// counting is shared again and events cross instances again. The single-instance
// cases (unreachable at start, back after a stop) are in test/system/http/access-redis.test.ts.

describe('Redis outage under two instances', () => {
  const clock = new TestClock(new Date('2031-07-01T09:00:00.000Z'));
  let redis: ThrowawayRedis;
  let a: TestApp;
  let b: TestApp;
  let headers: Record<string, string>;
  const received: StoredEvent[] = [];

  before(async () => {
    redis = await createThrowawayRedis();
    const env = { REDIS_URL: redis.url, RATE_LIMITS: '{}' };
    a = await startApp({ clock, env });
    b = await startApp({ clock, env, shareStoreWith: a });
    headers = { 'x-api-key': (await userWithKey(a, 'free')).secret };
    b.app.bus.subscribe((events) => received.push(...events));
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await redis?.close();
  });

  const call = (inst: TestApp, path = '/vendor-count') => getJson(`${inst.api}${path}`, { headers });
  const remaining = (r: { headers: Headers }) => Number(r.headers.get('x-ratelimit-remaining'));
  const status = async (inst: TestApp) => (await getJson(`${inst.url}/readyz`)).body.status;
  let n = 0;
  const event = (): StoredEvent => ({
    seq: 1_000_000 + ++n,
    type: 'incident.created',
    vendor: 'github',
    entityKind: 'incident',
    entityId: `github:redis-fault-${n}`,
    occurredAt: clock.now().toISOString(),
    payload: {} as never,
  });
  /** An event published on A reaches B's subscribers (through Redis only). */
  const crosses = async () => {
    const e = event();
    a.app.bus.publish([e]);
    await waitFor(() => received.some((x) => x.entityId === e.entityId), {
      message: `event ${e.entityId} on instance B`,
      timeoutMs: 10_000,
      retryErrors: true,
    });
  };

  test('with Redis up, one key is counted once across both instances', async () => {
    for (let i = 0; i < 4; i++) assert.equal(remaining(await call(i % 2 ? b : a)), 9 - i);
    assert.equal(await status(a), 'ready');
    await crosses();
  });

  test('Redis killed: both answer 200, limits per instance, /readyz degraded', async (ctx) => {
    await redis.stop();
    const during: { status: number; remaining: number; ms: number }[] = [];
    for (const inst of [a, b]) {
      for (let i = 0; i < 11; i++) {
        const t0 = performance.now();
        const r = await call(inst);
        during.push({ status: r.status, remaining: remaining(r), ms: performance.now() - t0 });
      }
    }
    // Each instance counts on its own from zero: 10 answered, the 11th refused; never a 5xx.
    assert.deepEqual(
      during.map((d) => d.status),
      [...Array(10).fill(200), 429, ...Array(10).fill(200), 429],
    );
    assert.deepEqual(
      during.slice(0, 10).map((d) => d.remaining),
      [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    );
    for (const inst of [a, b]) {
      const ready = await getJson(`${inst.url}/readyz`);
      assert.equal(ready.status, 200);
      assert.equal(ready.body.status, 'degraded');
      assert.deepEqual(
        ready.body.checks.find((c: any) => c.name === 'redis'),
        { name: 'redis', ok: false, error: 'unreachable' },
      );
      assert.deepEqual(
        ready.body.checks.find((c: any) => c.name === 'database'),
        { name: 'database', ok: true },
      );
    }
    // Publishing does not fail while Redis is away (A's own subscribers still get it).
    assert.doesNotThrow(() => a.app.bus.publish([event()]));
    ctx.diagnostic(
      `redis killed: p99 answer ${Math.round(
        percentile(
          during.map((d) => d.ms),
          99,
        ),
      )} ms`,
    );
  });

  test('Redis back: counting is shared again and events cross instances again', async (ctx) => {
    await redis.start();
    clock.advance(60_000);
    const t0 = performance.now();
    await waitFor(async () => (await status(a)) === 'ready' && (await status(b)) === 'ready', {
      message: 'both instances ready',
      timeoutMs: 20_000,
      retryErrors: true,
    });
    const readyMs = Math.round(performance.now() - t0);
    // A fresh minute in Redis (the restarted server is empty): one count for both instances.
    for (let i = 0; i < 4; i++) assert.equal(remaining(await call(i % 2 ? a : b)), 9 - i, `request ${i}`);
    await crosses();
    ctx.diagnostic(`redis back: both instances ready ${readyMs} ms after it accepted connections`);
  });

  test('Redis hung (SIGSTOP): answers stay 200 and bounded, and it recovers on SIGCONT', async (ctx) => {
    clock.advance(60_000);
    redis.pause();
    const ms: number[] = [];
    try {
      for (const inst of [a, b, a, b]) {
        const t0 = performance.now();
        const r = await call(inst, '/incidents?limit=3');
        ms.push(performance.now() - t0);
        assert.equal(r.status, 200);
      }
      const ready = await getJson(`${a.url}/readyz`);
      assert.equal(ready.status, 200);
      assert.equal(ready.body.status, 'degraded');
    } finally {
      redis.resume();
    }
    // Each Redis command gives up after 500 ms; a request makes a few of them.
    assert.ok(Math.max(...ms) < 5_000, `slowest answer ${Math.round(Math.max(...ms))} ms`);
    await waitFor(async () => (await status(a)) === 'ready' && (await status(b)) === 'ready', {
      message: 'ready after SIGCONT',
      timeoutMs: 20_000,
      retryErrors: true,
    });
    clock.advance(60_000);
    for (let i = 0; i < 4; i++) assert.equal(remaining(await call(i % 2 ? a : b)), 9 - i, `request ${i}`);
    await crosses();
    ctx.diagnostic(`redis hung: slowest answer ${Math.round(Math.max(...ms))} ms`);
  });
});
