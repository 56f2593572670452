import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { LeasedRateLimiter, MAX_SLICE } from '../../src/infra/leased-rate-limiter.ts';
import { RedisRateLimiter, type LimitWindow } from '../../src/infra/rate-limiter.ts';
import { dropRedisKeys, uniqueName } from '../helpers/app.ts';

// Counting in leased slices (src/infra/leased-rate-limiter.ts, docs/access.md "Leased
// counting"), against a real Redis: fewer round trips than requests, never past a
// limit across instances, exact usage for this instance, unspent tokens given back,
// small limits counted exactly.

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const big: LimitWindow[] = [
  { name: 'minute', limit: 1000, windowSeconds: 60 },
  { name: 'day', limit: 1000, windowSeconds: 86_400 },
];
const small: LimitWindow[] = [
  { name: 'minute', limit: 10, windowSeconds: 60 },
  { name: 'day', limit: 100, windowSeconds: 86_400 },
];

describe('leased rate limiting (Redis)', () => {
  let client: Redis;
  let prefix: string;
  let clockMs = Date.UTC(2026, 10, 27, 12, 0, 30);
  const now = () => clockMs;
  const limiters: LeasedRateLimiter[] = [];
  const make = () => {
    const l = new LeasedRateLimiter(client, prefix, now, new RedisRateLimiter(client, prefix, now));
    limiters.push(l);
    return l;
  };
  /** What Redis holds for a window of the current clock. */
  const shared = async (subject: string, w: LimitWindow) =>
    Number((await client.get(`${prefix}rl:${subject}|${w.name}|${Math.floor(clockMs / (w.windowSeconds * 1000))}`)) ?? 0);

  before(async () => {
    client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    prefix = `${uniqueName('lease')}:`;
  });
  after(async () => {
    for (const l of limiters) await l.close();
    await dropRedisKeys(REDIS_URL, prefix);
    client.disconnect();
  });

  it('takes one slice for many requests and reports this instance’s usage exactly', async () => {
    const l = make();
    // Every script call the client sends, counted on its way out.
    let calls = 0;
    const original = client.sendCommand.bind(client);
    client.sendCommand = ((cmd: { name: string }) => {
      if (cmd.name === 'evalsha' || cmd.name === 'eval') calls++;
      return original(cmd as never);
    }) as typeof client.sendCommand;
    try {
      for (let i = 0; i < 10; i++) assert.equal((await l.consume('u:a', big)).allowed, true);
    } finally {
      client.sendCommand = original;
    }
    assert.ok(calls >= 1 && calls <= 2, `10 requests cost ${calls} script calls`);
    // The slice is counted in Redis as a whole ...
    assert.equal(await shared('u:a', big[0]), Math.min(MAX_SLICE, Math.floor(1000 / 8)));
    // ... while this instance reports what was spent, in peeks and in the headers' figures.
    assert.equal((await l.peek('u:a', big)).windows[0].used, 10);
    const r = await l.consume('u:a', big);
    assert.equal(r.windows[0].used, 11);
    assert.equal(r.windows[0].remaining, 989);
    await l.refund('u:a', big);
    assert.equal((await l.peek('u:a', big)).windows[1].used, 10);
  });

  it('spends a token of a slice it holds at once, without a promise (docs/access.md "Hot path for cache hits")', async () => {
    const l = make();
    const first = l.consume('u:now', big);
    assert.ok(first instanceof Promise, 'the first request waits for its slice');
    assert.equal((await first).allowed, true);
    const second = l.consume('u:now', big);
    assert.ok(!(second instanceof Promise), 'a token of the slice is spent in this turn');
    assert.equal(second.allowed, true);
    assert.equal(second.windows[0].used, 2);
    assert.ok(l.consume('u:now', small) instanceof Promise, 'small limits are counted exactly, in Redis');
  });

  it('gives unspent tokens back on close, so Redis ends at what was spent', async () => {
    const l = make();
    for (let i = 0; i < 7; i++) await l.consume('u:b', big);
    assert.ok((await shared('u:b', big[1])) > 7);
    await l.close();
    assert.equal(await shared('u:b', big[1]), 7);
    assert.equal(await shared('u:b', big[0]), 7);
  });

  it('gives the slice back when a window ends: the day keeps only what was spent', async () => {
    const l = make();
    for (let i = 0; i < 3; i++) await l.consume('u:c', big);
    clockMs += 60_000;
    await l.consume('u:c', big);
    await l.close();
    assert.equal(await shared('u:c', big[1]), 4);
    assert.equal(await shared('u:c', big[0]), 1);
  });

  it('two instances together never admit more than the limit, and admit all of it', async () => {
    const a = make();
    const b = make();
    let admitted = 0;
    // Bounded: 1,300 attempts per instance against a limit of 1,000.
    for (let i = 0; i < 1300; i++) {
      const [x, y] = await Promise.all([a.consume('u:d', big), b.consume('u:d', big)]);
      admitted += Number(x.allowed) + Number(y.allowed);
    }
    assert.equal(admitted, 1000);
    const refused = await a.consume('u:d', big);
    assert.equal(refused.allowed, false);
    assert.equal(refused.violated[0].used, 1000);
  });

  it('counts small limits exactly, one request at a time', async () => {
    const l = make();
    for (let i = 0; i < 3; i++) await l.consume('u:e', small);
    assert.equal(await shared('u:e', small[0]), 3);
    for (let i = 0; i < 7; i++) assert.equal((await l.consume('u:e', small)).allowed, true);
    const r = await l.consume('u:e', small);
    assert.equal(r.allowed, false);
    assert.equal(await shared('u:e', small[0]), 10);
  });

  it('a slice whose answer is lost (a timeout after Redis counted it) is taken back, not kept as used', async () => {
    // A proxy to Redis that holds Redis's answers back while `delayMs` is set: the client
    // gives up on the call, Redis has run it.
    let delayMs = 0;
    const target = new URL(REDIS_URL);
    const proxy = net.createServer((down) => {
      const up = net.connect(Number(target.port || 6379), target.hostname);
      down.pipe(up);
      // In order: a held answer holds back the ones after it.
      let sent = Promise.resolve();
      up.on('data', (chunk) => {
        const wait = delayMs;
        sent = sent.then(() => (wait ? new Promise((r) => setTimeout(r, wait)) : undefined)).then(() => void down.write(chunk));
      });
      const end = () => {
        down.destroy();
        up.destroy();
      };
      up.on('error', end).on('close', end);
      down.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const port = (proxy.address() as net.AddressInfo).port;
    const slow = new Redis(port, '127.0.0.1', { commandTimeout: 100, maxRetriesPerRequest: 0 });
    try {
      await slow.ping();
      const l = new LeasedRateLimiter(slow, prefix, now, new RedisRateLimiter(slow, prefix, now));
      limiters.push(l);
      delayMs = 400;
      await assert.rejects(async () => l.consume('u:lost', big), /timed out/i);
      delayMs = 0;
      // From here on the calls must not time out: a loaded machine can take more than 100 ms
      // for a round trip through the proxy (ioredis reads the option at every command).
      slow.options.commandTimeout = 10_000;
      // Let the held answers drain (the take-back's too) before the next calls.
      await new Promise((r) => setTimeout(r, 1000));
      // Nothing was admitted, so nothing stays counted (before: the whole slice did).
      assert.equal((await l.peek('u:lost', big)).windows[1].used, 0);
      assert.equal(await shared('u:lost', big[1]), 0);
      // And the next request is counted as one.
      assert.equal((await l.consume('u:lost', big)).windows[1].used, 1);
    } finally {
      slow.disconnect();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
