import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { type LimitWindow, MemoryRateLimiter, RedisRateLimiter } from '../src/infra/rate-limiter.ts';
import { reportFigures } from './lib/report.ts';

// Our fixed-window counters (src/infra/rate-limiter.ts) against rate-limiter-flexible doing
// the same job: a request counted in a minute and a day window of one subject, refused
// without being counted when either is full (docs/access.md "Rate limits"). With
// rate-limiter-flexible that is one limiter per window, consumed one after the other, and a
// refusal by the second window must give back what the first counted (`reward`). Prints
// consumes per second in process and, with REDIS_URL, against Redis, plus what each leaves
// counted after a burst past a full day window (the refusal must count nothing).
//
//   npm run bench -- limiter [calls=200000]
//   REDIS_URL=redis://127.0.0.1:6379 npm run bench -- limiter

const calls = Number(process.argv[2] ?? 200_000);
const WINDOWS: LimitWindow[] = [
  { name: 'minute', limit: 1_000_000_000, windowSeconds: 60 },
  { name: 'day', limit: 1_000_000_000, windowSeconds: 86_400 },
];
const now = () => Date.now();

interface Pair {
  consume(subject: string): Promise<boolean>;
}

/** Two rate-limiter-flexible limiters as one: both count, or neither. */
function flexiblePair(minute: RateLimiterMemory | RateLimiterRedis, day: RateLimiterMemory | RateLimiterRedis): Pair {
  return {
    async consume(subject) {
      try {
        await minute.consume(subject);
      } catch (e) {
        if (e instanceof RateLimiterRes) return false;
        throw e;
      }
      try {
        await day.consume(subject);
        return true;
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        await minute.reward(subject);
        return false;
      }
    },
  };
}

async function rate(label: string, pair: Pair, subjects: number, n: number): Promise<number> {
  const batch = 100;
  const t0 = performance.now();
  for (let i = 0; i < n; i += batch) {
    const work: Promise<boolean>[] = [];
    for (let j = 0; j < batch; j++) work.push(pair.consume(`s${(i + j) % subjects}`));
    await Promise.all(work);
  }
  const perSecond = Math.round(n / ((performance.now() - t0) / 1000));
  console.log(`  ${label.padEnd(44)} ${perSecond.toLocaleString('en')} consumes/s`);
  return perSecond;
}

/** What a day window of 5 shows after 20 attempts: 5, whoever counts (refusals count nothing). */
async function countedAfterBurst(pair: Pair, read: () => Promise<number>): Promise<number> {
  for (let i = 0; i < 20; i++) await pair.consume('burst');
  return read();
}

const figures: Record<string, number> = {};
console.log(`in process, ${calls.toLocaleString('en')} consumes over 1,000 subjects, minute + day windows:`);
const ours = new MemoryRateLimiter(now);
figures.memoryOursPerS = await rate('ours (MemoryRateLimiter, both windows)', { consume: async (s) => (await ours.consume(s, WINDOWS)).allowed }, 1000, calls);
const flex = flexiblePair(new RateLimiterMemory({ points: 1_000_000_000, duration: 60 }), new RateLimiterMemory({ points: 1_000_000_000, duration: 86_400 }));
figures.memoryFlexiblePerS = await rate('rate-limiter-flexible (two RateLimiterMemory)', flex, 1000, calls);

const small: LimitWindow[] = [
  { name: 'minute', limit: 1000, windowSeconds: 60 },
  { name: 'day', limit: 5, windowSeconds: 86_400 },
];
const oursSmall = new MemoryRateLimiter(now);
figures.memoryOursCountedMinute = await countedAfterBurst(
  { consume: async (s) => (await oursSmall.consume(s, small)).allowed },
  async () => (await oursSmall.peek('burst', small)).windows[0]!.used,
);
const fMinute = new RateLimiterMemory({ points: 1000, duration: 60 });
figures.memoryFlexibleCountedMinute = await countedAfterBurst(
  flexiblePair(fMinute, new RateLimiterMemory({ points: 5, duration: 86_400 })),
  async () => (await fMinute.get('burst'))?.consumedPoints ?? 0,
);
console.log(
  `  minute window after 20 attempts on a full day window of 5: ours ${figures.memoryOursCountedMinute}, rate-limiter-flexible ${figures.memoryFlexibleCountedMinute} (5 expected)`,
);

const url = process.env.REDIS_URL;
if (url) {
  const prefix = `vis-bench-limiter-${process.pid}:`;
  const redis = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 2 });
  const redisCalls = Math.min(calls, 50_000);
  console.log(`Redis ${url}, ${redisCalls.toLocaleString('en')} consumes:`);
  const oursRedis = new RedisRateLimiter(redis, prefix, now);
  figures.redisOursPerS = await rate(
    'ours (one script call, both windows)',
    { consume: async (s) => (await oursRedis.consume(s, WINDOWS)).allowed },
    1000,
    redisCalls,
  );
  const flexRedis = flexiblePair(
    new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}m`, points: 1_000_000_000, duration: 60 }),
    new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}d`, points: 1_000_000_000, duration: 86_400 }),
  );
  figures.redisFlexiblePerS = await rate('rate-limiter-flexible (two RateLimiterRedis)', flexRedis, 1000, redisCalls);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  redis.disconnect();
}
reportFigures('limiter', figures, { calls });
