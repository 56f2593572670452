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

/** Listeners called in turn; one that throws goes to `onError` and never stops the others. */
export function fanOut<T>(onError: (err: unknown) => void = () => {}) {
  const listeners = new Set<(value: T) => void>();
  return {
    publish(value: T) {
      for (const listener of [...listeners]) {
        try {
          listener(value);
        } catch (err) {
          onError(err);
        }
      }
    },
    subscribe(listener: (value: T) => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export function memoryEventBus(onError: (err: unknown) => void = () => {}): EventBus {
  const out = fanOut<StoredEvent[]>(onError);
  return {
    publish(events) {
      if (events.length) out.publish(events);
    },
    subscribe: out.subscribe,
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
