import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import { getJson, startApp, TestClock, type TestApp } from '../../helpers/app.ts';
import { userWithKey } from '../../helpers/access.ts';
import { waitFor } from '../../helpers/wait.ts';

// Limits shared through Redis, and what happens when Redis is not there.

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('rate limits shared across instances through Redis', () => {
  const apps: TestApp[] = [];
  after(async () => {
    for (const a of apps.reverse()) await a.close();
  });

  test('two instances count one key together', async () => {
    const clock = new TestClock(new Date('2031-06-01T09:00:00.000Z'));
    const env = { REDIS_URL, RATE_LIMITS: '{}' };
    const a = await startApp({ clock, env });
    apps.push(a);
    const b = await startApp({ clock, env, shareStoreWith: a });
    apps.push(b);
    const u = await userWithKey(a, 'free');
    const headers = { 'x-api-key': u.secret };
    for (let i = 0; i < 10; i++) {
      const r = await getJson(`${(i % 2 ? a : b).api}/vendor-count`, { headers });
      assert.equal(r.status, 200, `request ${i}`);
      assert.equal(r.headers.get('x-ratelimit-remaining'), String(9 - i));
    }
    for (const inst of [a, b]) {
      const r = await getJson(`${inst.api}/vendor-count`, { headers });
      assert.equal(r.status, 429);
      assert.equal(r.body.used, 10);
    }
    const ready = await getJson(`${a.url}/readyz`);
    assert.deepEqual(
      ready.body.checks.find((c: any) => c.name === 'redis'),
      { name: 'redis', ok: true },
    );
  });
});

describe('Redis unreachable', () => {
  test('at start: limits fall back to in-process counting, the service answers, /readyz shows it', async () => {
    const t = await startApp({ clock: new TestClock(new Date('2031-06-02T09:00:00.000Z')), env: { REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMITS: '{}' } });
    try {
      for (let i = 0; i < 10; i++) assert.equal((await getJson(`${t.api}/incidents`)).status, 200);
      const over = await getJson(`${t.api}/incidents`);
      assert.equal(over.status, 429);
      const ready = await getJson(`${t.url}/readyz`);
      assert.equal(ready.status, 200);
      assert.equal(ready.body.status, 'degraded');
      assert.deepEqual(
        ready.body.checks.find((c: any) => c.name === 'redis'),
        { name: 'redis', ok: false, error: 'unreachable' },
      );
    } finally {
      await t.close();
    }
  });

  test('going away while serving: requests keep being answered and limited, and it recovers', async () => {
    const port = await freePort();
    let server = await startRedis(port);
    const clock = new TestClock(new Date('2031-06-03T09:00:00.000Z'));
    const t = await startApp({ clock, env: { REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMITS: '{}' } });
    try {
      const h = { 'x-forwarded-for': 'ignored' };
      for (let i = 0; i < 3; i++) assert.equal((await getJson(`${t.api}/incidents?limit=${i + 1}`, { headers: h })).status, 200);
      assert.equal((await getJson(`${t.url}/readyz`)).body.status, 'ready');
      await stopRedis(server);

      const during: number[] = [];
      for (let i = 0; i < 11; i++) during.push((await getJson(`${t.api}/incidents?limit=20`)).status);
      // In-process counting starts from zero: 10 answered, the 11th refused, none failed.
      assert.deepEqual(during, [...Array(10).fill(200), 429]);
      const ready = await getJson(`${t.url}/readyz`);
      assert.equal(ready.body.status, 'degraded');

      server = await startRedis(port);
      clock.advance(60_000);
      await waitFor(async () => (await getJson(`${t.url}/readyz`)).body.status === 'ready', { message: '/readyz to say ready', timeoutMs: 10_000 });
      const back = await getJson(`${t.api}/incidents`);
      assert.equal(back.status, 200);
      // Counting is in Redis again: the minute there holds only this request.
      assert.equal(back.headers.get('x-ratelimit-remaining'), '9');
    } finally {
      await t.close();
      await stopRedis(server);
    }
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await waitFor(
    () =>
      new Promise<boolean>((resolve) => {
        const c = net.connect(port, '127.0.0.1', () => {
          c.end();
          resolve(true);
        });
        c.on('error', () => resolve(false));
      }),
    { message: `redis-server on port ${port}`, timeoutMs: 10_000 },
  );
  return child;
}

async function stopRedis(child: ChildProcess) {
  if (child.exitCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}
