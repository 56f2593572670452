import { EventSource } from 'eventsource';
import type { IncidentEventType, NewEvent, StoredEvent } from '../../src/domain/events.ts';
import type { IncidentRecord } from '../../src/domain/records.ts';
import type { TestApp } from './app.ts';
import { incident } from './records.ts';

// A real SSE client (the `eventsource` package) that records what it receives, and
// a way to commit events to the log and announce them as the apply service does.

export interface Received {
  type: string;
  id: string;
  data: any;
}

export interface StreamClient {
  es: EventSource;
  received: Received[];
  /** Resolves once `n` events (snapshot included) have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  /** Resolves when the first event of `type` after index `from` arrives. */
  waitForType(type: string, from?: number, timeoutMs?: number): Promise<Received>;
  close(): void;
}

const TYPES = ['snapshot', 'incident.created', 'incident.updated', 'incident.resolved', 'maintenance.scheduled', 'early_warning'];

export function openStream(url: string, headers: Record<string, string> = {}): StreamClient {
  const es = new EventSource(url, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }),
  });
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  for (const type of TYPES) {
    es.addEventListener(type, (ev) => {
      const m = ev as MessageEvent;
      received.push({ type, id: m.lastEventId, data: JSON.parse(m.data) });
      for (const w of [...waiters]) w();
    });
  }
  const until = <T>(check: () => T | undefined, timeoutMs: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const done = () => {
        const v = check();
        if (v === undefined) return;
        waiters.delete(done);
        clearTimeout(timer);
        resolve(v);
      };
      const timer = setTimeout(() => {
        waiters.delete(done);
        reject(new Error(`timed out waiting for ${what}; received ${JSON.stringify(received.map((r) => [r.type, r.id]))}`));
      }, timeoutMs);
      waiters.add(done);
      done();
    });
  return {
    es,
    received,
    waitFor: (n, timeoutMs = 5000) => until(() => (received.length >= n ? received.slice(0, n) : undefined), timeoutMs, `${n} events`),
    waitForType: (type, from = 0, timeoutMs = 5000) => until(() => received.slice(from).find((r) => r.type === type), timeoutMs, `an event '${type}'`),
    close: () => es.close(),
  };
}

/** Commits incident events to the log (one transaction) and publishes them on the app's bus, as ingestion does. */
export async function commitEvents(
  t: TestApp,
  list: { vendor: string; id: string; type: IncidentEventType; over?: Partial<IncidentRecord> }[],
  o: { publish?: boolean } = {},
): Promise<StoredEvent[]> {
  const repo = t.repos.events;
  const stored = await t.store.db.transaction().execute(async (trx) => {
    const out: StoredEvent[] = [];
    for (const x of list) {
      const rec = incident(x.vendor, x.id, x.over);
      const e = {
        type: x.type,
        vendor: x.vendor,
        entityKind: 'incident',
        entityId: rec.id,
        occurredAt: new Date().toISOString(),
        payload: { ...rec, vendorName: x.vendor, durationMinutes: null },
      } as NewEvent;
      out.push(await repo.append(trx, e));
    }
    return out;
  });
  if (o.publish !== false) t.app.bus.publish(stored);
  return stored;
}
