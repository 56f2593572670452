import type { StoredEvent } from '../domain/events.ts';

// In-process fan-out of committed events, so the stream can push without polling
// the log. Publishing happens after the transaction that wrote the events has
// committed; a subscriber that throws is logged by the caller's `onError`, never
// allowed to break ingestion or the other subscribers. A Redis implementation can
// sit behind the same two methods.

type EventListener = (events: StoredEvent[]) => void;

export interface EventBus {
  publish(events: StoredEvent[]): void;
  subscribe(listener: EventListener): () => void;
}

export function memoryEventBus(onError: (err: unknown) => void = () => {}): EventBus {
  const listeners = new Set<EventListener>();
  return {
    publish(events) {
      if (!events.length) return;
      for (const listener of [...listeners]) {
        try {
          listener(events);
        } catch (err) {
          onError(err);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The same bus, with every batch published through it counted first (metrics). */
export function countedBus<B extends EventBus>(bus: B, count: (events: StoredEvent[]) => void): B {
  return {
    ...bus,
    publish(events) {
      count(events);
      bus.publish(events);
    },
  };
}
