import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { RedisHandle } from './redis.ts';
import { throttledWarn } from './redis.ts';
import { fanOut } from './event-bus.ts';

// Notices for the open streams of one organisation's members (docs/early-warning.md
// "Outputs"): not events of the log, so nothing to number or resume; a notice lost while
// Redis is away is lost to the other instances' streams, and clients read the list on
// reconnect. In-process without Redis; across instances on `<REDIS_PREFIX>notices`, the
// publishing instance handing its own at once, as the event bus does.

export interface NoticeBus<T> {
  publish(notice: T): void;
  subscribe(listener: (notice: T) => void): () => void;
  close(): Promise<void>;
}

export function memoryNoticeBus<T>(onError: (err: unknown) => void = () => {}): NoticeBus<T> {
  return { ...fanOut<T>(onError), async close() {} };
}

export function redisNoticeBus<T>(redis: RedisHandle, log: FastifyBaseLogger): NoticeBus<T> {
  const local = memoryNoticeBus<T>((err) => log.warn({ err }, 'notice subscriber failed'));
  const origin = randomUUID();
  const channel = `${redis.prefix}notices`;
  const warn = throttledWarn(log, 'notice-bus');
  const sub = redis.client.duplicate({ enableOfflineQueue: true, lazyConnect: false, commandTimeout: undefined });
  sub.on('error', () => {
    /* reported by the main connection's handler; reconnects on its own */
  });
  sub.subscribe(channel).catch((err) => warn(err));
  sub.on('message', (ch: string, text: string) => {
    if (ch !== channel) return;
    try {
      const msg = JSON.parse(text) as { o: string; n: T };
      if (msg.o !== origin && msg.n) local.publish(msg.n);
    } catch (err) {
      warn(err);
    }
  });
  return {
    publish(notice) {
      local.publish(notice);
      redis.client.publish(channel, JSON.stringify({ o: origin, n: notice })).catch((err) => warn(err));
    },
    subscribe: (listener) => local.subscribe(listener),
    async close() {
      sub.disconnect();
    },
  };
}
