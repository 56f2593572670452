import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { throttledWarn, type RedisHandle } from './redis.ts';
import type { NowMs } from './rate-limiter.ts';
import type { MaybePromise } from '../domain/maybe-promise.ts';

// Storage of serialized public responses. Entries carry their own expiry on the
// injected clock (tests move time); Redis additionally expires keys in real time
// so nothing lingers.

export interface CachedResponse {
  /** The serialized body, encoded once: a hit writes these bytes as they are. */
  body: Buffer;
  etag: string;
  contentType: string;
  /** Clock time (ms) after which the entry is stale. */
  expiresAt: number;
  /**
   * The data version (sequence of the last committed change seen on the event bus) when the
   * answer started to be computed, and the clock time it was stored: an entry older than a
   * newer change is computed again (docs/access.md "Response cache"). Absent: expiry only.
   */
  dataVersion?: number;
  storedAt?: number;
}

export interface ResponseCacheStore {
  readonly kind: 'memory' | 'redis';
  /** Without a promise when the entry (or its absence) is known in-process. */
  get(key: string): MaybePromise<CachedResponse | undefined>;
  set(key: string, value: CachedResponse): Promise<void>;
  close(): Promise<void>;
}

const MAX_ENTRIES = 5000;
const MAX_BYTES = 64 * 1024 * 1024;

export class MemoryResponseCache implements ResponseCacheStore {
  readonly kind = 'memory' as const;
  private readonly lru = new LRUCache<string, CachedResponse>({
    max: MAX_ENTRIES,
    maxSize: MAX_BYTES,
    sizeCalculation: (v) => v.body.length + 64,
  });

  private readonly now: NowMs;

  constructor(now: NowMs) {
    this.now = now;
  }

  get(key: string): CachedResponse | undefined {
    const v = this.lru.get(key);
    if (!v) return undefined;
    if (v.expiresAt <= this.now()) {
      this.lru.delete(key);
      return undefined;
    }
    return v;
  }

  async set(key: string, value: CachedResponse) {
    this.lru.set(key, value);
  }

  async close() {
    this.lru.clear();
  }
}

export class RedisResponseCache implements ResponseCacheStore {
  readonly kind = 'redis' as const;
  private readonly client: Redis;
  private readonly prefix: string;

  private readonly now: NowMs;

  constructor(redis: RedisHandle, now: NowMs) {
    this.now = now;
    this.client = redis.client;
    this.prefix = `${redis.prefix}cache:`;
  }

  // Keys are hashed: a route + query can be long, and Redis keys stay bounded.
  private redisKey(key: string) {
    return this.prefix + createHash('sha1').update(key).digest('base64url');
  }

  // Stored as one value: a JSON line of metadata, then the body bytes.
  async get(key: string) {
    const raw = await this.client.getBuffer(this.redisKey(key));
    if (!raw) return undefined;
    const nl = raw.indexOf(10);
    if (nl < 0) return undefined;
    const meta = JSON.parse(raw.subarray(0, nl).toString('utf8')) as Omit<CachedResponse, 'body'>;
    if (meta.expiresAt <= this.now()) return undefined;
    return { ...meta, body: raw.subarray(nl + 1) };
  }

  async set(key: string, value: CachedResponse) {
    const ttl = Math.max(1, value.expiresAt - this.now());
    const meta = JSON.stringify({
      etag: value.etag,
      contentType: value.contentType,
      expiresAt: value.expiresAt,
      dataVersion: value.dataVersion,
      storedAt: value.storedAt,
    });
    await this.client.set(this.redisKey(key), Buffer.concat([Buffer.from(`${meta}\n`), value.body]), 'PX', ttl);
  }

  async close() {}
}

/**
 * This process's LRU in front of Redis. An entry never changes before it expires,
 * so once read from Redis it is served from memory until its own expiry: repeated
 * hits cost no round trip, and entries computed by other instances are still found.
 * While Redis fails, the LRU alone serves (logged).
 */
export class TieredResponseCache implements ResponseCacheStore {
  readonly kind = 'redis' as const;
  private readonly warn: (err: unknown) => void;

  private readonly shared: ResponseCacheStore;
  private readonly local: ResponseCacheStore;

  constructor(shared: ResponseCacheStore, local: ResponseCacheStore, log: FastifyBaseLogger) {
    this.shared = shared;
    this.local = local;
    this.warn = throttledWarn(log, 'response-cache');
  }

  get(key: string): MaybePromise<CachedResponse | undefined> {
    const near = this.local.get(key);
    if (near instanceof Promise) return near.then((v) => v ?? this.far(key));
    return near ?? this.far(key);
  }

  private async far(key: string) {
    try {
      const far = await this.shared.get(key);
      if (far) await this.local.set(key, far);
      return far;
    } catch (err) {
      this.warn(err);
      return undefined;
    }
  }

  async set(key: string, value: CachedResponse) {
    await this.local.set(key, value);
    try {
      await this.shared.set(key, value);
    } catch (err) {
      this.warn(err);
    }
  }

  async close() {
    await this.local.close();
  }
}
