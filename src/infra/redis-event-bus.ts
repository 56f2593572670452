import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { StoredEvent } from '../domain/events.ts';
import type { RedisHandle } from './redis.ts';
import { throttledWarn } from './redis.ts';
import { type EventBus, memoryEventBus } from './event-bus.ts';

// The event bus across instances: committed events are published on one Redis
// pub/sub channel (`<REDIS_PREFIX>events`) and every instance hands them to its
// own subscribers. The publishing instance delivers to its subscribers at once
// (and ignores its own message coming back), so a Redis outage only cuts the
// other instances off; the stream hub there fills such gaps from the event log.

export interface ClosableEventBus extends EventBus {
  close(): Promise<void>;
}

interface Message {
  /** Publishing instance. */
  o: string;
  e: StoredEvent[];
}

export function redisEventBus(redis: RedisHandle, log: FastifyBaseLogger): ClosableEventBus {
  const local = memoryEventBus((err) => log.warn({ err }, 'event subscriber failed'));
  const origin = randomUUID();
  const channel = `${redis.prefix}events`;
  const warn = throttledWarn(log, 'event-bus');
  // A subscribed connection can only listen, so it is a connection of its own. It
  // queues the SUBSCRIBE until connected and subscribes again after reconnects.
  const sub = redis.client.duplicate({ enableOfflineQueue: true, lazyConnect: false, commandTimeout: undefined });
  sub.on('error', () => {
    /* reported by the main connection's handler; reconnects on its own */
  });
  sub.subscribe(channel).catch((err) => warn(err));
  sub.on('message', (ch: string, text: string) => {
    if (ch !== channel) return;
    let msg: Message;
    try {
      msg = JSON.parse(text) as Message;
    } catch (err) {
      warn(err);
      return;
    }
    if (msg.o === origin || !Array.isArray(msg.e)) return;
    local.publish(msg.e);
  });

  return {
    publish(events) {
      if (!events.length) return;
      local.publish(events);
      const msg: Message = { o: origin, e: events };
      redis.client.publish(channel, JSON.stringify(msg)).catch((err) => warn(err));
    },
    subscribe: (listener) => local.subscribe(listener),
    async close() {
      sub.disconnect();
    },
  };
}
