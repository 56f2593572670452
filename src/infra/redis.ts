import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

// One Redis connection per process, created only when REDIS_URL is set. Redis is
// an optional dependency: commands fail fast while it is unreachable (no offline
// queue, short timeout) so callers can fall back to in-process state instead of
// hanging a request, and the client keeps reconnecting in the background.

const REDIS_COMMAND_TIMEOUT_MS = 500;
const CONNECT_WAIT_MS = 2000;

export interface RedisHandle {
  client: Redis;
  /** Prefix of every key this deployment writes (REDIS_PREFIX). */
  prefix: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function openRedis(url: string, prefix: string, log: FastifyBaseLogger): Promise<RedisHandle> {
  // Loaded here, not with the app: a process without REDIS_URL never pays for the client
  // (docs/architecture.md, "Optional infrastructure").
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_WAIT_MS,
    // Keep trying, at most every 5 s, for as long as the process lives.
    retryStrategy: (times) => Math.min(200 * times, 5000),
    lazyConnect: true,
  });
  let lastLogged = 0;
  client.on('error', (err) => {
    // A down Redis emits an error per reconnect attempt; one line every 30 s is enough.
    const now = Date.now();
    if (now - lastLogged > 30_000) {
      lastLogged = now;
      log.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'redis unavailable; using in-process fallback');
    }
  });
  client.on('ready', () => log.info('redis connected'));
  try {
    await client.connect();
  } catch {
    // Start anyway: limits and cache run in-process until Redis answers.
  }
  return {
    client,
    prefix,
    async ping() {
      await client.ping();
    },
    async close() {
      client.disconnect();
    },
  };
}

/** Logs a Redis command failure at most once per interval per topic. */
export function throttledWarn(log: FastifyBaseLogger, topic: string, intervalMs = 30_000) {
  let last = 0;
  return (err: unknown) => {
    const now = Date.now();
    if (now - last < intervalMs) return;
    last = now;
    log.warn({ err: { message: (err as Error)?.message }, topic }, 'redis command failed; using in-process fallback');
  };
}
