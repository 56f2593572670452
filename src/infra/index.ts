import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Clock } from '../domain/clock.ts';
import { LeasedRateLimiter } from './leased-rate-limiter.ts';
import { FallbackRateLimiter, MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './rate-limiter.ts';
import { openRedis, type RedisHandle } from './redis.ts';
import { MemoryStreamSlots, RedisStreamSlots, type StreamSlots } from './stream-slots.ts';
import { TieredResponseCache, MemoryResponseCache, RedisResponseCache, type ResponseCacheStore } from './response-cache.ts';

export interface Infra {
  /** Null unless REDIS_URL is set. */
  redis: RedisHandle | null;
  limiter: RateLimiter;
  cache: ResponseCacheStore;
  /** Open event streams per subject (concurrent-stream caps). */
  streamSlots: StreamSlots;
  close(): Promise<void>;
}

/** Shared state in Redis when configured, otherwise (and while Redis is down) in this process. */
export async function openInfra(config: Config, clock: Clock, log: FastifyBaseLogger): Promise<Infra> {
  const now = () => clock.now().getTime();
  const memoryLimiter = new MemoryRateLimiter(now);
  const memoryCache = new MemoryResponseCache(now);
  const memorySlots = new MemoryStreamSlots();
  if (!config.redisUrl) {
    return { redis: null, limiter: memoryLimiter, cache: memoryCache, streamSlots: memorySlots, close: async () => {} };
  }
  const redis = await openRedis(config.redisUrl, config.redisPrefix, log);
  const streamSlots = new RedisStreamSlots(redis.client, redis.prefix, memorySlots, log);
  // Large limits are counted in leased slices, small ones exactly (docs/access.md, "Leased counting").
  const leased = new LeasedRateLimiter(redis.client, redis.prefix, now, new RedisRateLimiter(redis.client, redis.prefix, now), (err) =>
    log.warn({ err }, 'rate-limit slice give-back failed'),
  );
  return {
    redis,
    limiter: new FallbackRateLimiter(leased, memoryLimiter, log),
    cache: new TieredResponseCache(new RedisResponseCache(redis, now), memoryCache, log),
    streamSlots,
    close: async () => {
      await streamSlots.close();
      // Unspent slices go back to the shared counters before the connection closes.
      await leased.close();
      await redis.close();
    },
  };
}
